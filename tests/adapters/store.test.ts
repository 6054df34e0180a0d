/**
 * One suite, every engine: the embedded SQLite store, Upstash over a real redis-server (via the REST
 * bridge) and the in-process store they fall back to (the outbox's backoff and dead letters included).
 * Then what only one engine does: the SQLite file shared by two processes and across restarts, the legacy
 * outbox import, Upstash's bounds and deadlines.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, readQuarantine } from '../../src/adapters/sqlite-store/index.ts';
import { Redis } from '@upstash/redis';
import { createFallbackStore } from '../../src/adapters/fallback-store.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import type { LimitPolicy, Store } from '../../src/core/ports.ts';
import { QUESTION_STALE_MS } from '../../src/core/ask/unanswered.ts';
import { useEngines } from '../helpers/engines.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const { engines, bridge, redis } = useEngines();
const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
const WINDOW_START = Date.UTC(2026, 10, 23, 10, 0, 0); // a minute boundary
const tempDb = async () => join(await mkdtemp(join(tmpdir(), 'kartage-store-')), 'kartage.db');
const entry = (id: string) =>
  JSON.stringify({
    record: { id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@example.com' } },
  });

afterEach(() => {
  vi.useRealTimers();
});

async function drain(store: Store, max = 100) {
  const ids: string[] = [];
  for (const item of await store.outboxClaim(max, 60)) {
    ids.push(item.id);
    await store.outboxAck(item.id);
  }
  return ids;
}

/**
 * Sets the clock to `t` (Date only; timers stay real) and returns it: the Upstash engine's read budget is
 * `@upstash/ratelimit`'s, which reads `Date.now()` itself where the other engines take the caller's `now`.
 */
const at = (t: number) => {
  vi.useFakeTimers({ toFake: ['Date'], now: t });
  return t;
};

