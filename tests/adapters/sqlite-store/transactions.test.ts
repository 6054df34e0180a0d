/**
 * The embedded store's writes under another connection's write lock (src/adapters/sqlite-store/transactions.ts):
 * a lead write waits for it, a read-budget hit or a count gives up after its short wait (the caller then counts per
 * instance), each attempt blocking only a moment and the waits between attempts taken off the event loop, tried
 * again soon after a short hold and at least every 50 ms, up to the end of the wait and no longer; only the lock
 * is waited for; and each connection compiles a statement once.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { LEAD_WAIT_MS, READ_WAIT_MS } from '../../../src/adapters/sqlite-store/transactions.ts';
import { dbFile, entry, freshModule, lockHolder, onTheSide, read, rows, T } from '../../helpers/sqlite-test.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The outcome of `p` if it settles within this turn of the event loop (no timer fired), else 'pending'. */
const settledNow = <V>(p: Promise<V>) =>
  Promise.race([
    p.then(
      (v) => ({ value: v }),
      (e: unknown) => ({ error: e }),
    ),
    new Promise((resolve) => setImmediate(() => resolve('pending'))),
  ]);

/** The fake-clock times (ms after T) at which each attempt took, or tried to take, the write lock. */
function attempts() {
  const at: number[] = [];
  const begin = DatabaseSync.prototype.exec;
  vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
    if (sql === 'BEGIN IMMEDIATE') at.push(Date.now() - T);
    return begin.call(this, sql);
  });
  return at;
}

/**
 * A count (a write with the read budget's short wait) on a fresh store while another connection holds the lock, on
 * a faked clock at T; `run` advances the timers until it settles, the lock released at `releaseAt` (ms after T), or
 * once it has.
 */
function countUnderLock() {
  const file = dbFile();
  const store = createSqliteStore({ file });
  const lock = lockHolder(file);
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
  vi.setSystemTime(T);
  const at = attempts();
  let outcome: unknown = 'pending';
  store.countQuestion('k', 'q', T).then(
    () => {
      outcome = 'counted';
    },
    (e: unknown) => {
      outcome = e;
    },
  );
  const run = async (releaseAt?: number) => {
    if (releaseAt !== undefined) {
      await vi.advanceTimersByTimeAsync(releaseAt);
      lock.release();
    }
    for (let i = 0; i < 100 && outcome === 'pending'; i++) await vi.advanceTimersToNextTimerAsync();
    if (releaseAt === undefined) lock.release();
    return outcome;
  };
  return { at, run };
}

describe("another connection's write lock", () => {
  it('a lead write waits for it and lands once it is released', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    const lock = lockHolder(file);
    setTimeout(lock.release, 100);
    await store.outboxPush('waited', entry('waited'));
    expect(await store.outboxSize()).toBe(1);
  });

  it('a read-budget hit gives up within its short wait (the caller then counts per instance)', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T); // the sweep of a first hit done
    const lock = lockHolder(file);
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    vi.setSystemTime(T);
    let outcome: unknown = 'pending';
    store.hit(read, 'c', T + 1000).catch((e: unknown) => {
      outcome = e;
    });
    await new Promise((resolve) => setImmediate(resolve)); // the hit's batch is committed on the next turn
    for (let i = 0; i < 100 && outcome === 'pending'; i++) await vi.advanceTimersToNextTimerAsync();
    const waited = Date.now() - T;
    lock.release();
    vi.useRealTimers();
    expect(String(outcome)).toMatch(/locked|busy/);
    expect(waited).toBeLessThanOrEqual(READ_WAIT_MS);
    expect(waited).toBeGreaterThanOrEqual(READ_WAIT_MS - 50);
    expect((await store.hit(read, 'c', T + 1000)).remaining).toBe(118);
  });

  it('a read-budget hit waits for a lock released within its wait', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T);
    const lock = lockHolder(file);
    setTimeout(lock.release, 40);
    expect((await store.hit(read, 'c', T + 1000)).remaining).toBe(118);
  });
});

describe('the attempts of a write waiting for the lock', () => {
  it('pause off the event loop, and the write goes on once the lock is free', async () => {
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

  it('come less and less often, never more than 50 ms apart, until the wait ends; then the write fails', async () => {
    const { at, run } = countUnderLock();
    expect(String(await run())).toMatch(/database is locked/);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(at[0]).toBe(0);
    expect(gaps.length).toBeGreaterThan(2);
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThan(0);
      expect(gap).toBeLessThanOrEqual(50);
      if (i > 0) expect(gap).toBeGreaterThanOrEqual(gaps[i - 1]!);
    }
    expect(at.at(-1)!).toBeLessThanOrEqual(READ_WAIT_MS);
    expect(READ_WAIT_MS - at.at(-1)!).toBeLessThanOrEqual(50);
  });

  it.each([5, 10, 20, 40])('a lock held %i ms costs the write at most about twice that', async (hold) => {
    const { at, run } = countUnderLock();
    expect(await run(hold)).toBe('counted');
    expect(at.at(-1)!).toBeGreaterThanOrEqual(hold);
    expect(at.at(-1)!).toBeLessThanOrEqual(2 * hold + 2);
  });

  it('an attempt falling exactly at the end of the wait is still made', async () => {
    const free = countUnderLock();
    await free.run();
    vi.useRealTimers();
    vi.restoreAllMocks();
    const [first, second] = [free.at[1]! - free.at[0]!, free.at[2]! - free.at[1]!];
    // The clock set after the first attempt so that the third falls on the end of the wait exactly.
    const { at, run } = countUnderLock();
    vi.setSystemTime(T + READ_WAIT_MS - first - second);
    await run();
    expect(at.at(-1)).toBe(READ_WAIT_MS);
  });
});

describe('a write waits only for the lock', () => {
  it('a failure that is not the lock is thrown at once, and its transaction rolled back', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file, now: () => T });
    onTheSide(file, (db) => db.prepare('INSERT INTO idempotency VALUES (?, ?, ?)').run('k', 'not json', T + 60_000));
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const outcome = await settledNow(store.claim('k', 'fp', 10));
    expect(outcome).toEqual({ error: expect.any(SyntaxError) });
    expect(await settledNow(store.claim('k2', 'fp', 10))).toEqual({ value: undefined });
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
    expect(await settledNow(claimed)).toBe('pending');
    const outcome = claimed.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.runAllTimersAsync();
    expect(await outcome).toBeInstanceOf(SyntaxError);
    expect(Date.now() - T).toBeLessThanOrEqual(LEAD_WAIT_MS);
    expect(Date.now() - T).toBeGreaterThanOrEqual(LEAD_WAIT_MS - 50);
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
});

describe('prepared statements', () => {
  it('a connection compiles each statement once: a second metered read, or count, prepares nothing', async () => {
    const store = createSqliteStore({ file: dbFile() });
    await store.hit(read, 'c', T); // compiles the read's statements (and the sweep's)
    const prepare = vi.spyOn(DatabaseSync.prototype, 'prepare');
    const second = await store.hit(read, 'c', T + 1000);
    expect(second.allowed).toBe(true);
    expect(prepare).not.toHaveBeenCalled();
    expect(await store.outboxSize()).toBe(0);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(await store.outboxSize()).toBe(0);
    expect(prepare).toHaveBeenCalledTimes(1);
  });
});
