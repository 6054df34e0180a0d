/** @module The embedded store's lead outbox (one row per delivery id, in queue order) and its quarantine. */
import type { SQLInputValue } from 'node:sqlite';
import { claimCount, type OutboxItem, type OutboxPart } from '../../core/ports.ts';
import type { SqliteContext } from './context.ts';
import { checkpoint, current, readBack } from './database.ts';
import { enqueue } from './schema.ts';
import { prepared, row } from './transactions.ts';

/** The store's outbox operations. */
export function sqliteOutbox({ db, clock, lead }: SqliteContext): OutboxPart {
  return {
    async outboxPush(id, payload) {
      await lead(() => enqueue(db.durable, id, payload, clock()));
      // Acknowledged only once another connection reads it back from the file as it is now.
      if (!readBack(current(db), 'SELECT 1 FROM outbox WHERE id = ?', id))
        throw new Error(`the outbox entry ${id} was committed but cannot be read back`);
      // Leads are few: each is copied into the main file at once, so a damaged WAL cannot take it.
      checkpoint(db);
    },
    async outboxClaim(max, leaseSeconds) {
      const now = clock();
      return lead(() => {
        const ids = prepared(
          db.durable,
          'SELECT id FROM outbox WHERE lease_until <= ? ORDER BY queue_order LIMIT ?',
        ).all(now, claimCount(max)) as { id: string }[];
        const lease = prepared(
          db.durable,
          `UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?
           RETURNING id, payload, attempts, queued_at`,
        );
        return ids.map((r) => {
          const leased = lease.get(now + leaseSeconds * 1000, r.id) as Record<string, SQLInputValue>;
          return {
            id: String(leased.id),
            payload: String(leased.payload),
            attempts: Number(leased.attempts),
            queuedAt: Number(leased.queued_at),
          } satisfies OutboxItem;
        });
      });
    },
    async outboxAck(id) {
      await lead(() => prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id));
    },
    async outboxRetry(id, error, delayMs = 0) {
      // The backoff is a lease nobody holds: no flusher claims the entry before it ends.
      const free = delayMs > 0 ? clock() + delayMs : 0;
      await lead(() =>
        prepared(
          db.durable,
          `UPDATE outbox SET lease_until = ?, last_error = ?, queue_order = (SELECT max(queue_order) + 1 FROM outbox)
           WHERE id = ?`,
        ).run(free, error.slice(0, 500), id),
      );
    },
    async outboxRelease(id) {
      // Its queue_order is kept: still among the oldest.
      await lead(() =>
        prepared(db.durable, 'UPDATE outbox SET lease_until = 0, attempts = max(attempts - 1, 0) WHERE id = ?').run(id),
      );
    },
    async outboxQuarantine(id, reason) {
      await lead(() => {
        const held = row(db.durable, 'SELECT payload FROM outbox WHERE id = ?', id);
        if (!held) return;
        prepared(db.durable, 'INSERT INTO quarantine (id, payload, reason, at) VALUES (?, ?, ?, ?)').run(
          id,
          String(held.payload),
          reason,
          clock(),
        );
        prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id);
      });
    },
    outboxSize: async () => Number(row(db.durable, 'SELECT count(*) AS n FROM outbox')!.n),
    quarantineSize: async () => Number(row(db.durable, 'SELECT count(*) AS n FROM quarantine')!.n),
  };
}
