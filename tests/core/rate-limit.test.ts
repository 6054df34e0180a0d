import { describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { rateLimitHeaders } from '../../src/http/responses.ts';
import {
  checkRateLimit,
  LEAD_POLICY,
  READ_POLICY,
  retryMinutes,
  REFUSED_MEMORY,
  refusalText,
} from '../../src/core/rate-limit.ts';
import type { Store, LimitPolicy, LimitResult } from '../../src/core/ports.ts';

const silent = () => {};

describe('checkRateLimit', () => {
  it('answers plain numbers: limit, remaining, reset seconds, and the refusal with retryAfter', async () => {
    const store = createMemoryStore();
    const now = Date.UTC(2026, 10, 23, 10, 0, 15);
    const first = await checkRateLimit({ store, policy: READ_POLICY, client: 'a', log: silent, now });
    expect(first).toMatchObject({ ok: true, policy: READ_POLICY, limit: 120, remaining: 119, reset: 45 });
    for (let i = 0; i < 4; i++)
      await checkRateLimit({ store, policy: LEAD_POLICY, client: 'b', log: silent, now: now + i * 1000 });
    const fifth = await checkRateLimit({ store, policy: LEAD_POLICY, client: 'b', log: silent, now: now + 10_000 });
    expect(fifth).toMatchObject({ ok: true, limit: 5, remaining: 0, reset: 3590 });
    const sixth = await checkRateLimit({ store, policy: LEAD_POLICY, client: 'b', log: silent, now: now + 20_000 });
    expect(sixth).toMatchObject({ ok: false, limit: 5, reset: 3580, retryAfter: 3580 });
    if (!sixth.ok) expect(sixth.error).toMatch(/5 lead submissions per hour.*3580 seconds/);
  });

  it('states the contract headers (src/http/responses.ts), and Retry-After with the refusal', async () => {
    const store = createMemoryStore();
    const now = Date.UTC(2026, 10, 23, 10, 0, 15);
    const first = await checkRateLimit({ store, policy: READ_POLICY, client: 'a', log: silent, now });
    expect({ ok: first.ok, headers: rateLimitHeaders(first) }).toMatchObject({
      ok: true,
      headers: {
        'RateLimit-Limit': '120',
        'RateLimit-Remaining': '119',
        'RateLimit-Reset': '45',
        'RateLimit-Policy': '120;w=60',
      },
    });
    for (let i = 0; i < 4; i++)
      await checkRateLimit({ store, policy: LEAD_POLICY, client: 'a', log: silent, now: now + i * 1000 });
    const fifth = await checkRateLimit({ store, policy: LEAD_POLICY, client: 'a', log: silent, now: now + 10_000 });
    expect(rateLimitHeaders(fifth)).toMatchObject({
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3590',
      'RateLimit-Policy': '5;w=3600',
    });
    const sixth = await checkRateLimit({ store, policy: LEAD_POLICY, client: 'a', log: silent, now: now + 20_000 });
    expect({ ...sixth, headers: rateLimitHeaders(sixth) }).toMatchObject({
      ok: false,
      retryAfter: 3580,
      headers: { 'Retry-After': '3580', 'RateLimit-Reset': '3580', 'RateLimit-Limit': '5' },
    });
    if (!sixth.ok) expect(sixth.error).toMatch(/5 lead submissions per hour.*3580 seconds/);
  });

  it('fails open and logs when the store throws', async () => {
    const broken = { ...createMemoryStore(), hit: () => Promise.reject(new Error('ECONNREFUSED')) } as Store;
    const events: unknown[] = [];
    const r = await checkRateLimit({
      store: broken,
      policy: READ_POLICY,
      client: 'a',
      log: (e, f) => events.push({ e, ...f }),
      now: 0,
    });
    expect({ ...r, headers: rateLimitHeaders(r) }).toMatchObject({
      ok: true,
      degraded: true,
      headers: { 'RateLimit-Remaining': '120', 'RateLimit-Policy': '120;w=60' },
    });
    expect(r).toMatchObject({ remaining: 120, reset: 60 });
    expect(events).toEqual([{ e: 'rate_limit_store_failed', policy: 'read', error: 'ECONNREFUSED' }]);
  });
});

describe('retryMinutes', () => {
  it('puts Retry-After (seconds or an HTTP date) in whole minutes, at least one', () => {
    expect(retryMinutes(3580)).toBe(60);
    expect(retryMinutes('61')).toBe(2);
    expect(retryMinutes('0')).toBe(1);
    expect(retryMinutes('Wed, 25 Nov 2026 10:05:00 GMT', Date.UTC(2026, 10, 25, 10, 0, 30))).toBe(5);
    expect(retryMinutes(null)).toBeNull();
    expect(retryMinutes('soon')).toBeNull();
  });
});

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

describe('remembered refusals and the memory they take', () => {
  /** A store refusing each client until `until[client]`, and allowing it after (one unit of ten spent). */
  function byClient(until: Record<string, number>) {
    const calls: string[] = [];
    const hit: Store['hit'] = async (_policy, client, now) => {
      calls.push(client);
      const resetAt = until[client] ?? now + 1000;
      return resetAt > now
        ? { allowed: false, limit: 1, remaining: 0, resetAt }
        : { allowed: true, limit: 10, remaining: 9, resetAt: now + 60_000 };
    };
    return { store: { ...createMemoryStore(), hit } as Store, calls };
  }
  const policy: LimitPolicy = { name: 'ten', limit: 10, windowSeconds: 60, algorithm: 'sliding-window' };

  it('a client whose refusal passed is forgotten when it comes back, keeping no place in the memory', async () => {
    const { store, calls } = byClient({ old: T + 100_000, brief: T + 1000 });
    const check = (client: string, now: number) => checkRateLimit({ store, policy, client, log: silent, now });
    expect((await check('old', T)).ok).toBe(false);
    expect((await check('brief', T)).ok).toBe(false);
    expect((await check('brief', T + 1000)).ok).toBe(true);
    // Exactly as many others refused as the memory holds besides 'old': none is forgotten.
    for (let i = 1; i < REFUSED_MEMORY; i++) await check(`c${i}`, T + 1000);
    calls.length = 0;
    expect((await check('old', T + 2000)).ok).toBe(false);
    expect(calls).toEqual([]);
  });

  it('a client refused by two requests at once is remembered from the later refusal', async () => {
    const { store, calls } = byClient({});
    const check = (client: string) => checkRateLimit({ store, policy, client, log: silent, now: T });
    await Promise.all([check('twice'), check('once'), check('twice')]);
    for (let i = 1; i < REFUSED_MEMORY; i++) await check(`c${i}`); // one over: the oldest is forgotten
    calls.length = 0;
    await check('twice');
    expect(calls).toEqual([]);
    await check('once');
    expect(calls).toEqual(['once']);
  });
});

describe('refusal text', () => {
  it('states a per-minute budget for any budget but the lead one', () => {
    expect(refusalText({ name: 'read', limit: 120 }, 7)).toBe(
      'Rate limit exceeded: this address may make 120 requests per minute. Retry after 7 seconds.',
    );
  });
});

// The policies are module-level tables: these tests load the module afresh (vi.resetModules()) to read them.
const load = async () => {
  vi.resetModules();
  return import('../../src/core/rate-limit.ts');
};

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
