/**
 * The embedded database (src/adapters/sqlite-store/database.ts): the default file, its two connections (WAL; lead
 * writes synchronous=FULL, the read budget NORMAL; a lock held elsewhere waited for a moment at a time, the event
 * loop turning between), one open file per process shared by every store and command, everything kept across a
 * restart, a file replaced under the open store noticed and reopened, a lead acknowledged only once read back from
 * the file at the path, and the checkpoints that copy the WAL into the main file, on a timer and at exit.
 */
import { spawn } from 'node:child_process';
import { rmSync, renameSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/adapters/sqlite-store/database.ts';
import {
  backupDatabase,
  createSqliteSink,
  createSqliteStore,
  readLeads,
} from '../../../src/adapters/sqlite-store/index.ts';
import type { LimitPolicy, Store } from '../../../src/core/ports.ts';
import { PROJECT_ROOT } from '../../helpers/server.ts';
import {
  dbFile,
  entry,
  freshModule,
  heldElsewhere,
  inMainFile,
  lockHolder,
  onTheSide,
  record,
  stderrLines,
  T,
} from '../../helpers/sqlite-test.ts';

const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * Whether a lead write on `store`, facing another connection's write lock, leaves the event loop turning while it
 * waits (it blocks only a moment at a time); the write lands once the lock is released.
 */
async function waitsOffTheLoop(store: Store, file: string) {
  const lock = lockHolder(file);
  let settled = false;
  const pushed = store.outboxPush('waiting', entry('waiting')).finally(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  const turning = !settled;
  lock.release();
  await pushed;
  return turning;
}

describe('the file', () => {
  it('the default database is kartage.db in KARTAGE_VAR_DIR', async () => {
    vi.resetModules();
    const { parseConfig } = await import('../../../src/config.ts');
    expect(parseConfig({ KARTAGE_VAR_DIR: '/srv/kartage' }).store).toEqual({
      kind: 'sqlite',
      file: '/srv/kartage/kartage.db',
    });
  });
});

describe('the connections', () => {
  it('the file is in WAL mode; lead writes are synchronous=FULL, the read budget NORMAL', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(onTheSide(file, (side) => side.prepare('PRAGMA journal_mode').get())).toEqual({ journal_mode: 'wal' });
    expect(db.durable.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    expect(db.fast.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
  });

  it("a lead write facing another connection's lock leaves the event loop turning, and lands after it", async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('first', entry('first'));
    expect(await waitsOffTheLoop(store, file)).toBe(true);
    expect(await store.outboxSize()).toBe(2);
  });

  it("after a command's read, a lead write facing a lock still leaves the event loop turning", async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    expect(readLeads(file)).toEqual([record('l1')]);
    expect(await waitsOffTheLoop(createSqliteStore({ file }), file)).toBe(true);
  });

  it('a file is opened once per process: every store and command shares its connections', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(openDatabase(file)).toBe(db);
  });

  it("opening waits for another process's write lock to create the tables", async () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    const other = heldElsewhere(file, 'BEGIN IMMEDIATE');
    other.waitNow();
    const db = openDatabase(file);
    await other.exited;
    expect(db.durable.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
  });
});

