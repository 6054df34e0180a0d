/**
 * The store promises at their edges, on every engine (the in-process store, SQLite, Upstash over a real
 * redis-server): the instant a window, a claim or a lease ends; a unit refunded twice; calls about ids the
 * store no longer holds; the queue order after a retry; the dead letters' order; the bound of unanswered
 * questions. tests/adapters/store.test.ts holds the main promises; these were written against the mutants
 * `npm run mutate` found surviving (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from '@upstash/redis';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import type { LimitPolicy, Store } from '../../src/core/ports.ts';
import { QUESTION_STALE_MS } from '../../src/core/ask/unanswered.ts';
import { useEngines } from '../helpers/engines.ts';

const { engines, bridge } = useEngines();
const T0 = Date.UTC(2026, 10, 23, 10, 0, 1); // a second into a minute
const read: LimitPolicy = { name: 'edge-read', limit: 3, windowSeconds: 60, algorithm: 'sliding-window' };
const lead: LimitPolicy = { name: 'edge-lead', limit: 2, windowSeconds: 3600, algorithm: 'sliding-log' };
const dbFile = () => join(mkdtempSync(join(tmpdir(), 'kartage-edges-')), 'kartage.db');
let n = 0;

/** The engines whose clock a test can set: the claim and lease expiry are read from it. */
const clocked = [
  { name: 'in-process', create: (now: () => number) => createMemoryStore({ now }) },
  { name: 'embedded', create: (now: () => number) => createSqliteStore({ file: dbFile(), now }) },
];
/** Every engine with a bound of `questionLimit` distinct unanswered questions. */
const bounded = [
  { name: 'in-process', create: (questionLimit: number) => createMemoryStore({ questionLimit }) },
  { name: 'embedded', create: (questionLimit: number) => createSqliteStore({ file: dbFile(), questionLimit }) },
  {
    name: 'upstash',
    create: (questionLimit: number) =>
      createUpstashStore({
        url: bridge().url,
        token: bridge().token,
        prefix: `edges${process.pid}-${++n}`,
        questionLimit,
      }),
  },
];

const allowedHits = async (store: Store, policy: LimitPolicy, client: string, now: number, tries: number) => {
  let allowed = 0;
  for (let i = 0; i < tries; i++) if ((await store.hit(policy, client, now)).allowed) allowed++;
  return allowed;
};
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe.each(engines)('$name store: the edges of its promises', (engine) => {
  it('a unit refunded twice is given back once', async () => {
    const store = engine.create();
    const first = await store.hit(read, 'twice', T0);
    await store.refund(read, 'twice', first);
    await store.refund(read, 'twice', first);
    expect(await allowedHits(store, read, 'twice', T0, 5)).toBe(read.limit);
  });

  it('the lead log lets a client in again exactly one window after its first request, not a millisecond before', async () => {
    const store = engine.create();
    expect(await allowedHits(store, lead, 'edge', T0, 2)).toBe(2);
    const W = lead.windowSeconds * 1000;
    expect((await store.hit(lead, 'edge', T0 + W - 1)).allowed).toBe(false);
    expect((await store.hit(lead, 'edge', T0 + W)).allowed).toBe(true);
  });

  it('a refund for a client this store never counted changes nothing and does not fail', async () => {
    const other = engine.create();
    const store = engine.create();
    for (const policy of [read, lead]) {
      const result = await other.hit(policy, 'stranger', T0);
      await expect(store.refund(policy, 'stranger', result)).resolves.toBeUndefined();
      expect(await allowedHits(store, policy, 'stranger', T0, policy.limit + 1)).toBe(policy.limit);
    }
  });

  it('releasing a key never claimed does nothing and does not fail', async () => {
    const store = engine.create();
    await expect(store.release('never-claimed')).resolves.toBeUndefined();
    expect(await store.claim('never-claimed', 'f', 60)).toBeUndefined();
  });

  it('claims at most max entries, oldest first; a retried entry goes to the back of the queue', async () => {
    const store = engine.create();
    for (const id of ['a', 'b', 'c']) await store.outboxPush(id, `payload ${id}`);
    expect(ids(await store.outboxClaim(1, 60))).toEqual(['a']);
    await store.outboxRetry('a', 'CRM down');
    expect(ids(await store.outboxClaim(2, 60))).toEqual(['b', 'c']);
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['a']);
  });

  it('retry, quarantine and dead-letter of an id the outbox no longer holds change nothing', async () => {
    const store = engine.create();
    await store.outboxPush('kept', 'payload');
    await store.outboxPush('gone', 'payload');
    await store.outboxAck('gone');
    await expect(store.outboxRetry('gone', 'late', 1000)).resolves.toBeUndefined();
    await expect(store.outboxQuarantine('gone', 'late')).resolves.toBeUndefined();
    expect(await store.outboxDeadLetter('gone', { reason: 'late' })).toBe(false);
    expect(await store.outboxSize()).toBe(1);
    expect(await store.quarantineSize()).toBe(0);
    expect(await store.deadLetterSize()).toBe(0);
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['kept']);
  });

  it('an id dead-lettered a second time is listed once, as the newest dead letter', async () => {
    const store = engine.create();
    for (const id of ['a', 'b']) {
      await store.outboxPush(id, `payload ${id}`);
      await store.outboxClaim(5, 60);
      expect(await store.outboxDeadLetter(id, { reason: 'refused', status: 400 })).toBe(true);
    }
    await store.outboxPush('a', 'payload a, again');
    await store.outboxClaim(5, 60);
    await store.outboxClaim(5, 0);
    expect(await store.outboxDeadLetter('a', { reason: 'refused again', status: 422 })).toBe(true);
    const letters = await store.deadLetters();
    expect(letters.map((l) => [l.id, l.reason])).toEqual([
      ['b', 'refused'],
      ['a', 'refused again'],
    ]);
  });

  it('re-queueing a dead letter whose id is queued again leaves the queued entry and its lease alone', async () => {
    const store = engine.create();
    await store.outboxPush('a', 'payload a');
    await store.outboxClaim(5, 60);
    await store.outboxDeadLetter('a', { reason: 'refused', status: 400 });
    await store.outboxPush('a', 'payload a');
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['a']);
    await store.deadLetterRequeue('a');
    expect(await store.outboxSize()).toBe(1);
    expect(await store.deadLetterSize()).toBe(0);
    expect(await store.outboxClaim(5, 60)).toEqual([]);
  });
});

