/**
 * The two budgets' policies and the seconds a state reports (src/core/rate-limit.ts), as the module defines them
 * when it loads: each test loads it afresh (vi.resetModules()). The numbers are the contract's (src/contract/
 * limits.ts): 120 reads a minute over a sliding window, 5 leads an hour over a sliding log (src/core/ports.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import type { LimitResult, Store } from '../../src/core/ports.ts';

const load = async () => {
  vi.resetModules();
  return import('../../src/core/rate-limit.ts');
};

const T = Date.UTC(2026, 10, 23, 10, 0, 0);
const silent = () => {};
/** A store whose budget check answers `result` (nothing else of the store is used). */
const answering = (result: LimitResult) => ({ hit: async () => result }) as unknown as Store;

describe('the budgets', () => {
  it('reads: "read", 120 a minute, sliding window', async () => {
    const { READ_POLICY } = await load();
    expect(READ_POLICY).toEqual({ name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' });
  });

  it('leads: "lead", 5 an hour, sliding log', async () => {
    const { LEAD_POLICY } = await load();
    expect(LEAD_POLICY).toEqual({ name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' });
  });
});

describe('reset: whole seconds until the store says, at least 1', () => {
  it('rounds up, and never says 0', async () => {
    const { checkRateLimit, READ_POLICY } = await load();
    const check = (resetAt: number, client: string) =>
      checkRateLimit({
        store: answering({ allowed: true, limit: 120, remaining: 7, resetAt }),
        policy: READ_POLICY,
        client,
        log: silent,
        now: T,
      });
    expect(await check(T + 1500, 'a')).toMatchObject({ ok: true, limit: 120, remaining: 7, reset: 2 });
    expect(await check(T + 60_000, 'b')).toMatchObject({ ok: true, reset: 60 });
    expect(await check(T + 200, 'c')).toMatchObject({ ok: true, reset: 1 });
  });

  it('a refusal and its remembered repeat say the seconds left until the unit frees', async () => {
    const { checkRateLimit, LEAD_POLICY } = await load();
    const store = answering({ allowed: false, limit: 5, remaining: 0, resetAt: T + 59_001 });
    const check = (now: number) => checkRateLimit({ store, policy: LEAD_POLICY, client: 'c', log: silent, now });
    expect(await check(T)).toMatchObject({
      ok: false,
      reset: 60,
      retryAfter: 60,
      error: 'Rate limit exceeded: this address may make 5 lead submissions per hour. Retry after 60 seconds.',
    });
    expect(await check(T + 30_000)).toMatchObject({ ok: false, reset: 30, retryAfter: 30 });
  });
});
