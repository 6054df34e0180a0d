/** @module The embedded store's idempotency records: one row per key, on the durable connection. */
import type { IdempotencyRecord, Store } from '../../core/ports.ts';
import type { SqliteContext } from './context.ts';
import { prepared, row } from './transactions.ts';

/** The store's `claim`, `complete` and `release`. */
export function sqliteIdempotency({ db, clock, lead }: SqliteContext): Pick<Store, 'claim' | 'complete' | 'release'> {
  const put = (key: string, record: IdempotencyRecord, until: number) =>
    prepared(db.durable, 'INSERT OR REPLACE INTO idempotency (key, record, until) VALUES (?, ?, ?)').run(
      key,
      JSON.stringify(record),
      until,
    );
  return {
    async claim(key, fingerprint, claimSeconds) {
      const now = clock();
      return lead(() => {
        const held = row(db.durable, 'SELECT record FROM idempotency WHERE key = ? AND until > ?', key, now);
        if (held) return JSON.parse(String(held.record)) as IdempotencyRecord;
        put(key, { state: 'pending', fingerprint }, now + claimSeconds * 1000);
        return undefined;
      });
    },
    async complete(key, record, ttlSeconds) {
      await lead(() => put(key, record, clock() + ttlSeconds * 1000));
    },
    async release(key) {
      await lead(() =>
        prepared(
          db.durable,
          `DELETE FROM idempotency WHERE key = ? AND json_extract(record, '$.state') = 'pending'`,
        ).run(key),
      );
    },
  };
}
