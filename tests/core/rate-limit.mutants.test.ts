/**
 * Remembered refusals at their reset (src/core/rate-limit.ts): at the very millisecond a refusal's unit
 * frees the store is asked again, and a refusal asked again and renewed counts as the newest one when the
 * memory is full. And the refusal text of a per-minute budget.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { LimitPolicy, LimitResult, Store } from '../../src/core/ports.ts';
import { checkRateLimit, REFUSED_MEMORY, refusalText } from '../../src/core/rate-limit.ts';

const silent = () => {};
const T = Date.UTC(2026, 10, 23, 10, 0, 0);
const ONE: LimitPolicy = { name: 'one', limit: 1, windowSeconds: 60, algorithm: 'sliding-log' };

/** A store whose every budget check answers `answer(now)`, counting the checks. */
function scripted(answer: (now: number, call: number) => LimitResult) {
  const calls = { hit: 0 };
  const hit: Store['hit'] = async (_policy, _client, now) => answer(now, ++calls.hit);
  const store: Store = { ...createMemoryStore(), hit };
  return { store, calls };
}
const refuse = (resetAt: number): LimitResult => ({ allowed: false, limit: 1, remaining: 0, resetAt });

describe('remembered refusals at their reset', () => {
  it('asks the store again at the millisecond the unit frees', async () => {
    const { store, calls } = scripted((now, call) =>
      call === 1 ? refuse(now + 5000) : { allowed: true, limit: 1, remaining: 0, resetAt: now + 60_000 },
    );
    const check = (now: number) => checkRateLimit({ store, policy: ONE, client: 'c', log: silent, now });
    expect((await check(T)).ok).toBe(false);
    expect((await check(T + 4999)).ok).toBe(false);
    expect(calls.hit).toBe(1);
    expect(await check(T + 5000)).toMatchObject({ ok: true });
    expect(calls.hit).toBe(2);
  });

  it('a refusal renewed at its reset is the newest remembered, not the oldest', async () => {
    const { store, calls } = scripted((now) => refuse(now + 1000));
    const check = (client: string, now: number) => checkRateLimit({ store, policy: ONE, client, log: silent, now });
    await check('a', T);
    for (let i = 1; i < REFUSED_MEMORY; i++) await check(`b${i}`, T);
    await check('a', T + 1000); // freed: asked again, refused again until T + 2000
    await check('c', T + 1000); // one over the memory: the oldest (b1) is forgotten
    expect(calls.hit).toBe(REFUSED_MEMORY + 2);
    expect((await check('a', T + 1500)).ok).toBe(false); // still remembered: no store call
    expect(calls.hit).toBe(REFUSED_MEMORY + 2);
    await check('b1', T + 1500);
    expect(calls.hit).toBe(REFUSED_MEMORY + 3);
  });
});

describe('refusal text', () => {
  it('states a per-minute budget for any budget but the lead one', () => {
    expect(refusalText({ name: 'read', limit: 120 }, 7)).toBe(
      'Rate limit exceeded: this address may make 120 requests per minute. Retry after 7 seconds.',
    );
  });
});
