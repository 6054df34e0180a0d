/**
 * The embedded store's promises that only the file, its connections and their locks show, in process: the
 * database check (its answer, its connection closed, its wait for another connection's lock), the damaged file
 * moved aside with its WAL, the connection settings, a file replaced under the open store, the read back that
 * acknowledges a lead, the waits for the write lock, the sweep, the checkpoints and the close. Another thread
 * holding a lock stands in for another process. Written against the survivors of `npm run mutate`
 * (bench/mutation.md); tests/adapters/sqlite-store.test.ts holds the main promises.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  backupDatabase,
  createSqliteSink,
  createSqliteStore,
  readLeads,
} from '../../src/adapters/sqlite-store/index.ts';
import { checkDatabase, StoreLockedError } from '../../src/adapters/sqlite-store/health.ts';
import { openDatabase } from '../../src/adapters/sqlite-store/database.ts';
import type { LimitPolicy } from '../../src/core/ports.ts';
import { QUESTION_STALE_MS } from '../../src/core/ask/unanswered.ts';
import { entry, lockHolder, read, record, stderrLines, T } from '../helpers/sqlite-test.ts';

const lead: LimitPolicy = { name: 'lead', limit: 1, windowSeconds: 3600, algorithm: 'sliding-log' };
const dbFile = () => join(mkdtempSync(join(tmpdir(), 'kartage-sqlite-mut-')), 'kartage.db');

/** A fresh copy of the module: its open files, its timer and its exit handler are its own. */
const freshModule = async () => {
  vi.resetModules();
  return {
    ...(await import('../../src/adapters/sqlite-store/index.ts')),
    ...(await import('../../src/adapters/sqlite-store/database.ts')),
  };
};

