import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { rateLimitHeaders } from '../../src/http/responses.ts';
import { checkRateLimit, LEAD_POLICY, READ_POLICY, retryMinutes } from '../../src/core/rate-limit.ts';
import type { Store } from '../../src/core/ports.ts';

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
