/** @module The embedded database's tables, the columns later versions added, and the insert that queues a lead. */
import type { DatabaseSync } from 'node:sqlite';
import { prepared, transaction } from './transactions.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rate_window (policy TEXT, client TEXT, idx INTEGER, count INTEGER NOT NULL,
  until INTEGER NOT NULL, PRIMARY KEY (policy, client, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rate_log (unit INTEGER PRIMARY KEY AUTOINCREMENT, policy TEXT NOT NULL,
  client TEXT NOT NULL, at INTEGER NOT NULL, until INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS rate_log_client ON rate_log (policy, client, at);
CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, record TEXT NOT NULL, until INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0, queue_order INTEGER NOT NULL, queued_at INTEGER NOT NULL, last_error TEXT);
CREATE INDEX IF NOT EXISTS outbox_order ON outbox (queue_order);
CREATE TABLE IF NOT EXISTS quarantine (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT, payload TEXT NOT NULL,
  reason TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letter (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL, attempts INTEGER NOT NULL, reason TEXT NOT NULL, status INTEGER, answer TEXT,
  queued_at INTEGER NOT NULL, at INTEGER NOT NULL, announced INTEGER NOT NULL DEFAULT 0,
  alerts INTEGER NOT NULL DEFAULT 0, alert_after INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS leads (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL,
  at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS unanswered (key TEXT PRIMARY KEY, text TEXT NOT NULL, count INTEGER NOT NULL,
  last_asked INTEGER NOT NULL, suspect INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS unanswered_rank ON unanswered (count, last_asked);
CREATE TABLE IF NOT EXISTS unanswered_asker (asker TEXT NOT NULL, key TEXT NOT NULL, until INTEGER NOT NULL,
  PRIMARY KEY (asker, key)) WITHOUT ROWID;
`;

/** Creates the tables a file lacks and adds the columns its tables lack, in one transaction. */
export function createTables(db: DatabaseSync): void {
  /**
   * Columns later versions added to a table an earlier version created, each with its default. A dead letter from
   * before alerts were kept is taken as not yet announced: at worst sales hear of it twice, never not at all.
   */
  const addedColumns: [table: string, column: string, definition: string][] = [
    ['dead_letter', 'announced', 'INTEGER NOT NULL DEFAULT 0'],
    ['dead_letter', 'alerts', 'INTEGER NOT NULL DEFAULT 0'],
    ['dead_letter', 'alert_after', 'INTEGER NOT NULL DEFAULT 0'],
    ['unanswered', 'suspect', 'INTEGER NOT NULL DEFAULT 0'],
  ];
  transaction(db, () => {
    db.exec(SCHEMA);
    for (const [table, column, definition] of addedColumns) {
      const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some(
        (c) => c.name === column,
      );
      if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
  });
}

/** Queues an outbox entry at the back of the queue, free at once; an id already queued is left as it is. */
export function enqueue(db: DatabaseSync, id: string, payload: string, now: number): void {
  prepared(
    db,
    `INSERT INTO outbox (id, payload, queue_order, queued_at)
     VALUES (?, ?, (SELECT coalesce(max(queue_order), 0) + 1 FROM outbox), ?) ON CONFLICT (id) DO NOTHING`,
  ).run(id, payload, now);
}