/** Runs `sql` on a second connection to the file and closes it. */
function onTheSide<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { defensive: false });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const { workerData: { flag, file, sql, holdMs } } = require('node:worker_threads');
const db = new DatabaseSync(file);
db.exec(sql);
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);
Atomics.wait(flag, 0, 1);
Atomics.wait(flag, 0, 2, holdMs);
db.exec('COMMIT');
db.close();
`;

/**
 * Another thread (as another process would) runs `sql` on the file and keeps its lock until `holdMs` after
 * `waitNow()`: the caller calls it just before the blocking call that has to wait for that lock.
 */
function heldElsewhere(file: string, sql: string, holdMs = 100) {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HOLDER, { eval: true, workerData: { flag, file, sql, holdMs } });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  Atomics.wait(flag, 0, 0, 5_000);
  expect(flag[0]).toBe(1);
  return {
    waitNow: () => {
      Atomics.store(flag, 0, 2);
      Atomics.notify(flag, 0);
    },
    exited,
  };
}

/** A database whose table `name` breaks its NOT NULL column in `nulls` rows: PRAGMA quick_check names each. */
function damaged(file: string, name: string, nulls: number) {
  onTheSide(file, (db) => {
    db.exec(`PRAGMA journal_mode = WAL; CREATE TABLE "${name}" (x)`);
    for (let i = 0; i < nulls; i++) db.exec(`INSERT INTO "${name}" VALUES (NULL)`);
    db.exec('PRAGMA writable_schema = ON');
    db.prepare('UPDATE sqlite_schema SET sql = ? WHERE name = ?').run(`CREATE TABLE "${name}" (x NOT NULL)`, name);
    db.exec('PRAGMA writable_schema = OFF');
  });
}

/** Rows of `table` in the main file alone (a copy without its WAL): what a checkpoint has put there. */
function inMainFile(file: string, table: string) {
  const copy = `${file}.main-only`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(file, copy);
  return onTheSide(copy, (db) => {
    if (!db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(table)) return 0;
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  });
}

const rows = (file: string, table: string) =>
  onTheSide(file, (db) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the database check', () => {
  it('a missing file is sound and is not created by the check', () => {
    const file = dbFile();
    expect(checkDatabase(file)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('a file with one problem is named by that problem', () => {
    const file = dbFile();
    damaged(file, 'q', 1);
    expect(checkDatabase(file)).toBe('NULL value in q.x');
  });

  it('a file with many problems is named by its first five, joined by "; "', () => {
    const file = dbFile();
    damaged(file, 'q', 7);
    expect(checkDatabase(file)).toBe(Array(5).fill('NULL value in q.x').join('; '));
  });

  it('closes its connection: a sound WAL file keeps no -wal or -shm beside it', () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(checkDatabase(file)).toBeUndefined();
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
  });

  it("waits for another process's exclusive lock and finds the file sound once it is released", async () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    const other = heldElsewhere(file, 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
    other.waitNow();
    expect(checkDatabase(file)).toBeUndefined();
    await other.exited;
  });

  it('a file locked past the wait is reported locked, never as damaged, and is left where it is', async () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    const other = heldElsewhere(
      file,
      'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)',
      400,
    );
    other.waitNow();
    expect(() => checkDatabase(file, 50)).toThrow(StoreLockedError);
    expect(existsSync(file)).toBe(true);
    await other.exited;
    expect(checkDatabase(file, 50)).toBeUndefined();
  });
});

describe('a damaged file moved aside', () => {
  it('takes its -wal and -shm with it while another process still has it open', () => {
    const file = dbFile();
    damaged(file, 'q', 1);
    const other = new DatabaseSync(file, { defensive: false });
    other.exec('CREATE TABLE w (x); INSERT INTO w VALUES (1)'); // committed to the WAL the other one keeps
    const wal = readFileSync(`${file}-wal`);
    stderrLines();
    createSqliteStore({ file });
    vi.restoreAllMocks();
    const dir = join(file, '..');
    const aside = readdirSync(dir).filter((f) => /^kartage\.db\.corrupt-[\dTZ-]+$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, `${aside[0]}-wal`))).toEqual(wal);
    expect(existsSync(join(dir, `${aside[0]}-shm`))).toBe(true);
    other.close();
  });

  it('is logged with the first 500 characters of a long problem', () => {
    const file = dbFile();
    const name = 't'.repeat(120);
    damaged(file, name, 6);
    const lines = stderrLines();
    createSqliteStore({ file });
    vi.restoreAllMocks();
    const problem = Array(5).fill(`NULL value in ${name}.x`).join('; ');
    expect(problem.length).toBeGreaterThan(500);
    expect(lines.map((l) => l.problem)).toEqual([problem.slice(0, 500)]);
  });
});

describe('the connections', () => {
  it('the file is in WAL mode; lead writes are synchronous=FULL, the read budget NORMAL, both wait 10 ms', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(onTheSide(file, (side) => side.prepare('PRAGMA journal_mode').get())).toEqual({ journal_mode: 'wal' });
    expect(db.durable.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    expect(db.fast.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    expect(db.durable.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 10 });
    expect(db.fast.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 10 });
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

  it("after a command's read the lead connection is back to its 10 ms wait", async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    expect(readLeads(file)).toEqual([record('l1')]);
    expect(openDatabase(file).durable.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 10 });
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

describe('a lead is acknowledged only once read back from the file at the path', () => {
  it('an outbox entry committed to a file removed while it waited for the lock is refused', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    const lock = lockHolder(file);
    const pushed = store.outboxPush('lost', entry('lost'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    lock.release();
    stderrLines();
    await expect(pushed).rejects.toThrow(/^the outbox entry lost was committed but cannot be read back$/);
  });

  it('a lead delivered to a file removed while it waited for the lock is refused', async () => {
    const file = dbFile();
    const sink = createSqliteSink(file);
    await sink.deliver(record('first'));
    const lock = lockHolder(file);
    const delivered = sink.deliver(record('lost'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    lock.release();
    stderrLines();
    await expect(delivered).rejects.toThrow(/^the lead lost was committed but cannot be read back$/);
  });

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

describe('a write waits only for the lock', () => {
  /** The outcome of `p` if it settles within this turn of the event loop (no timer fired), else 'pending'. */
  const now = <V>(p: Promise<V>) =>
    Promise.race([
      p.then(
        (v) => ({ value: v }),
        (e: unknown) => ({ error: e }),
      ),
      new Promise((resolve) => setImmediate(() => resolve('pending'))),
    ]);

  it('a failure that is not the lock is thrown at once, and its transaction rolled back', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T });
    onTheSide(file, (db) => db.prepare('INSERT INTO idempotency VALUES (?, ?, ?)').run('k', 'not json', T + 60_000));
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const outcome = await now(store.claim('k', 'fp', 10));
    expect(outcome).toEqual({ error: expect.any(SyntaxError) });
    expect(await now(store.claim('k2', 'fp', 10))).toEqual({ value: undefined });
    expect(rows(file, 'idempotency')).toBe(2);
  });

  it('an error whose text says the database is locked is waited on like the lock, to the end of the wait', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T });
    onTheSide(file, (db) =>
      db.prepare('INSERT INTO idempotency VALUES (?, ?, ?)').run('k', 'database is locked', T + 60_000),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    vi.setSystemTime(T);
    const claimed = store.claim('k', 'fp', 10);
    expect(await now(claimed)).toBe('pending');
    const outcome = claimed.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(SyntaxError);
    expect(Date.now() - T).toBe(4_962);
  });

  it('an error that ends its own transaction is thrown as it is', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    onTheSide(file, (db) =>
      db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON outbox WHEN NEW.id = 'bad'
               BEGIN SELECT RAISE(ROLLBACK, 'refused by a trigger'); END`),
    );
    await expect(store.outboxPush('bad', entry('bad'))).rejects.toThrow(/^refused by a trigger$/);
    await store.outboxPush('good', entry('good'));
    expect(await store.outboxSize()).toBe(1);
  });

  /** The fake-clock times (ms after T) at which each attempt of a count took the write lock. */
  function attempts() {
    const at: number[] = [];
    const begin = DatabaseSync.prototype.exec;
    vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
      if (sql === 'BEGIN IMMEDIATE') at.push(Date.now() - T);
      return begin.call(this, sql);
    });
    return at;
  }

  /** A counted write on a fresh store while another connection holds the lock, on a faked clock at T. */
  function writeUnderLock() {
    const file = dbFile();
    const store = createSqliteStore({ file });
    const lock = lockHolder(file);
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    vi.setSystemTime(T);
    const at = attempts();
    let outcome: unknown = 'pending';
    store.countQuestion('k', 'q', T).catch((e: unknown) => {
      outcome = e;
    });
    return { lock, at, outcome: () => outcome };
  }

  it('a held lock is tried again after 2, 4, 8, 16 and 32 ms, then every 50, until the 250 ms wait ends', async () => {
    const { lock, at, outcome } = writeUnderLock();
    for (let i = 0; i < 20 && outcome() === 'pending'; i++) await vi.advanceTimersToNextTimerAsync();
    lock.release();
    expect(at).toEqual([0, 2, 6, 14, 30, 62, 112, 162, 212]);
    expect(String(outcome())).toMatch(/database is locked/);
  });

  it('a pause that ends exactly at the end of the wait is still taken', async () => {
    const { lock, at, outcome } = writeUnderLock();
    vi.setSystemTime(T + 244); // the 2 ms pause now ends at 246: the next, of 4 ms, ends at the deadline, 250
    for (let i = 0; i < 5 && outcome() === 'pending'; i++) await vi.advanceTimersToNextTimerAsync();
    lock.release();
    expect(at).toEqual([0, 246, 250]);
    expect(String(outcome())).toMatch(/database is locked/);
  });

  it('the read-budget hits of one turn of the event loop share one transaction', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T); // the first sweep done
    const { fast } = openDatabase(file);
    const begin = DatabaseSync.prototype.exec;
    let begins = 0;
    vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
      if (this === fast && sql === 'BEGIN IMMEDIATE') begins++;
      return begin.call(this, sql);
    });
    const results = await Promise.all([store.hit(read, 'a', T + 1000), store.hit(read, 'b', T + 1000)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(results.map((r) => r.allowed)).toEqual([true, true]);
    expect(begins).toBe(1);
  });
});

