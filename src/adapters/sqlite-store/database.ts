/** @module The embedded database: one SQLite file in WAL mode, opened once per process through two connections. */
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorText } from '../../core/error-text.ts';
import { checkDatabase, logLine, moveAside } from './health.ts';
import { importLegacyOutbox } from './legacy-outbox.ts';
import { createTables } from './schema.ts';
import { BUSY_MS, LEAD_WAIT_MS, prepared } from './transactions.ts';

/** An open database file and its two connections. */
export interface Database {
  file: string;
  /** Idempotency, lead budget, outbox, leads: synchronous=FULL, committed means on disk before the answer. */
  durable: DatabaseSync;
  /** The read budget and the unanswered questions: synchronous=NORMAL, they survive a crash, not a power cut. */
  fast: DatabaseSync;
  /** The file's device and inode when opened: a file replaced or deleted under the server is noticed. */
  identity: string | undefined;
}

const open = new Map<string, Database>();

/** How often committed pages are copied from the WAL into the main file (also on exit). */
const CHECKPOINT_EVERY_MS = 10_000;

/** WAL, so the server and the `leads:*` commands read and write the file at once. */
function connect(file: string, synchronous: 'FULL' | 'NORMAL'): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: BUSY_MS });
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous};`);
  return db;
}

function identityOf(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** Opens (once per process and file) the database, checked, creating its tables; imports a legacy outbox file. */
export function openDatabase(file: string): Database {
  let db = open.get(file);
  if (db) return db;
  mkdirSync(dirname(file), { recursive: true });
  const problem = checkDatabase(file);
  if (problem) moveAside(file, problem);
  const durable = connect(file, 'FULL');
  durable.exec(`PRAGMA busy_timeout = ${LEAD_WAIT_MS}`);
  createTables(durable);
  db = { file, durable, fast: connect(file, 'NORMAL'), identity: identityOf(file) };
  importLegacyOutbox(file, durable);
  durable.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  open.set(file, db);
  watchDatabases();
  return db;
}

/** Copies committed pages from the WAL into the main file (PASSIVE: never waits for a lock); false if it could not. */
export function checkpoint(db: Database, mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE'): boolean {
  try {
    db.durable.exec(`PRAGMA wal_checkpoint(${mode})`);
    return true;
  } catch {
    return false;
  }
}

/** Closes every open database, checkpointed, so the main file alone holds every committed lead. */
export function closeDatabases(): void {
  for (const db of open.values()) {
    checkpoint(db, 'TRUNCATE');
    for (const c of [db.fast, db.durable]) {
      try {
        c.close();
      } catch {
        // Already closed.
      }
    }
  }
  open.clear();
}

let watching = false;
/** A checkpoint on a timer (not keeping the process alive) and a last one, with the files closed, on exit. */
function watchDatabases() {
  if (watching) return;
  watching = true;
  setInterval(() => {
    for (const db of open.values()) checkpoint(db);
  }, CHECKPOINT_EVERY_MS).unref();
  process.once('exit', closeDatabases);
}

/** `db` if still the file at its path, else reopened in place (writes would go where nobody reads again). */
export function current(db: Database): Database {
  if (identityOf(db.file) === db.identity) return db;
  logLine('store_file_changed', { file: db.file, note: 'the database file was replaced or removed; reopening it' });
  for (const c of [db.fast, db.durable]) {
    try {
      c.close();
    } catch {
      // Closing the old file's connections is best effort.
    }
  }
  open.delete(db.file);
  const fresh = openDatabase(db.file);
  Object.assign(db, fresh);
  open.set(db.file, db);
  return db;
}

/** Whether a committed row reads back through the other connection (not the writer's cache), from the file now. */
export function readBack(db: Database, sql: string, id: string): boolean {
  try {
    return prepared(db.fast, sql).get(id) !== undefined;
  } catch (e) {
    logLine('store_read_back_failed', { file: db.file, id, error: errorText(e) });
    return false;
  }
}

/** `fn` on the durable connection waiting long for a lock: for commands, which serve no requests while they wait. */
export function patiently<T>(file: string, fn: (durable: DatabaseSync) => T): T {
  const { durable } = openDatabase(file);
  durable.exec(`PRAGMA busy_timeout = ${LEAD_WAIT_MS}`);
  try {
    return fn(durable);
  } finally {
    durable.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  }
}
