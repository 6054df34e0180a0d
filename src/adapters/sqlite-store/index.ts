/** @module The embedded store, the local default: the `Store` port in one SQLite file, and its local lead sink. */
import { UNANSWERED_LIMIT } from '../../core/unanswered/index.ts';
import type { Store } from '../../core/ports.ts';
import { contextOf } from './context.ts';
import { openDatabase } from './database.ts';
import { sqliteDeadLetters } from './dead-letters.ts';
import { sweeper } from './housekeeping.ts';
import { sqliteIdempotency } from './idempotency.ts';
import { sqliteOutbox } from './outbox.ts';
import { sqliteQuestions } from './questions.ts';
import { sqliteRateLimits } from './rate-limits.ts';

export { backupDatabase, createSqliteSink, readLeads, readQuarantine } from './lead-table.ts';

/** Where the embedded store keeps its file, its clock, and how many unanswered questions it keeps. */
export interface SqliteStoreOptions {
  /** The database file (default `<KARTAGE_VAR_DIR>/kartage.db`, chosen by composition-root.ts). */
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
