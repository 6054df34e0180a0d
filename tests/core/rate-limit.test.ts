import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store.ts';
import { checkRateLimit, LEAD_POLICY, READ_POLICY } from '../../src/core/rate-limit.ts';
import type { Store } from '../../src/core/ports.ts';

const silent = () => {};

describe('checkRateLimit', () => {
  it('states the contract headers, and Retry-After with the refusal', async () => {
    const store = createMemoryStore();
    const now = Date.UTC(2026, 10, 23, 10, 0, 15);
    const first = await checkRateLimit({ store, policy: READ_POLICY, client: 'a', log: silent, now });
    expect(first).toMatchObject({
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
    expect(fifth.headers).toMatchObject({
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3590',
      'RateLimit-Policy': '5;w=3600',
    });
    const sixth = await checkRateLimit({ store, policy: LEAD_POLICY, client: 'a', log: silent, now: now + 20_000 });
    expect(sixth).toMatchObject({
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
    expect(r).toMatchObject({
      ok: true,
      degraded: true,
      headers: { 'RateLimit-Remaining': '120', 'RateLimit-Policy': '120;w=60' },
    });
    expect(events).toEqual([{ e: 'rate_limit_store_failed', policy: 'read', error: 'ECONNREFUSED' }]);
  });
});
