/** @module The embedded store's housekeeping: rows that no longer count are deleted, at most once a minute. */
import type { Database } from './database.ts';
import { isBusy, prepared, transaction } from './transactions.ts';

/** A sweep to run at each hit: a minute after the last one, it deletes expired keys, windows and log entries. */
export function sweeper(db: Database): (now: number) => void {
  let lastSweep = 0;
  return (now) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    // With the lock held elsewhere it waits for the next sweep, never for the lock.
    try {
      transaction(db.durable, () => prepared(db.durable, 'DELETE FROM idempotency WHERE until <= ?').run(now));
      // A window counts until the next one has ended, a log entry until its window has.
      transaction(db.fast, () => prepared(db.fast, 'DELETE FROM rate_window WHERE until <= ?').run(now));
      transaction(db.durable, () => prepared(db.durable, 'DELETE FROM rate_log WHERE until <= ?').run(now));
    } catch (e) {
      if (!isBusy(e)) throw e;
      lastSweep = 0;
    }
  };
}