describe.each(engines)('$name store', (engine) => {
  it('sliding window: 120 pass with decreasing remaining, the 121st is refused, another client is apart', async () => {
    const store = engine.create();
    const t = at(WINDOW_START + 5_000);
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const r = await store.hit(read, '203.0.113.7', t);
      expect(r.allowed).toBe(true);
      remaining.push(r.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    const refused = await store.hit(read, '203.0.113.7', t);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetAt).toBeGreaterThan(t);
    expect(await store.hit(read, '203.0.113.8', t)).toMatchObject({ allowed: true, remaining: 119 });
    // Half a window later the previous window weighs half: 60 more.
    let later = 0;
    // Bounded: a store that never refuses fails here at once instead of looping.
    while (later < 200 && (await store.hit(read, '203.0.113.7', at(WINDOW_START + 90_000))).allowed) later++;
    expect(later).toBe(60);
  });

  it('sliding window: 130 hits at once (one batch, one transaction where the engine batches) allow exactly 120', async () => {
    const store = engine.create();
    const t = WINDOW_START + 1_000;
    const all = await Promise.all(Array.from({ length: 130 }, () => store.hit(read, 'burst', t)));
    expect(all.filter((r) => r.allowed)).toHaveLength(120);
    expect(
      all
        .filter((r) => r.allowed)
        .map((r) => r.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(await store.hit(read, 'other', t)).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('sliding window: no 2x burst at a window edge (120 just before it, then nearly nothing just after)', async () => {
    const store = engine.create();
    let before = 0;
    for (let i = 0; i < 130; i++) if ((await store.hit(read, 'edge', at(WINDOW_START + 59_900))).allowed) before++;
    let after = 0;
    for (let i = 0; i < 130; i++) if ((await store.hit(read, 'edge', at(WINDOW_START + 60_100))).allowed) after++;
    expect(before).toBe(120);
    expect(after).toBeLessThanOrEqual(1); // a fixed window would allow 120 more here
    const refused = await store.hit(read, 'edge', WINDOW_START + 60_100);
    expect(refused.allowed).toBe(false);
    // The reset it names is when a unit is free again, and not a millisecond sooner.
    expect((await store.hit(read, 'edge', at(refused.resetAt - 1))).allowed).toBe(false);
    expect((await store.hit(read, 'edge', at(refused.resetAt))).allowed).toBe(true);
  });

  it('sliding log: 5 per hour, the reset is when the oldest submission frees its slot', async () => {
    const store = engine.create();
    const t0 = WINDOW_START;
    const at = [0, 60_000, 120_000, 600_000, 1_200_000].map((d) => t0 + d);
    for (const [i, t] of at.entries())
      expect(await store.hit(lead, 'c1', t)).toMatchObject({
        allowed: true,
        remaining: 4 - i,
        resetAt: t0 + 3_600_000,
      });
    const refused = await store.hit(lead, 'c1', t0 + 1_800_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetAt: t0 + 3_600_000 });
    const freed = await store.hit(lead, 'c1', t0 + 3_600_001);
    expect(freed).toMatchObject({ allowed: true, remaining: 0, resetAt: t0 + 60_000 + 3_600_000 });
    expect((await store.hit(lead, 'c1', t0 + 3_600_002)).allowed).toBe(false);
    expect((await store.hit(lead, 'c2', t0 + 3_600_002)).allowed).toBe(true);
  });

  it('refund gives back exactly the unit spent (a 502 spends nothing), in both algorithms', async () => {
    const store = engine.create();
    const now = Date.now();
    const units = [];
    for (let i = 0; i < 5; i++) units.push(await store.hit(lead, 'r1', now + i));
    expect((await store.hit(lead, 'r1', now + 10)).allowed).toBe(false);
    await store.refund(lead, 'r1', units[2]!);
    expect(await store.hit(lead, 'r1', now + 11)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await store.hit(lead, 'r1', now + 12)).allowed).toBe(false);
    const r = await store.hit(read, 'r1', now);
    await store.refund(read, 'r1', r);
    expect((await store.hit(read, 'r1', now)).remaining).toBe(119);
  });

  it('idempotency: the first claim wins, later claims see pending then the finished answer', async () => {
    const store = engine.create();
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toBeUndefined();
    expect(await store.claim('idem:c1:k1', 'fp2', 60)).toEqual({ state: 'pending', fingerprint: 'fp1' });
    await store.complete('idem:c1:k1', { state: 'done', fingerprint: 'fp1', status: 200, body: { ok: true } }, 86_400);
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toEqual({
      state: 'done',
      fingerprint: 'fp1',
      status: 200,
      body: { ok: true },
    });
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

  it('outbox: oldest first, one entry per delivery id, leased entries go to no second flusher', async () => {
    const store = engine.create();
    expect(await store.outboxSize()).toBe(0);
    const pushed = Date.now();
    for (const id of ['a', 'b', 'c', 'a']) await store.outboxPush(id, entry(id));
    expect(await store.outboxSize()).toBe(3);
    const first = await store.outboxClaim(2, 60);
    expect(first.map((i) => [i.id, i.attempts])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(first[0]!.payload).toBe(entry('a'));
    const queuedAt = first[0]!.queuedAt;
    expect(queuedAt).toBeGreaterThanOrEqual(pushed);
    expect(queuedAt).toBeLessThanOrEqual(Date.now());
    // A second flusher gets only what is not leased.
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['c']);
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    await store.outboxAck('b');
    await store.outboxRetry('a', 'CRM down');
    // A retried entry is free again, at the back, with its attempts counted.
    expect(await store.outboxClaim(10, 60)).toEqual([{ id: 'a', payload: entry('a'), attempts: 2, queuedAt }]);
    // A claim given back untried (a flush out of time): free at once, first, its attempts as before the claim.
    await store.outboxRelease('a');
    await store.outboxRelease('gone');
    expect(await store.outboxClaim(10, 60)).toEqual([{ id: 'a', payload: entry('a'), attempts: 2, queuedAt }]);
    await store.outboxQuarantine('c', 'unreadable');
    expect(await store.outboxSize()).toBe(1);
    expect(await store.quarantineSize()).toBe(1);
  });

  it('outbox: a retry with a backoff is claimed by no flusher before the backoff ends', async () => {
    // Every engine reads the backoff's clock from Date.now() in this process (Upstash passes it to its
    // scripts), so a faked Date moves it to each side of the end, with no real wait and no race with load.
    // It starts at the real time: Upstash checks a write's deadline against Redis's own clock.
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const store = engine.create();
    await store.outboxPush('b1', entry('b1'));
    await store.outboxPush('b2', entry('b2'));
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['b1', 'b2']);
    await store.outboxRetry('b1', 'CRM answered 503', 400);
    await store.outboxRetry('b2', 'CRM answered 503', 0);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['b2']);
    vi.setSystemTime(t0 + 399);
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    vi.setSystemTime(t0 + 400);
    expect((await store.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([['b1', 2]]);
  });

  it("dead letters: out of the outbox in one step with the CRM's answer, listed oldest first", async () => {
    const store = engine.create();
    const pushed = Date.now();
    for (const id of ['d1', 'd2', 'd3']) await store.outboxPush(id, entry(id));
    await store.outboxClaim(10, 60);
    await store.outboxRetry('d1', 'CRM answered 503');
    await store.outboxClaim(10, 60);
    const refused = { reason: 'the CRM refused it for good (HTTP 400)', status: 400, answer: '{"status":"error"}' };
    expect(await store.outboxDeadLetter('d2', refused)).toBe(true);
    expect(await store.outboxDeadLetter('d1', { reason: 'still failing after 2 attempt(s)' })).toBe(true);
    // Already moved, or never queued: nothing changes.
    expect(await store.outboxDeadLetter('d2', refused)).toBe(false);
    expect(await store.outboxDeadLetter('nope', refused)).toBe(false);
    expect(await store.outboxSize()).toBe(1);
    expect(await store.deadLetterSize()).toBe(2);
    const letters = await store.deadLetters();
    expect(letters).toEqual([
      {
        id: 'd2',
        payload: entry('d2'),
        attempts: 1,
        ...refused,
        queuedAt: expect.any(Number),
        at: expect.any(Number),
        announced: false,
        alerts: 0,
      },
      {
        id: 'd1',
        payload: entry('d1'),
        attempts: 2,
        reason: 'still failing after 2 attempt(s)',
        queuedAt: expect.any(Number),
        at: expect.any(Number),
        announced: false,
        alerts: 0,
      },
    ]);
    for (const l of letters) {
      expect(l.queuedAt).toBeGreaterThanOrEqual(pushed);
      expect(l.at).toBeGreaterThanOrEqual(l.queuedAt);
      expect(l.at).toBeLessThanOrEqual(Date.now());
    }
  });

  it('dead letters: re-queued exactly once (10 at once), at the back, free at once, attempts from zero', async () => {
    const store = engine.create();
    for (const id of ['r1', 'r2']) await store.outboxPush(id, entry(id));
    const [r1] = await store.outboxClaim(1, 60);
    expect(await store.outboxDeadLetter(r1!.id, { reason: 'refused', status: 400 })).toBe(true);
    const before = Date.now();
    const moved = await Promise.all(Array.from({ length: 10 }, () => store.deadLetterRequeue('r1')));
    expect(moved.filter(Boolean)).toHaveLength(1);
    expect(await store.deadLetterRequeue('r1')).toBe(false);
    expect(await store.deadLetterRequeue('never')).toBe(false);
    expect(await store.deadLetterSize()).toBe(0);
    expect(await store.deadLetters()).toEqual([]);
    const again = await store.outboxClaim(10, 60);
    expect(again.map((i) => [i.id, i.attempts, i.payload])).toEqual([
      ['r2', 1, entry('r2')],
      ['r1', 1, entry('r1')],
    ]);
    expect(again[1]!.queuedAt).toBeGreaterThanOrEqual(before);
    for (const i of again) await store.outboxAck(i.id);
    expect(await store.outboxSize()).toBe(0);
  });

  it('outbox: 300 entries claimed by three concurrent flushers: each delivered exactly once', async () => {
    const store = engine.create();
    await Promise.all(Array.from({ length: 300 }, (_, i) => store.outboxPush(`id${i}`, entry(`id${i}`))));
    const seen: string[] = [];
    const flusher = async () => {
      for (;;) {
        const items = await store.outboxClaim(7, 60);
        if (!items.length) return;
        for (const it of items) {
          seen.push(it.id);
          await store.outboxAck(it.id);
        }
      }
    };
    await Promise.all([flusher(), flusher(), flusher()]);
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
    expect(await store.outboxSize()).toBe(0);
  });

  it('unanswered questions: one counter per key, the first text kept, the last asking, most asked first', async () => {
    const store = engine.create();
    expect(await store.topQuestions(10)).toEqual([]);
    const t = WINDOW_START;
    await store.countQuestion('do you integrate with xero', 'Do you integrate with Xero?', t);
    await store.countQuestion('is there a free trial', 'is there a free trial', t + 1_000);
    await store.countQuestion('do you integrate with xero', 'do you integrate with xero', t + 60_400);
    await store.countQuestion('do you integrate with xero', 'do you integrate with xero!', t + 30_000);
    await store.countQuestion('can i pay by [phone]', 'can i pay by [phone]', t + 2_000);
    await store.countQuestion('is there a free trial', 'is there a free trial?', t + 5_000);
    expect(await store.topQuestions(10)).toEqual([
      // The last asking is the latest time seen (to the second), whatever order the calls came in.
      { text: 'Do you integrate with Xero?', count: 3, lastAsked: t + 60_000 },
      { text: 'is there a free trial', count: 2, lastAsked: t + 5_000 },
      { text: 'can i pay by [phone]', count: 1, lastAsked: t + 2_000 },
    ]);
    expect((await store.topQuestions(2)).map((q) => q.count)).toEqual([3, 2]);
    expect(await store.topQuestions(0)).toEqual([]);
    // Equal counts: the last asked first.
    await store.countQuestion('what is the price', 'what is the price', t + 9_000);
    expect((await store.topQuestions(10)).slice(2).map((q) => q.text)).toEqual([
      'what is the price',
      'can i pay by [phone]',
    ]);
  });

  it('unanswered questions: 40 concurrent askings of one question count 40', async () => {
    const store = engine.create();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.countQuestion('same', `same ${i}`, WINDOW_START)));
    const [top] = await store.topQuestions(5);
    expect(top!.count).toBe(40);
    expect(top!.text).toMatch(/^same \d+$/);
  });
});

/** Each engine with a bound of 3 distinct questions. */
const bounded: Record<string, () => Store> = {
  embedded: () =>
    createSqliteStore({ file: join(mkdtempSync(join(tmpdir(), 'kartage-store-')), 'kartage.db'), questionLimit: 3 }),
  upstash: () =>
    createUpstashStore({
      url: bridge().url,
      token: bridge().token,
      prefix: `bound${process.pid}-${Math.random().toString(36).slice(2)}`,
      questionLimit: 3,
    }),
  'in-process': () => createMemoryStore({ questionLimit: 3 }),
};

describe.each(engines)('$name store: the bound on unanswered questions', (engine) => {
  it('keeps at most the limit: stale questions make room first, then flood-shaped ones, never fresh ones', async () => {
    const store = bounded[engine.name]!();
    const t = WINDOW_START;
    // Asked twice, but a month and more ago: stale.
    await store.countQuestion('old', 'old', t - QUESTION_STALE_MS - 5_000);
    await store.countQuestion('old', 'old', t - QUESTION_STALE_MS - 4_000);
    await store.countQuestion('a', 'a', t, 'visitor-1');
    await store.countQuestion('b', 'b', t + 1_000, 'visitor-2');
    await store.countQuestion('c', 'c', t + 2_000, 'visitor-3'); // full: the stale one goes, asked twice or not
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['c', 'b', 'a']);
    // Every question fresh and a visitor's: a newcomer is not kept (a flood cannot push them out).
    await store.countQuestion('d', 'd', t + 3_000, 'visitor-4');
    await store.countQuestion('e', 'e', t + 3_000);
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['c', 'b', 'a']);
    // An address's third question of the day is flood-shaped: the first to make room for a visitor's.
    const busy = bounded[engine.name]!();
    for (const [i, k] of ['p', 'q', 'r'].entries()) await busy.countQuestion(k, k, t + i * 1_000, 'busy');
    await busy.countQuestion('s', 's', t + 5_000, 'visitor-5');
    expect((await busy.topQuestions(10)).map((q) => q.text)).toEqual(['s', 'q', 'p']);
    // Asked by another visitor among their first, a flood-shaped question is a visitor's again.
    await busy.countQuestion('u', 'u', t + 6_000, 'busy-2');
    await busy.countQuestion('v', 'v', t + 6_000, 'busy-2');
    await busy.countQuestion('w', 'w', t + 6_000, 'busy-2'); // flood-shaped: nothing else is, so not kept
    expect((await busy.topQuestions(10)).map((q) => q.text)).toEqual(['s', 'q', 'p']);
  });
});

