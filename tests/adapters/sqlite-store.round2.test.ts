/**
 * The embedded store's promises that the second round of `npm run mutate` survivors showed untested
 * (bench/mutation.md): the default file name, the store's error line on stderr, the locked-database error a
 * person reads, the pause between attempts for the lock, the statements compiled once per connection, and the
 * leads copied into the main file at once (a pushed entry, a dead letter, a requeued one, a delivered lead),
 * with no checkpoint spent when nothing moved. tests/adapters/sqlite-store.mutants.test.ts holds the first
 * round. Module-level helpers (the log line, the pause) are seen only by a copy of the module imported again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteSink, createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { checkDatabase, StoreLockedError } from '../../src/adapters/sqlite-store/health.ts';
import { entry, read, record, T } from '../helpers/sqlite-test.ts';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'kartage-sqlite-r2-')), 'kartage.db');

/** A fresh copy of the module (its module-level helpers built again); `done` closes its files and exit handler. */
async function freshModule() {
  vi.resetModules();
  const m = {
    ...(await import('../../src/adapters/sqlite-store/index.ts')),
    ...(await import('../../src/adapters/sqlite-store/database.ts')),
  };
  const done = () => {
    m.closeDatabases();
    process.removeListener('exit', m.closeDatabases);
  };
  return { m, done };
}

/** Rows of `table` in the main file alone (a copy without its WAL): what a checkpoint has put there. */
function inMainFile(file: string, table: string) {
  const copy = `${file}.main-only`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(file, copy);
  const db = new DatabaseSync(copy);
  try {
    if (!db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(table)) return 0;
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/** The checkpoints the store's connections take from now on (the SQL each ran). */
function checkpoints() {
  const taken: string[] = [];
  const exec = DatabaseSync.prototype.exec;
  vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
    if (sql.includes('wal_checkpoint')) taken.push(sql);
    return exec.call(this, sql);
  });
  return taken;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the file', () => {
  it('the default database is kartage.db in KARTAGE_VAR_DIR', async () => {
    vi.resetModules();
    const { parseConfig } = await import('../../src/adapters/config.ts');
    expect(parseConfig({ KARTAGE_VAR_DIR: '/srv/kartage' }).store).toEqual({
      kind: 'sqlite',
      file: '/srv/kartage/kartage.db',
    });
  });

  it('a database locked past the wait is reported by name, with what to do, never as damaged', () => {
    const file = dbFile();
    const other = new DatabaseSync(file);
    other.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)');
    other.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
    let thrown: unknown;
    try {
      checkDatabase(file, 5);
    } catch (e) {
      thrown = e;
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    expect(thrown).toBeInstanceOf(StoreLockedError);
    expect((thrown as Error).name).toBe('StoreLockedError');
    expect((thrown as Error).message).toBe(
      `The embedded database ${file} stayed locked by another process for 5 ms; it was left as it is ` +
        '(not moved aside). Stop the other process using it, or set KARTAGE_VAR_DIR to another folder, and start again.',
    );
  });
});

describe('the error line', () => {
  it('is one JSON line on stderr: the time, level error, the event and its fields', async () => {
    const { m, done } = await freshModule();
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    m.openDatabase(file).fast.close(); // the read back then fails
    const chunks: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    await expect(store.outboxPush('x', entry('x'))).rejects.toThrow(/cannot be read back/);
    vi.restoreAllMocks();
    done();
    expect(chunks).toEqual([
      `${JSON.stringify({
        time: '2026-11-23T10:00:00.000Z',
        level: 'error',
        event: 'store_read_back_failed',
        file,
        id: 'x',
        error: 'database is not open',
      })}\n`,
    ]);
  });
});

describe('a write waiting for the lock', () => {
  it('pauses off the event loop between attempts, and goes on once the lock is free', async () => {
    const { m, done } = await freshModule();
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let outcome: unknown = 'pending';
    const counted = store.countQuestion('k', 'q', T).then(
      () => {
        outcome = 'counted';
      },
      (e: unknown) => {
        outcome = e;
      },
    );
    await new Promise((resolve) => setImmediate(resolve)); // the event loop turned: the first attempt failed
    expect(outcome).toBe('pending');
    expect(vi.getTimerCount()).toBe(1);
    other.exec('COMMIT');
    other.close();
    await vi.advanceTimersToNextTimerAsync();
    await counted;
    expect(outcome).toBe('counted');
    expect((await store.topQuestions(5)).map((q) => q.text)).toEqual(['q']);
    done();
  });
});

describe('prepared statements', () => {
  it('a connection compiles each statement once: a second metered read prepares nothing', async () => {
    const store = createSqliteStore({ file: dbFile() });
    await store.hit(read, 'c', T); // compiles the read's statements (and the sweep's)
    const prepare = vi.spyOn(DatabaseSync.prototype, 'prepare');
    const second = await store.hit(read, 'c', T + 1000);
    expect(second.allowed).toBe(true);
    expect(await store.outboxSize()).toBe(0);
    expect(await store.outboxSize()).toBe(0);
    expect(prepare.mock.calls.map((c) => c[0])).toEqual(['SELECT count(*) AS n FROM outbox']);
  });
});

describe('leads copied into the main file at once', () => {
  it('an outbox entry is in the main file once it is acknowledged', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    expect(inMainFile(file, 'outbox')).toBe(1);
  });

  it('a lead moved to the dead letters is in the main file once the move returns', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    const taken = checkpoints();
    expect(await store.outboxDeadLetter('x', { reason: 'refused' })).toBe(true);
    expect(taken).toEqual(['PRAGMA wal_checkpoint(PASSIVE)']);
    expect([inMainFile(file, 'dead_letter'), inMainFile(file, 'outbox')]).toEqual([1, 0]);
  });

  it('a dead letter requeued is back in the main outbox once the requeue returns', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.outboxDeadLetter('x', { reason: 'refused' });
    const taken = checkpoints();
    expect(await store.deadLetterRequeue('x')).toBe(true);
    expect(taken).toEqual(['PRAGMA wal_checkpoint(PASSIVE)']);
    expect([inMainFile(file, 'dead_letter'), inMainFile(file, 'outbox')]).toEqual([0, 1]);
  });

  it('a dead-letter move or requeue that finds nothing spends no checkpoint', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.countQuestion('k', 'q', T); // a change only in the WAL: a checkpoint would copy it
    const taken = checkpoints();
    expect(await store.outboxDeadLetter('missing', { reason: 'refused' })).toBe(false);
    expect(await store.deadLetterRequeue('missing')).toBe(false);
    expect(taken).toEqual([]);
    expect(inMainFile(file, 'unanswered')).toBe(0);
  });

  it('a lead delivered to the local lead table is in the main file once delivered', async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    expect(inMainFile(file, 'leads')).toBe(1);
  });
});