describe('housekeeping', () => {
  it('an expired key is swept at the first hit a full minute after the last sweep, not a millisecond before', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T });
    await store.hit(read, 'c', T); // the first sweep
    await store.claim('k', 'fp', 10);
    await store.hit(read, 'c', T + 59_999);
    expect(rows(file, 'idempotency')).toBe(1);
    await store.hit(read, 'c', T + 60_000);
    expect(rows(file, 'idempotency')).toBe(0);
  });

  it('a sweep that finds the lock held is tried again at the next hit, and the hit is served', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T - 10_000 });
    await store.claim('k', 'fp', 1);
    const lock = lockHolder(file);
    const first = store.hit(read, 'c', T);
    lock.release();
    expect((await first).allowed).toBe(true);
    expect(rows(file, 'idempotency')).toBe(1);
    await store.hit(read, 'c', T + 1000);
    expect(rows(file, 'idempotency')).toBe(0);
  });

  it('a sweep that fails for another reason fails the hit', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T - 10_000 });
    await store.claim('k', 'fp', 1);
    onTheSide(file, (db) =>
      db.exec(`CREATE TRIGGER keep BEFORE DELETE ON idempotency BEGIN SELECT RAISE(ABORT, 'kept by a trigger'); END`),
    );
    await expect(store.hit(read, 'c', T)).rejects.toThrow(/^kept by a trigger$/);
  });
});

