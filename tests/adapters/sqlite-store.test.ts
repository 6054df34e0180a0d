/**
 * What only the embedded SQLite store does, in process (tests/server/embedded-store.test.ts holds the same
 * over a running server): a damaged file moved aside for a fresh one, a file replaced under the open store
 * reopened, another connection's write lock waited for (a lead) or given up on (a read budget), the
 * housekeeping of expired rows, and the commands' readers and backup. Written against the mutants
 * `npm run mutate` found without a covering test (bench/mutation.md).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  backupDatabase,
  createSqliteSink,
  createSqliteStore,
  readLeads,
  readQuarantine,
} from '../../src/adapters/sqlite-store/index.ts';
import { checkDatabase } from '../../src/adapters/sqlite-store/health.ts';
import { READ_WAIT_MS } from '../../src/adapters/sqlite-store/transactions.ts';
import type { LimitPolicy } from '../../src/core/ports.ts';
import { entry, lockHolder, read, record, stderrLines, T } from '../helpers/sqlite-test.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'kartage-sqlite-'));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the database check', () => {
  it('no file and a sound file pass; a file that is not a database is named as such', async () => {
    const d = dir();
    expect(checkDatabase(join(d, 'none.db'))).toBeUndefined();
    const file = join(d, 'kartage.db');
    await createSqliteStore({ file }).outboxPush('a', entry('a'));
    expect(checkDatabase(file)).toBeUndefined();
    const junk = join(d, 'junk.db');
    writeFileSync(junk, 'x'.repeat(4096));
    expect(checkDatabase(junk)).toMatch(/not a database/);
  });

  it('a damaged file is moved aside, logged, and a fresh database serves', async () => {
    const d = dir();
    const file = join(d, 'kartage.db');
    writeFileSync(file, 'x'.repeat(4096));
    const lines = stderrLines();
    const store = createSqliteStore({ file });
    vi.restoreAllMocks();
    const aside = readdirSync(d).filter((f) => f.startsWith('kartage.db.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(/^kartage\.db\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        event: 'store_corrupt_moved_aside',
        file,
        movedTo: join(d, aside[0]!),
        problem: expect.stringMatching(/not a database/),
        note: 'the embedded database failed its check; a fresh one was created and the old one kept for recovery',
      },
    ]);
    await store.outboxPush('a', entry('a'));
    expect(await store.outboxSize()).toBe(1);
  });
});

describe('a file replaced under the open store', () => {
  it('is noticed at the next lead write, logged, and the write lands in the file now at the path', async () => {
    const file = join(dir(), 'kartage.db');
    const store = createSqliteStore({ file });
    await store.outboxPush('before', entry('before'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const lines = stderrLines();
    await store.outboxPush('after', entry('after'));
    vi.restoreAllMocks();
    expect(lines.map((l) => [l.event, l.note])).toEqual([
      ['store_file_changed', 'the database file was replaced or removed; reopening it'],
    ]);
    expect(existsSync(file)).toBe(true);
    const check = new DatabaseSync(file);
    expect(check.prepare('SELECT id FROM outbox').all()).toEqual([{ id: 'after' }]);
    check.close();
  });
});

describe("another connection's write lock", () => {
  it('a lead write waits for it and lands once it is released', async () => {
    const file = join(dir(), 'kartage.db');
    const store = createSqliteStore({ file });
    const lock = lockHolder(file);
    setTimeout(lock.release, 100);
    await store.outboxPush('waited', entry('waited'));
    expect(await store.outboxSize()).toBe(1);
  });

  it('a read-budget hit gives up after its short wait (the caller then counts per instance)', async () => {
    const file = join(dir(), 'kartage.db');
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T); // the sweep of a first hit done
    const lock = lockHolder(file);
    const started = performance.now();
    try {
      await expect(store.hit(read, 'c', T + 1000)).rejects.toThrow(/locked|busy/);
    } finally {
      lock.release();
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(READ_WAIT_MS - 60);
    expect((await store.hit(read, 'c', T + 1000)).remaining).toBe(118);
  });

  it('a read-budget hit waits for a lock released within its wait', async () => {
    const file = join(dir(), 'kartage.db');
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T);
    const lock = lockHolder(file);
    setTimeout(lock.release, 40);
    expect((await store.hit(read, 'c', T + 1000)).remaining).toBe(118);
  });
});

describe('housekeeping', () => {
  it('a minute after the last sweep, expired keys, windows and log entries are deleted from the file', async () => {
    const file = join(dir(), 'kartage.db');
    let now = T;
    const store = createSqliteStore({ file, now: () => now });
    const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
    await store.hit(read, 'c', T); // the first sweep
    await store.claim('k', 'fp', 60);
    await store.hit(lead, 'c', T);
    const rows = () => {
      const db = new DatabaseSync(file);
      const n = (t: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
      const counts = [n('idempotency'), n('rate_window'), n('rate_log')];
      db.close();
      return counts;
    };
    expect(rows()).toEqual([1, 1, 1]);
    now = T + 59_000;
    await store.hit(read, 'd', T + 59_000); // within a minute of the last sweep: nothing swept
    expect(rows()).toEqual([1, 2, 1]);
    now = T + 4 * 3_600_000;
    await store.hit(read, 'e', now);
    expect(rows()).toEqual([0, 1, 0]);
  });
});

describe("the commands' readers and the backup", () => {
  it('the local lead table, oldest first, each lead once; quarantine with its reason', async () => {
    const d = dir();
    const file = join(d, 'kartage.db');
    const sink = createSqliteSink(file);
    expect(sink.name).toBe(`local lead table in ${file}`);
    for (const id of ['l1', 'l2', 'l1']) await sink.deliver(record(id));
    expect(readLeads(file).map((r) => r.id)).toEqual(['l1', 'l2']);
    expect(readLeads(file)[0]).toEqual(record('l1'));
    const store = createSqliteStore({ file });
    await store.outboxPush('q', entry('q'));
    await store.outboxClaim(1, 60);
    await store.outboxQuarantine('q', 'unreadable');
    expect(readQuarantine(file)).toEqual([
      { id: 'q', payload: entry('q'), reason: 'unreadable', at: expect.any(Number) },
    ]);
  });

  it('a backup copies leads and outbox and never overwrites a file', async () => {
    const d = dir();
    const file = join(d, 'kartage.db');
    await createSqliteSink(file).deliver(record('l1'));
    const store = createSqliteStore({ file });
    await store.outboxPush('o1', entry('o1'));
    await store.outboxPush('o2', entry('o2'));
    const target = join(d, 'backup.db');
    expect(backupDatabase(file, target)).toEqual({ leads: 1, outbox: 2 });
    expect(() => backupDatabase(file, target)).toThrow(`${target} exists; the backup never overwrites a file`);
    expect(readLeads(target)).toEqual([record('l1')]);
  });
});
