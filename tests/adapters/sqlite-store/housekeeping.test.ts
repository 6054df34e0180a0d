/**
 * The embedded store's housekeeping (src/adapters/sqlite-store/housekeeping.ts): a minute after the last sweep, the
 * next hit deletes the rows that no longer count (expired keys, windows and log entries) from the file; a sweep
 * that finds the lock held is left to the next hit, never waited for.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import type { LimitPolicy } from '../../../src/core/ports.ts';
import { dbFile, lockHolder, onTheSide, read, rows, T } from '../../helpers/sqlite-test.ts';

describe('housekeeping', () => {
  it('a minute after the last sweep, expired keys, windows and log entries are deleted from the file', async () => {
    const file = dbFile();
    let now = T;
    const store = createSqliteStore({ file, now: () => now });
    const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
    await store.hit(read, 'c', T); // the first sweep
    await store.claim('k', 'fp', 60);
    await store.hit(lead, 'c', T);
    const counts = () => ['idempotency', 'rate_window', 'rate_log'].map((table) => rows(file, table));
    expect(counts()).toEqual([1, 1, 1]);
    now = T + 59_000;
    await store.hit(read, 'd', T + 59_000); // within a minute of the last sweep: nothing swept
    expect(counts()).toEqual([1, 2, 1]);
    now = T + 4 * 3_600_000;
    await store.hit(read, 'e', now);
    expect(counts()).toEqual([0, 1, 0]);
  });

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