describe('a restart', () => {
  it('keeps budgets, keys and the outbox (a second process opens the same file)', async () => {
    const file = dbFile();
    const first = createSqliteStore({ file });
    const now = Date.now();
    for (let i = 0; i < 5; i++) await first.hit(lead, 'c', now);
    await first.complete('idem:k', { state: 'done', fingerprint: 'fp', status: 200, body: { ok: true } }, 86_400);
    await first.outboxPush('1', entry('1'));
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

  it('keeps dead letters (a new store over the same file)', async () => {
    const file = dbFile();
    const first = createSqliteStore({ file });
    await first.outboxPush('kept', entry('kept'));
    await first.outboxClaim(1, 60);
    await first.outboxDeadLetter('kept', { reason: 'refused', status: 400, answer: 'no' });
    const second = createSqliteStore({ file });
    expect(await second.deadLetters()).toMatchObject([{ id: 'kept', status: 400, answer: 'no', attempts: 1 }]);
  });
});

describe('a file replaced under the open store', () => {
  /** The store's file, with `before` queued, replaced by a backup of itself renamed over the path. */
  async function restoredFromBackup() {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('before', entry('before'));
    const db = openDatabase(file);
    const old = { durable: db.durable, fast: db.fast };
    const backup = `${file}.backup`;
    backupDatabase(file, backup);
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
    renameSync(backup, file);
    return { file, store, db, old };
  }

  it('a removed file is noticed at the next lead write, logged, and the write lands in the file now at the path', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('before', entry('before'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const lines = stderrLines();
    await store.outboxPush('after', entry('after'));
    vi.restoreAllMocks();
    expect(lines.map((l) => [l.event, l.note])).toEqual([
      ['store_file_changed', 'the database file was replaced or removed; reopening it'],
    ]);
    expect(onTheSide(file, (db) => db.prepare('SELECT id FROM outbox').all())).toEqual([{ id: 'after' }]);
  });

  it('another database renamed over the path is noticed, logged, and written to', async () => {
    const { file, store } = await restoredFromBackup();
    const lines = stderrLines();
    await store.outboxPush('after', entry('after'));
    vi.restoreAllMocks();
    expect(lines.map((l) => l.event)).toEqual(['store_file_changed']);
    expect(onTheSide(file, (db) => db.prepare('SELECT id FROM outbox ORDER BY queue_order').all())).toEqual([
      { id: 'before' },
      { id: 'after' },
    ]);
  });

  it("the old file's connections are closed and the store's database stays the one the process shares", async () => {
    const { file, store, db, old } = await restoredFromBackup();
    stderrLines();
    await store.outboxPush('after', entry('after'));
    vi.restoreAllMocks();
    expect([old.durable.isOpen, old.fast.isOpen]).toEqual([false, false]);
    expect([db.durable.isOpen, db.fast.isOpen]).toEqual([true, true]);
    expect(openDatabase(file)).toBe(db);
  });
});

describe('a lead acknowledged only once read back', () => {
  it('a read back that fails is logged and the entry is not acknowledged', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    openDatabase(file).fast.close();
    const lines = stderrLines();
    await expect(store.outboxPush('x', entry('x'))).rejects.toThrow(
      /^the outbox entry x was committed but cannot be read back$/,
    );
    vi.restoreAllMocks();
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        event: 'store_read_back_failed',
        file,
        id: 'x',
        error: 'database is not open',
      },
    ]);
  });
});

describe('checkpoints and closing', () => {
  it('every 10 s the committed pages are copied into the main file', async () => {
    const { m, done } = await freshModule();
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    await store.countQuestion('k', 'q', T);
    expect(inMainFile(file, 'unanswered')).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(inMainFile(file, 'unanswered')).toBe(1);
    done();
  });

  it('the first file opened registers one exit handler that closes the databases, however many files open', async () => {
    const { m, done } = await freshModule();
    const handlers = () => process.listeners('exit').filter((l) => l === m.closeDatabases).length;
    expect(handlers()).toBe(0);
    m.openDatabase(dbFile());
    m.openDatabase(dbFile());
    expect(handlers()).toBe(1);
    done();
  });

  it('closing copies every committed page into the main file, empties the WAL and closes both connections', async () => {
    const { m, done } = await freshModule();
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    await store.countQuestion('k', 'q', T);
    const db = m.openDatabase(file);
    const reader = new DatabaseSync(file);
    reader.prepare('SELECT count(*) FROM unanswered').get(); // a connection still on the file keeps its WAL
    m.closeDatabases();
    expect([db.durable.isOpen, db.fast.isOpen]).toEqual([false, false]);
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(inMainFile(file, 'unanswered')).toBe(1);
    const reopened = m.openDatabase(file);
    expect(reopened === db).toBe(false); // (toBe would compare the closed connections' properties)
    expect(reopened.durable.isOpen).toBe(true);
    reader.close();
    done();
  });
});