describe('upstash store failures', () => {
  it('an unreachable Redis rejects; a slow one is cut off by the timeout instead of hanging', async () => {
    const upstash = engines.find((e) => e.name === 'upstash')!;
    const store = upstash.create({ timeoutMs: 200, leadTimeoutMs: 300 });
    bridge().setFault('down');
    await expect(store.hit(read, 'c', Date.now())).rejects.toBeTruthy();
    await expect(store.outboxPush('x', entry('x'))).rejects.toBeTruthy();
    bridge().setFault({ delayMs: 5_000 });
    // The abort comes from the store's own bound (AbortSignal.timeout), not from a test timeout.
    await expect(store.hit(read, 'c', Date.now())).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(store.claim('k', 'fp', 60)).rejects.toMatchObject({ name: 'TimeoutError' });
    bridge().setFault('none');
    expect((await store.hit(read, 'c', Date.now())).allowed).toBe(true);
  });

  it('a lead-path write Redis reaches after its deadline does nothing (a 502 never lands later)', async () => {
    const upstash = engines.find((e) => e.name === 'upstash')!;
    const store = upstash.create({ leadTimeoutMs: 300 });
    // Scripts loaded first (a first use that fails would only leave an unknown EVALSHA behind).
    await store.outboxPush('warm', entry('warm'));
    await store.outboxAck('warm');
    await store.claim('idem:warm', 'fp', 60);
    await store.hit(lead, 'warm', Date.now());
    // A stalled Redis: the commands wait in its socket, past the caller's bound, and run when it resumes.
    redis().process.kill('SIGSTOP');
    try {
      await Promise.all([
        expect(store.outboxPush('late', entry('late'))).rejects.toBeTruthy(),
        expect(store.claim('idem:late', 'fp', 60)).rejects.toBeTruthy(),
        expect(store.hit(lead, 'late', Date.now())).rejects.toBeTruthy(),
      ]);
    } finally {
      redis().process.kill('SIGCONT');
    }
    // No sleep: the bridge sends every command on one Redis connection, in order, so these reads run
    // after the late writes have run (Redis answers one connection's commands in the order sent).
    expect(await store.outboxSize()).toBe(0);
    expect(await store.claim('idem:late', 'fp2', 60)).toBeUndefined();
    expect((await store.hit(lead, 'late', Date.now())).remaining).toBe(4);
  });

  it('the fallback store keeps limits and keys per instance while Redis is down, and counts it', async () => {
    const upstash = engines.find((e) => e.name === 'upstash')!;
    const events: string[] = [];
    const store = createFallbackStore(upstash.create({ timeoutMs: 100, leadTimeoutMs: 150 }), (e) => events.push(e));
    bridge().setFault('down');
    try {
      const now = Date.now();
      const leads = [];
      for (let i = 0; i < 8; i++) leads.push((await store.hit(lead, 'fb', now)).allowed);
      expect(leads.filter(Boolean)).toHaveLength(5);
      expect(await store.claim('idem:fb', 'fp', 60)).toBeUndefined();
      expect(await store.claim('idem:fb', 'fp', 60)).toEqual({ state: 'pending', fingerprint: 'fp' });
      await store.complete('idem:fb', { state: 'done', fingerprint: 'fp', status: 200, body: { ok: true } }, 86_400);
      expect(await store.claim('idem:fb', 'fp', 60)).toMatchObject({ state: 'done', status: 200 });
      expect(store.fallbacks()).toBeGreaterThanOrEqual(10);
      expect(events).toContain('store_fallback');
    } finally {
      bridge().setFault('none');
    }
  });

  it('the fallback store drops unanswered questions while Redis is down, logged once, never an error', async () => {
    const upstash = engines.find((e) => e.name === 'upstash')!;
    const events: { event: string; fields?: Record<string, unknown> }[] = [];
    const store = createFallbackStore(upstash.create({ timeoutMs: 100, leadTimeoutMs: 150 }), (event, fields) =>
      events.push({ event, fields }),
    );
    await store.countQuestion('before', 'before', WINDOW_START);
    bridge().setFault('down');
    try {
      for (let i = 0; i < 5; i++) await expect(store.countQuestion('q', 'q', WINDOW_START)).resolves.toBeUndefined();
      expect(events.map((e) => e.event)).toEqual(['unanswered_not_counted']);
      await expect(store.topQuestions(10)).rejects.toBeTruthy(); // the report says the store is down
    } finally {
      bridge().setFault('none');
    }
    await store.countQuestion('after', 'after', WINDOW_START + 1_000);
    expect(events.map((e) => e.event)).toEqual(['unanswered_not_counted', 'unanswered_counting_resumed']);
    expect(events[1]!.fields).toMatchObject({ dropped: 5 });
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['after', 'before']);
    expect(store.fallbacks()).toBe(0); // dropping a count is not a limit falling back
  });
});

