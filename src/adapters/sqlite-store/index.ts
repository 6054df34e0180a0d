/**
 * @module The embedded store, the local default: the rate limits, idempotency records, lead outbox and dead
 * letters, and unanswered questions of `Store` in one SQLite file in KARTAGE_VAR_DIR (database.ts), each change
 * one transaction; with the local lead sink and the commands' readers of the same file (lead-table.ts).
 */
import { UNANSWERED_LIMIT } from '../../core/ask/unanswered.ts';
import type { Store } from '../../core/ports.ts';
import { contextOf } from './context.ts';
import { openDatabase } from './database.ts';
import { sqliteDeadLetters } from './dead-letters.ts';
import { sweeper } from './housekeeping.ts';
import { sqliteIdempotency } from './idempotency.ts';
import { sqliteOutbox } from './outbox.ts';
import { sqliteQuestions } from './questions.ts';
import { sqliteRateLimits } from './rate-limits.ts';

export { DB_FILE } from './database.ts';
export { backupDatabase, createSqliteSink, readLeads, readQuarantine } from './lead-table.ts';

export interface SqliteStoreOptions {
  /** The database file (default `<KARTAGE_VAR_DIR>/kartage.db`, chosen by deps.ts). */
  file: string;
  /** Clock for expiry of idempotency records and outbox leases. @default Date.now */
  now?: () => number;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT */
  questionLimit?: number;
}

/** The embedded store over `opts.file`, opened once per process, checked, its tables created. */
export function createSqliteStore(opts: SqliteStoreOptions): Store {
  const db = openDatabase(opts.file);
  const context = contextOf(db, opts.now ?? (() => Date.now()));
  return {
    ...sqliteRateLimits(context, sweeper(db)),
    ...sqliteIdempotency(context),
    ...sqliteOutbox(context),
    ...sqliteDeadLetters(context),
    ...sqliteQuestions(context, opts.questionLimit ?? UNANSWERED_LIMIT),
    describe: () => `embedded store (SQLite ${opts.file})`,
  };
}
