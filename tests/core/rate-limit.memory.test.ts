/**
 * The refusals an instance remembers (src/core/rate-limit.ts): a client over its budget is refused from
 * memory, with no store call, until its unit frees; then the store is asked again. At most REFUSED_MEMORY
 * clients are remembered per store, the oldest forgotten first. Written against the mutants `npm run mutate`
 * found without a covering test (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { LimitPolicy, Store } from '../../src/core/ports.ts';
import { checkRateLimit, LEAD_POLICY, REFUSED_MEMORY } from '../../src/core/rate-limit.ts';

const silent = () => {};
const T = Date.UTC(2026, 10, 23, 10, 0, 0);

/** A real in-process store that counts the budget checks it is asked. */
function counted() {
  const real = createMemoryStore();
  const calls = { hit: 0 };
  const hit: Store['hit'] = (...args) => {
    calls.hit++;
    return real.hit(...args);
  };
  const store: Store = { ...real, hit };
  return { store, calls };
}

describe('refusals remembered', () => {
  it('past the budget the store is not asked again until the unit frees, and the refusal counts down', async () => {
    const { store, calls } = counted();
    const check = (now: number) => checkRateLimit({ store, policy: LEAD_POLICY, client: 'c', log: silent, now });
    for (let i = 0; i < 5; i++) await check(T);
    // The fifth unit was the last: its reset is when the oldest frees, so the sixth is refused from memory.
    const first = await check(T + 1000);
    expect(first).toMatchObject({ ok: false, reset: 3599 });
    expect(calls.hit).toBe(5);
    const again = await check(T + 600_500);
    expect(again).toEqual({
      ok: false,
      policy: LEAD_POLICY,
      limit: 5,
      remaining: 0,
      reset: 3000,
      retryAfter: 3000,
      error: 'Rate limit exceeded: this address may make 5 lead submissions per hour. Retry after 3000 seconds.',
    });
    expect(calls.hit).toBe(5);
    expect(await check(T + 3_599_999)).toMatchObject({ ok: false, reset: 1 });
    expect(calls.hit).toBe(5);
    // At the reset the store is asked again: the five units spent at T are free.
    expect(await check(T + 3_600_001)).toMatchObject({ ok: true, remaining: 4 });
    expect(calls.hit).toBe(6);
  });

  it('another client, budget or store is not refused from one client’s memory', async () => {
    const { store, calls } = counted();
    for (let i = 0; i < 6; i++) await checkRateLimit({ store, policy: LEAD_POLICY, client: 'c', log: silent, now: T });
    expect((await checkRateLimit({ store, policy: LEAD_POLICY, client: 'd', log: silent, now: T })).ok).toBe(true);
    const other = { ...LEAD_POLICY, name: 'other' };
    expect((await checkRateLimit({ store, policy: other, client: 'c', log: silent, now: T })).ok).toBe(true);
    const fresh = createMemoryStore();
    expect((await checkRateLimit({ store: fresh, policy: LEAD_POLICY, client: 'c', log: silent, now: T })).ok).toBe(
      true,
    );
    expect(calls.hit).toBe(7);
  });

  it(`remembers at most ${REFUSED_MEMORY} clients per store, forgetting the oldest first`, async () => {
    const { store, calls } = counted();
    const one: LimitPolicy = { name: 'one', limit: 1, windowSeconds: 60, algorithm: 'sliding-log' };
    const check = (client: string) => checkRateLimit({ store, policy: one, client, log: silent, now: T });
    for (let i = 0; i <= REFUSED_MEMORY; i++) {
      await check(`c${i}`);
      expect((await check(`c${i}`)).ok).toBe(false);
    }
    // Each client's one unit was its last: remembered when spent, so its refusal cost no store call.
    const asked = REFUSED_MEMORY + 1;
    expect(calls.hit).toBe(asked);
    await check('c1'); // still remembered
    expect(calls.hit).toBe(asked);
    await check('c0'); // forgotten: asked again
    expect(calls.hit).toBe(asked + 1);
  });
});
