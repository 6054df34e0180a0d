/** One suite, two engines: the embedded store and Upstash over a real redis-server (via the REST bridge). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '../../src/adapters/memory-store.ts';
import type { LimitPolicy } from '../../src/core/ports.ts';
import { useEngines } from '../helpers/engines.ts';

const { engines, bridge } = useEngines();
const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'fixed-window' };
const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
const WINDOW_START = Date.UTC(2026, 10, 23, 10, 0, 0); // a minute boundary

afterEach(() => {
  vi.useRealTimers();
});

describe.each(engines)('$name store', (engine) => {
  it('fixed window: 120 pass with decreasing remaining, the 121st is refused, the next window recovers', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: WINDOW_START + 5_000 });
    const store = engine.create();
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const r = await store.hit(read, '203.0.113.7', Date.now());
      expect(r.allowed).toBe(true);
      remaining.push(r.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    const refused = await store.hit(read, '203.0.113.7', Date.now());
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetAt: WINDOW_START + 60_000 });
    // Another client has its own budget.
    expect(await store.hit(read, '203.0.113.8', Date.now())).toMatchObject({ allowed: true, remaining: 119 });
    vi.setSystemTime(WINDOW_START + 60_001);
    expect(await store.hit(read, '203.0.113.7', Date.now())).toMatchObject({ allowed: true, remaining: 119, resetAt: WINDOW_START + 120_000 });
  });

  it('sliding log: 5 per hour, the reset is when the oldest submission frees its slot', async () => {
    const store = engine.create();
    const t0 = WINDOW_START;
    const at = [0, 60_000, 120_000, 600_000, 1_200_000].map((d) => t0 + d);
    for (const [i, t] of at.entries()) expect(await store.hit(lead, 'c1', t)).toMatchObject({ allowed: true, remaining: 4 - i, resetAt: t0 + 3_600_000 });
    const refused = await store.hit(lead, 'c1', t0 + 1_800_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetAt: t0 + 3_600_000 });
    // One second after the first submission ages out, exactly one slot is free again.
    const freed = await store.hit(lead, 'c1', t0 + 3_600_001);
    expect(freed).toMatchObject({ allowed: true, remaining: 0, resetAt: t0 + 60_000 + 3_600_000 });
    expect((await store.hit(lead, 'c1', t0 + 3_600_002)).allowed).toBe(false);
    expect((await store.hit(lead, 'c2', t0 + 3_600_002)).allowed).toBe(true);
  });

  it('idempotency: the first claim wins, later claims see pending then the finished answer', async () => {
    const store = engine.create();
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toBeUndefined();
    expect(await store.claim('idem:c1:k1', 'fp2', 60)).toEqual({ state: 'pending', fingerprint: 'fp1' });
    await store.complete('idem:c1:k1', { state: 'done', fingerprint: 'fp1', status: 200, body: { ok: true } }, 86_400);
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toEqual({ state: 'done', fingerprint: 'fp1', status: 200, body: { ok: true } });
    await store.release('idem:c1:k1'); // a finished answer is never released
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toMatchObject({ state: 'done' });
    expect(await store.claim('idem:c1:k2', 'fp1', 60)).toBeUndefined();
    await store.release('idem:c1:k2');
    expect(await store.claim('idem:c1:k2', 'fp3', 60)).toBeUndefined();
  });

  it('idempotency: 50 concurrent claims of one key give exactly one winner', async () => {
    const store = engine.create();
    const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim('idem:c9:race', `fp${i}`, 60)));
    expect(claims.filter((c) => c === undefined)).toHaveLength(1);
  });

  it('outbox: entries come back oldest first and leave only when removed', async () => {
    const store = engine.create();
    expect(await store.outboxSize()).toBe(0);
    for (const e of ['{"id":"a"}', '{"id":"b"}', '{"id":"c"}']) await store.outboxPush(e);
    expect(await store.outboxPeek(2)).toEqual(['{"id":"a"}', '{"id":"b"}']);
    await store.outboxRemove('{"id":"b"}');
    expect(await store.outboxPeek(10)).toEqual(['{"id":"a"}', '{"id":"c"}']);
    expect(await store.outboxSize()).toBe(2);
  });
});

describe('upstash store failures', () => {
  it('an unreachable Redis rejects; a slow one is cut off by the timeout instead of hanging', async () => {
    const upstash = engines.find((e) => e.name === 'upstash')!;
    const store = upstash.create({ timeoutMs: 200 });
    bridge().setFault('down');
    await expect(store.hit(read, 'c', Date.now())).rejects.toBeTruthy();
    await expect(store.outboxPush('x')).rejects.toBeTruthy();
    bridge().setFault({ delayMs: 5_000 });
    // The abort comes from the store's own bound (AbortSignal.timeout), not from a test timeout.
    await expect(store.hit(read, 'c', Date.now())).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(store.claim('k', 'fp', 60)).rejects.toMatchObject({ name: 'TimeoutError' });
    bridge().setFault('none');
    expect((await store.hit(read, 'c', Date.now())).allowed).toBe(true);
  });
});

describe('embedded outbox file', () => {
  it('survives a restart (a new store over the same file)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'kartage-outbox-')), 'outbox.jsonl');
    const first = createMemoryStore({ outboxFile: file });
    await Promise.all(['1', '2', '3'].map((id) => first.outboxPush(JSON.stringify({ id, note: 'line\nbreak' }))));
    await first.outboxRemove(JSON.stringify({ id: '2', note: 'line\nbreak' }));
    const second = createMemoryStore({ outboxFile: file });
    expect((await second.outboxPeek(10)).map((e) => JSON.parse(e).id).sort()).toEqual(['1', '3']);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
  });
});
