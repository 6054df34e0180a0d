/**
 * The CRM's answer a dead letter keeps, on the engines that store it apart from the lead path's own cut
 * (SQLite, Upstash over a real redis-server): at most its first 500 characters (DeadLetterReason.answer),
 * whatever a caller passes. Written against a mutant `npm run mutate` left in src/adapters/upstash-store/index.ts
 * (bench/mutation.md). Then, on every engine, the alert that tells sales of a dead letter: claimed under a lease,
 * retried after its backoff, never again once announced; and the letters an earlier version kept, which had no
 * alert fields: taken as not yet announced.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from '@upstash/redis';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import type { Store } from '../../src/core/ports.ts';
import { useEngines } from '../helpers/engines.ts';

const { engines, bridge } = useEngines();
const entry = (id: string) =>
  JSON.stringify({ record: { id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@x.au' } } });

describe.each(engines.filter((e) => e.name !== 'in-process'))('$name store: a dead letter', (engine) => {
  it("keeps the first 500 characters of the CRM's answer", async () => {
    const store = engine.create();
    await store.outboxPush('long', entry('long'));
    await store.outboxClaim(1, 60);
    const answer = `${'a'.repeat(500)}${'b'.repeat(100)}`;
    expect(await store.outboxDeadLetter('long', { reason: 'refused', status: 400, answer })).toBe(true);
    expect((await store.deadLetters())[0]).toMatchObject({ id: 'long', status: 400, answer: 'a'.repeat(500) });
  });
});

/** Moves `ids` through the outbox into the dead letters of `store`. */
async function deadLetter(store: Store, ids: string[]) {
  for (const id of ids) await store.outboxPush(id, entry(id));
  await store.outboxClaim(ids.length, 60);
  for (const id of ids) expect(await store.outboxDeadLetter(id, { reason: 'refused', status: 400 })).toBe(true);
}

describe.each(engines)('$name store: the alert of a dead letter', (engine) => {
  it('is claimed once at a time, retried after its backoff, and never again once announced', async () => {
    const store = engine.create();
    await deadLetter(store, ['a1', 'a2', 'a3']);
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['a1', false, 0],
      ['a2', false, 0],
      ['a3', false, 0],
    ]);
    // Two flushers at once: each alert goes to one of them, oldest first.
    const [x, y] = await Promise.all([store.deadLetterAlertClaim(2, 60), store.deadLetterAlertClaim(2, 60)]);
    expect([...x!, ...y!].map((l) => l.id).sort()).toEqual(['a1', 'a2', 'a3']);
    expect([...x!, ...y!].every((l) => l.alerts === 1 && !l.announced)).toBe(true);
    expect(await store.deadLetterAlertClaim(10, 60)).toEqual([]); // leased
    // a1 landed; a2 failed with no wait, a3 with a long one.
    await store.deadLetterAnnounced('a1');
    await store.deadLetterAlertRetry('a2', 0);
    await store.deadLetterAlertRetry('a3', 3_600_000);
    const again = await store.deadLetterAlertClaim(10, 60);
    expect(again.map((l) => [l.id, l.alerts])).toEqual([['a2', 2]]);
    expect(again[0]).toMatchObject({ payload: entry('a2'), status: 400, reason: 'refused', attempts: 1 });
    await store.deadLetterAnnounced('a2');
    await store.deadLetterAlertRetry('a2', 0); // a late failure report changes nothing once announced
    expect(await store.deadLetterAlertClaim(10, 60)).toEqual([]);
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['a1', true, 1],
      ['a2', true, 2],
      ['a3', false, 1],
    ]);
    // Re-queued: no alert pending for it; dead-lettered again: a new letter, its alert due at once.
    expect(await store.deadLetterRequeue('a3')).toBe(true);
    const [back] = await store.outboxClaim(1, 60);
    expect(back!.id).toBe('a3');
    expect(await store.outboxDeadLetter('a3', { reason: 'refused again', status: 400 })).toBe(true);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => [l.id, l.alerts, l.reason])).toEqual([
      ['a3', 1, 'refused again'],
    ]);
  });
});

describe('a dead letter kept before alerts were', () => {
  it('SQLite: an older file gains the columns, its letters not yet announced', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'kartage-old-dl-')), 'kartage.db');
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE dead_letter (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      payload TEXT NOT NULL, attempts INTEGER NOT NULL, reason TEXT NOT NULL, status INTEGER, answer TEXT,
      queued_at INTEGER NOT NULL, at INTEGER NOT NULL)`);
    old
      .prepare('INSERT INTO dead_letter (id, payload, attempts, reason, queued_at, at) VALUES (?, ?, 1, ?, 1, 2)')
      .run('old', entry('old'), 'refused');
    old.close();
    const store = createSqliteStore({ file });
    expect(await store.deadLetters()).toMatchObject([{ id: 'old', announced: false, alerts: 0 }]);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => l.id)).toEqual(['old']);
  });

  it('Upstash: a letter stored without the alert fields is claimed once, then kept track of', async () => {
    const prefix = `legacy-dl-${process.pid}`;
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    await deadLetter(store, ['new']);
    // What an earlier version wrote: the letter without `announced` and `alerts`, and no alert entry for it.
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    const {
      announced: _a,
      alerts: _b,
      ...legacy
    } = JSON.parse(String(await redis.hget(`${prefix}:outbox:dead`, 'new'))) as Record<string, unknown>;
    await redis.hset(`${prefix}:outbox:dead`, { old: JSON.stringify({ ...legacy, id: 'old', n: 0 }) });
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['old', false, 0],
      ['new', false, 0],
    ]);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => [l.id, l.alerts])).toEqual([
      ['old', 1],
      ['new', 1],
    ]);
    await store.deadLetterAnnounced('old');
    expect((await store.deadLetters()).map((l) => l.announced)).toEqual([true, false]);
  });
});