describe('budgets, the outbox, dead letters and questions', () => {
  it('a result marked refused is never refunded, whatever unit it names', async () => {
    const store = createSqliteStore({ file: dbFile() });
    const spent = await store.hit(lead, 'c', T);
    expect(spent).toMatchObject({ allowed: true, unit: expect.any(String) });
    await store.refund(lead, 'c', { ...spent, allowed: false });
    expect((await store.hit(lead, 'c', T + 1)).allowed).toBe(false);
  });

  it('a retry without a delay frees the entry at once, even for a flusher whose clock is behind', async () => {
    let now = T;
    const store = createSqliteStore({ file: dbFile(), now: () => now });
    await store.outboxPush('x', entry('x'));
    await store.outboxClaim(1, 60);
    now = T + 1000;
    await store.outboxRetry('x', 'CRM down');
    now = T + 500;
    expect((await store.outboxClaim(1, 60)).map((i) => i.id)).toEqual(['x']);
  });

  it('the last error of a retried entry is kept to its first 500 characters', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.outboxRetry('x', `${'e'.repeat(500)}-cut`, 1000);
    expect(onTheSide(file, (db) => db.prepare('SELECT last_error FROM outbox').get())).toEqual({
      last_error: 'e'.repeat(500),
    });
  });

  it("a dead letter's reason is kept to its first 1,000 characters", async () => {
    const store = createSqliteStore({ file: dbFile() });
    await store.outboxPush('x', entry('x'));
    await store.outboxDeadLetter('x', { reason: `${'r'.repeat(1000)}-cut` });
    expect((await store.deadLetters()).map((d) => d.reason)).toEqual(['r'.repeat(1000)]);
  });

  it('a question counted again never trims the list, even past a bound lowered since', async () => {
    const file = dbFile();
    const before = createSqliteStore({ file, questionLimit: 5 });
    for (let i = 1; i <= 5; i++) await before.countQuestion(`q${i}`, `Q${i}`, T + i * 1000);
    const after = createSqliteStore({ file, questionLimit: 3 });
    await after.countQuestion('q1', 'Q1', T + 10_000);
    expect(await after.topQuestions(10)).toHaveLength(5);
    // A month on, every question is stale: the new one makes room by trimming the list to the lowered bound.
    await after.countQuestion('q6', 'Q6', T + 11_000 + QUESTION_STALE_MS);
    expect((await after.topQuestions(10)).map((q) => q.text)).toEqual(['Q1', 'Q6', 'Q5']);
  });
});

describe('checkpoints and closing', () => {
  it('every 10 s the committed pages are copied into the main file', async () => {
    const m = await freshModule();
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    await store.countQuestion('k', 'q', T);
    expect(inMainFile(file, 'unanswered')).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(inMainFile(file, 'unanswered')).toBe(1);
    m.closeDatabases();
  });

  it('the first file opened registers one exit handler that closes the databases, however many files open', async () => {
    const m = await freshModule();
    const handlers = () => process.listeners('exit').filter((l) => l === m.closeDatabases).length;
    expect(handlers()).toBe(0);
    m.openDatabase(dbFile());
    m.openDatabase(dbFile());
    expect(handlers()).toBe(1);
    m.closeDatabases();
    process.removeListener('exit', m.closeDatabases);
  });

  it('closing copies every committed page into the main file, empties the WAL and closes both connections', async () => {
    const m = await freshModule();
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
    m.closeDatabases();
  });
});

describe('the backup', () => {
  it.runIf(existsSync('/proc/self/fd'))('leaves no handle open on the copy', async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    const target = `${file}.backup`;
    expect(backupDatabase(file, target)).toEqual({ leads: 1, outbox: 0 });
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    });
    expect(open.filter((path) => path.startsWith(target))).toEqual([]);
  });
});