describe.each(clocked)('$name store: a claim and a lease end at their exact instant', (engine) => {
  it('an idempotency claim of 10 s holds until its last millisecond and is free at 10 s', async () => {
    const clock = { t: T0 };
    const store = engine.create(() => clock.t);
    expect(await store.claim('k', 'f1', 10)).toBeUndefined();
    clock.t = T0 + 9_999;
    expect(await store.claim('k', 'f2', 10)).toEqual({ state: 'pending', fingerprint: 'f1' });
    clock.t = T0 + 10_000;
    expect(await store.claim('k', 'f2', 10)).toBeUndefined();
  });

  it('an outbox lease of 30 s keeps the entry from other flushers until it ends, then frees it', async () => {
    const clock = { t: T0 };
    const store = engine.create(() => clock.t);
    await store.outboxPush('a', 'payload');
    expect(ids(await store.outboxClaim(5, 30))).toEqual(['a']);
    clock.t = T0 + 29_999;
    expect(await store.outboxClaim(5, 30)).toEqual([]);
    clock.t = T0 + 30_000;
    expect(await store.outboxClaim(5, 30)).toMatchObject([{ id: 'a', attempts: 2 }]);
  });
});

describe.each(bounded)('$name store: the bound of unanswered questions', (engine) => {
  const count = async (store: Store, key: string, at: number, times = 1) => {
    for (let i = 0; i < times; i++) await store.countQuestion(key, `text of ${key}`, at);
  };
  const kept = async (store: Store) => (await store.topQuestions(100)).map((q) => q.text.replace('text of ', ''));

  it('under the bound and exactly at it, every question is kept', async () => {
    const five = engine.create(5);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) await count(five, key, T0 + i * 1000);
    expect((await kept(five)).sort()).toEqual(['a', 'b', 'c', 'd']);
    const three = engine.create(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) await count(three, key, T0 + i * 1000);
    expect((await kept(three)).sort()).toEqual(['a', 'b', 'c']);
  });

  it('past the bound the stale go first, the longest unasked first, whatever their counts', async () => {
    const store = engine.create(3);
    const old = T0 - QUESTION_STALE_MS;
    await count(store, 'a', old - 1000, 3);
    await count(store, 'b', old - 2000);
    await count(store, 'c', T0);
    await count(store, 'd', T0 + 1000);
    expect((await kept(store)).sort()).toEqual(['a', 'c', 'd']);
    await count(store, 'e', T0 + 2000);
    expect((await kept(store)).sort()).toEqual(['c', 'd', 'e']);
    // Asked exactly the stale span ago: not yet stale, so nothing makes room and the newcomer is not kept.
    const edge = engine.create(1);
    await count(edge, 'x', T0 - QUESTION_STALE_MS);
    await count(edge, 'y', T0);
    expect(await kept(edge)).toEqual(['x']);
    await count(edge, 'z', T0 + 1000);
    expect(await kept(edge)).toEqual(['z']);
  });

  it('then the flood-shaped: the least asked, the longest unasked first among equals', async () => {
    const store = engine.create(5);
    const ask = (key: string, at: number, asker: string) => store.countQuestion(key, `text of ${key}`, at, asker);
    await ask('k1', T0, 'x');
    await ask('k2', T0, 'x');
    await ask('s1', T0 + 3000, 'x'); // its third: flood-shaped
    await ask('s2', T0 + 1000, 'x');
    await ask('s3', T0 + 500, 'y1'); // a visitor's...
    await ask('s3', T0 + 500, 'y2');
    await ask('n', T0 + 5000, 'v1'); // full: s3 (asked twice) is not flood-shaped here, so s2 goes
    expect((await kept(store)).sort()).toEqual(['k1', 'k2', 'n', 's1', 's3']);
    await ask('s1', T0 + 6000, 'v2'); // now a visitor asked it among their first
    await ask('m', T0 + 7000, 'v3'); // nothing stale or flood-shaped: not kept
    expect((await kept(store)).sort()).toEqual(['k1', 'k2', 'n', 's1', 's3']);
  });

  it('the question just counted is never the one trimmed when another can make room', async () => {
    const store = engine.create(2);
    await count(store, 'a', T0 - QUESTION_STALE_MS - 1000, 2);
    await count(store, 'b', T0 - QUESTION_STALE_MS - 500, 2);
    await count(store, 'c', T0); // the least asked, yet kept: a stale one makes room
    expect((await kept(store)).sort()).toEqual(['b', 'c']);
  });
});

