/** @module Writes to the embedded database: one transaction each, waiting for another process's lock off the loop. */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { errorText } from '../../core/error-text.ts';

/** How long one attempt blocks the event loop for a lock held elsewhere (`DatabaseSync` is synchronous). */
export const BUSY_MS = 10;
/** How long a lead-path write keeps trying for the lock. */
export const LEAD_WAIT_MS = 5_000;
/** How long a read-budget hit or a count keeps trying; past it the caller falls back (per-instance counting). */
export const READ_WAIT_MS = 250;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The lock is held by another connection or process (SQLITE_BUSY, SQLITE_LOCKED). */
export const isBusy = (e: unknown) => {
  const code = (e as { errcode?: number })?.errcode;
  return code === 5 || code === 6 || /database is (locked|busy)/.test(errorText(e));
};

const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** A connection's prepared statement for `sql`, compiled once (preparing costs more than running these). */
export function prepared(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/** The first row `sql` gives with `args`, or undefined. */
export const row = (db: DatabaseSync, sql: string, ...args: SQLInputValue[]) =>
  prepared(db, sql).get(...args) as Record<string, SQLInputValue> | undefined;

/** Runs `fn` in one write transaction (the write lock first), committed before it returns. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/** `transaction`, trying again for up to `waitMs` while another process holds the lock; then its error is thrown. */
export async function write<T>(db: DatabaseSync, fn: () => T, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  // Each attempt blocks the loop BUSY_MS at most; the pauses between them, growing to 50 ms, do not: a lock held
  // elsewhere (`npm run leads:flush`, a backup) never stalls this instance's pages and reads.
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      return transaction(db, fn);
    } catch (e) {
      if (!isBusy(e) || Date.now() + pause > deadline) throw e;
    }
    await sleep(pause);
  }
}
