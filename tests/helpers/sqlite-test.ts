/**
 * What the embedded store's tests share: a read budget, a fixed clock, lead records and outbox entries, a fresh
 * database file, its stderr lines, a write lock held from another connection or another thread, a second
 * connection's view of the file (and of its main file alone), a damaged file, and a fresh copy of the store's
 * modules.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { expect, vi } from 'vitest';
import type { LeadRecord, LimitPolicy } from '../../src/core/ports.ts';

export const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
/** The tests' now: 2026-11-23 10:00 UTC. */
export const T = Date.UTC(2026, 10, 23, 10, 0, 0);
/** A lead record with the fields the store reads. */
export const record = (id: string) =>
  ({ id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@x.au' } }) as unknown as LeadRecord;
/** An outbox entry as the sink writes it. */
export const entry = (id: string) => JSON.stringify({ record: record(id) });

/** A database file in a fresh folder (not created). */
export const dbFile = () => join(mkdtempSync(join(tmpdir(), 'kartage-sqlite-')), 'kartage.db');

/** The store's error lines (it writes them to stderr, apart from the request log). */
export function stderrLines() {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
  return lines;
}

/** Holds the file's write lock from another connection (another process would do the same). */
export function lockHolder(file: string) {
  const other = new DatabaseSync(file);
  other.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      other.exec('COMMIT');
      other.close();
    },
  };
}

/** Runs `fn` on a second connection to the file and closes it. */
export function onTheSide<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { defensive: false });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The rows of `table`, read on a second connection. */
export const rows = (file: string, table: string) =>
  onTheSide(file, (db) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n));

/** Rows of `table` in the main file alone (a copy without its WAL): what a checkpoint has put there. */
export function inMainFile(file: string, table: string) {
  const copy = `${file}.main-only`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(file, copy);
  return onTheSide(copy, (db) => {
    if (!db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(table)) return 0;
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  });
}

/** A database whose table `name` breaks its NOT NULL column in `nulls` rows: PRAGMA quick_check names each. */
export function damaged(file: string, name: string, nulls: number) {
  onTheSide(file, (db) => {
    db.exec(`PRAGMA journal_mode = WAL; CREATE TABLE "${name}" (x)`);
    for (let i = 0; i < nulls; i++) db.exec(`INSERT INTO "${name}" VALUES (NULL)`);
    db.exec('PRAGMA writable_schema = ON');
    db.prepare('UPDATE sqlite_schema SET sql = ? WHERE name = ?').run(`CREATE TABLE "${name}" (x NOT NULL)`, name);
    db.exec('PRAGMA writable_schema = OFF');
  });
}

const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const { workerData: { flag, file, sql, holdMs } } = require('node:worker_threads');
const db = new DatabaseSync(file);
db.exec(sql);
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);
Atomics.wait(flag, 0, 1);
Atomics.wait(flag, 0, 2, holdMs);
db.exec('COMMIT');
db.close();
`;

/**
 * Another thread (as another process would) runs `sql` on the file and keeps its lock until `holdMs` after
 * `waitNow()`: the caller calls it just before the blocking call that has to wait for that lock.
 */
export function heldElsewhere(file: string, sql: string, holdMs = 100) {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HOLDER, { eval: true, workerData: { flag, file, sql, holdMs } });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  Atomics.wait(flag, 0, 0, 5_000);
  expect(flag[0]).toBe(1);
  return {
    waitNow: () => {
      Atomics.store(flag, 0, 2);
      Atomics.notify(flag, 0);
    },
    exited,
  };
}

/**
 * A fresh copy of the store's modules (their open files, checkpoint timer, exit handler and module-level helpers
 * built again); `done` closes its files and removes its exit handler.
 */
export async function freshModule() {
  vi.resetModules();
  const m = {
    ...(await import('../../src/adapters/sqlite-store/index.ts')),
    ...(await import('../../src/adapters/sqlite-store/database.ts')),
  };
  const done = () => {
    m.closeDatabases();
    process.removeListener('exit', m.closeDatabases);
  };
  return { m, done };
}