describe('unanswered questions counted before last-asked times and askers were kept', () => {
  it('Upstash: counted by an earlier version, a question still goes stale and makes room', async () => {
    const prefix = `legacy-q${process.pid}`;
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    // What an earlier version wrote: the count and last-asked second in one score, and the text.
    const old = Math.floor((T0 - QUESTION_STALE_MS) / 1000) - 60;
    await redis.zadd(`${prefix}:ask:unanswered:counts`, { score: 3e10 + old, member: 'legacy' });
    await redis.hset(`${prefix}:ask:unanswered:texts`, { legacy: 'legacy' });
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix, questionLimit: 1 });
    await store.countQuestion('new', 'new', T0, 'visitor');
    expect((await store.topQuestions(5)).map((q) => q.text)).toEqual(['new']);
  });

  it('SQLite: an older file gains the column, its questions taken as a visitor’s', async () => {
    const file = dbFile();
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE unanswered (key TEXT PRIMARY KEY, text TEXT NOT NULL, count INTEGER NOT NULL,
      last_asked INTEGER NOT NULL) WITHOUT ROWID`);
    db.prepare('INSERT INTO unanswered VALUES (?, ?, 2, ?)').run('kept', 'kept', T0 - 1000);
    db.close();
    const store = createSqliteStore({ file, questionLimit: 1 });
    await store.countQuestion('new', 'new', T0, 'visitor');
    expect(await store.topQuestions(5)).toEqual([{ text: 'kept', count: 2, lastAsked: T0 - 1000 }]);
  });
});

describe('each engine names itself in the start-up line', () => {
  it('the in-process store, the SQLite file and the Upstash host are named', () => {
    expect(createMemoryStore().describe()).toBe('in-process store (memory)');
    const file = dbFile();
    expect(createSqliteStore({ file }).describe()).toBe(`embedded store (SQLite ${file})`);
    const url = new URL(bridge().url);
    expect(createUpstashStore({ url: bridge().url, token: 't' }).describe()).toBe(`Upstash Redis at ${url.host}`);
  });
});