describe('upstash outbox of earlier versions', () => {
  it('moves the old list into the queue on the first claim; an unreadable entry goes to quarantine', async () => {
    const prefix = `legacy${process.pid}`;
    const raw = new Redis({
      url: bridge().url,
      token: bridge().token,
      automaticDeserialization: false,
      enableTelemetry: false,
    });
    const old = (id: string) => JSON.stringify({ record: JSON.parse(entry(id)).record, attempts: 3 });
    await raw.rpush(`${prefix}:outbox`, old('L1'), '{"record":{"id":"torn"', old('L2'));
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    expect(await store.outboxSize()).toBe(3);
    const items = await store.outboxClaim(10, 60);
    expect(items.map((i) => i.id)).toEqual(['L1', 'L2']);
    expect(JSON.parse(items[0]!.payload).record.id).toBe('L1');
    expect(await store.quarantineSize()).toBe(1);
    for (const i of items) await store.outboxAck(i.id);
    expect(await store.outboxSize()).toBe(0);
  });
});

describe('embedded SQLite file', () => {
  it('survives a restart: budgets, keys and the outbox (a new store over the same file)', async () => {
    const file = await tempDb();
    const first = createSqliteStore({ file });
    const now = Date.now();
    for (let i = 0; i < 5; i++) await first.hit(lead, 'c', now);
    await first.complete('idem:k', { state: 'done', fingerprint: 'fp', status: 200, body: { ok: true } }, 86_400);
    await first.outboxPush('1', entry('1'));
    // A second process opens the same file.
    const script = `
      import { createSqliteStore } from './src/adapters/sqlite-store/index.ts';
      const s = createSqliteStore({ file: ${JSON.stringify(file)} });
      const hit = await s.hit({ name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' }, 'c', Date.now());
      const key = await s.claim('idem:k', 'fp', 60);
      const out = await s.outboxClaim(10, 60);
      console.log(JSON.stringify({ allowed: hit.allowed, key: key?.state, out: out.map((o) => o.id) }));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    await new Promise((r) => child.on('exit', r));
    expect(JSON.parse(stdout)).toEqual({ allowed: false, key: 'done', out: ['1'] });
  });

  it('keeps dead letters across a restart (a new store over the same file)', async () => {
    const file = await tempDb();
    const first = createSqliteStore({ file });
    await first.outboxPush('kept', entry('kept'));
    await first.outboxClaim(1, 60);
    await first.outboxDeadLetter('kept', { reason: 'refused', status: 400, answer: 'no' });
    const second = createSqliteStore({ file });
    expect(await second.deadLetters()).toMatchObject([{ id: 'kept', status: 400, answer: 'no', attempts: 1 }]);
  });

  it('imports a legacy outbox.jsonl once; a torn last line goes to quarantine, not glued to the next', async () => {
    const file = await tempDb();
    const legacy = join(file, '..', 'outbox.jsonl');
    await writeFile(legacy, `${entry('old1')}\n${entry('old2')}\n{"record":{"id":"torn","rece`);
    const store = createSqliteStore({ file });
    await store.outboxPush('new1', entry('new1'));
    expect(await drain(store)).toEqual(['old1', 'old2', 'new1']);
    expect(readQuarantine(file).map((q) => q.payload)).toEqual(['{"record":{"id":"torn","rece']);
    await expect(readFile(`${legacy}.imported`, 'utf8')).resolves.toContain('old1');
  });
});
