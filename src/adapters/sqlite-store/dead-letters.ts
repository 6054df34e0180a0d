/** @module The embedded store's dead letters: leads the CRM would not take, with their alerts to sales. */
import type { SQLInputValue } from 'node:sqlite';
import { claimCount, type DeadLetter, type DeadLetterPart } from '../../core/ports.ts';
import type { SqliteContext } from './context.ts';
import { checkpoint } from './database.ts';
import { enqueue } from './schema.ts';
import { prepared, row } from './transactions.ts';

/** A `dead_letter` row as the port's `DeadLetter`. */
function letterOf(r: Record<string, SQLInputValue>): DeadLetter {
  return {
    id: String(r.id),
    payload: String(r.payload),
    attempts: Number(r.attempts),
    reason: String(r.reason),
    ...(r.status !== null ? { status: Number(r.status) } : {}),
    ...(r.answer !== null ? { answer: String(r.answer) } : {}),
    queuedAt: Number(r.queued_at),
    at: Number(r.at),
    announced: Number(r.announced) === 1,
    alerts: Number(r.alerts),
  };
}

/** The store's dead-letter operations. */
export function sqliteDeadLetters({ db, clock, lead }: SqliteContext): DeadLetterPart {
  /** The columns a dead letter is read from. */
  const letterColumns = 'id, payload, attempts, reason, status, answer, queued_at, at, announced, alerts';
  return {
    async outboxDeadLetter(id, why) {
      const at = clock();
      const moved = await lead(() => {
        const held = row(db.durable, 'SELECT payload, attempts, queued_at FROM outbox WHERE id = ?', id);
        if (!held) return false;
        prepared(
          db.durable,
          `INSERT OR REPLACE INTO dead_letter (id, payload, attempts, reason, status, answer, queued_at, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          String(held.payload),
          Number(held.attempts),
          why.reason.slice(0, 1000),
          why.status ?? null,
          why.answer?.slice(0, 500) ?? null,
          Number(held.queued_at),
          at,
        );
        prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id);
        return true;
      });
      // A dead letter holds a lead like the outbox: copied into the main file at once.
      if (moved) checkpoint(db);
      return moved;
    },
    async deadLetters() {
      const rows = prepared(db.durable, `SELECT ${letterColumns} FROM dead_letter ORDER BY n`).all();
      return rows.map(letterOf);
    },
    async deadLetterAlertClaim(max, leaseSeconds) {
      const now = clock();
      return lead(() =>
        prepared(
          db.durable,
          `UPDATE dead_letter SET alerts = alerts + 1, alert_after = ? WHERE n IN
           (SELECT n FROM dead_letter WHERE announced = 0 AND alert_after <= ? ORDER BY n LIMIT ?)
           RETURNING n, ${letterColumns}`,
        )
          .all(now + leaseSeconds * 1000, now, claimCount(max))
          .sort((a, b) => Number(a.n) - Number(b.n))
          .map(letterOf),
      );
    },
    async deadLetterAnnounced(id) {
      await lead(() => prepared(db.durable, 'UPDATE dead_letter SET announced = 1 WHERE id = ?').run(id));
    },
    async deadLetterAlertRetry(id, delayMs) {
      const after = clock() + Math.max(0, delayMs);
      await lead(() =>
        prepared(db.durable, 'UPDATE dead_letter SET alert_after = ? WHERE id = ? AND announced = 0').run(after, id),
      );
    },
    deadLetterSize: async () => Number(row(db.durable, 'SELECT count(*) AS n FROM dead_letter')!.n),
    async deadLetterRequeue(id) {
      const now = clock();
      const moved = await lead(() => {
        const held = row(db.durable, 'DELETE FROM dead_letter WHERE id = ? RETURNING payload', id);
        if (!held) return false;
        enqueue(db.durable, id, String(held.payload), now);
        return true;
      });
      if (moved) checkpoint(db);
      return moved;
    },
  };
}
