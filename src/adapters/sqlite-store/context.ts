/** @module What each part of the embedded store works with: the database, the clock, its two kinds of write. */
import { current, type Database } from './database.ts';
import { LEAD_WAIT_MS, READ_WAIT_MS, write } from './transactions.ts';

/** The open database, the store's clock and its two kinds of write. */
export interface SqliteContext {
  db: Database;
  clock: () => number;
  /** A lead-path write: on the file as it is now, waiting up to LEAD_WAIT_MS for the lock, off the event loop. */
  lead<T>(fn: () => T): Promise<T>;
  /** A read-budget or counting write: a short wait, then the caller falls back. */
  counts<T>(fn: () => T): Promise<T>;
}

/** The context of a store over `db` reading the time from `clock`. */
export function contextOf(db: Database, clock: () => number): SqliteContext {
  return {
    db,
    clock,
    lead: (fn) => write(current(db).durable, fn, LEAD_WAIT_MS),
    counts: (fn) => write(db.fast, fn, READ_WAIT_MS),
  };
}
