/** @module The database file's health: checked before it opens, moved aside when damaged, left alone when locked. */
import { DatabaseSync } from 'node:sqlite';
import { existsSync, renameSync } from 'node:fs';
import { errorText } from '../../core/error-text.ts';
import { isBusy, LEAD_WAIT_MS } from './transactions.ts';

/** A log line on stderr (the embedded store is opened before, and apart from, the request log). */
export const logLine = (event: string, fields: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', event, ...fields })}\n`);

/** What is wrong with an existing database file (`PRAGMA quick_check`, or the error opening it), or undefined. */
export function checkDatabase(file: string, waitMs = LEAD_WAIT_MS): string | undefined {
  if (!existsSync(file)) return undefined;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { timeout: waitMs });
    const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    const result = rows.map((r) => String(r.quick_check));
    return result.length === 1 && result[0] === 'ok' ? undefined : result.slice(0, 5).join('; ');
  } catch (e) {
    // Locked past the wait is not damaged: a live database full of leads is never moved aside for being busy.
    if (isBusy(e)) throw new StoreLockedError(file, waitMs);
    return errorText(e);
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a connection to a broken file may fail too; the file is moved aside next.
    }
  }
}

/** The embedded database is held locked by another process: the server does not start on it, nor replace it. */
export class StoreLockedError extends Error {
  constructor(file: string, waitMs: number) {
    super(
      `The embedded database ${file} stayed locked by another process for ${waitMs} ms; it was left as it is ` +
        '(not moved aside). Stop the other process using it, or set KARTAGE_VAR_DIR to another folder, and start again.',
    );
    this.name = 'StoreLockedError';
  }
}

/** Moves a damaged database and its WAL aside (`kartage.db.corrupt-<time>`, kept for recovery); returns the name. */
export function moveAside(file: string, problem: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  logLine('store_corrupt_moved_aside', {
    file,
    movedTo: aside,
    problem: problem.slice(0, 500),
    note: 'the embedded database failed its check; a fresh one was created and the old one kept for recovery',
  });
  return aside;
}
