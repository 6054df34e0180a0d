/**
 * The embedded database file's health (src/adapters/sqlite-store/health.ts): the check before it opens (its answer,
 * its connection closed, its wait for another process's lock), a damaged file moved aside with its WAL for a fresh
 * one, a file locked past the wait left alone, and the store's error lines on stderr.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { checkDatabase, StoreLockedError } from '../../../src/adapters/sqlite-store/health.ts';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import {
  damaged,
  dbFile,
  entry,
  freshModule,
  heldElsewhere,
  onTheSide,
  stderrLines,
  T,
} from '../../helpers/sqlite-test.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the database check', () => {
  it('a missing file is sound and is not created by the check', () => {
    const file = dbFile();
    expect(checkDatabase(file)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('a sound file passes; a file that is not a database is named as such', async () => {
    const file = dbFile();
    await createSqliteStore({ file }).outboxPush('a', entry('a'));
    expect(checkDatabase(file)).toBeUndefined();
    const junk = join(file, '..', 'junk.db');
    writeFileSync(junk, 'x'.repeat(4096));
    expect(checkDatabase(junk)).toMatch(/not a database/);
  });

  it('a file with one problem is named by that problem', () => {
    const file = dbFile();
    damaged(file, 'q', 1);
    expect(checkDatabase(file)).toBe('NULL value in q.x');
  });

  it('a file with many problems is named by its first five, joined by "; "', () => {
    const file = dbFile();
    damaged(file, 'q', 7);
    expect(checkDatabase(file)).toBe(Array(5).fill('NULL value in q.x').join('; '));
  });

  it('closes its connection: a sound WAL file keeps no -wal or -shm beside it', () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(checkDatabase(file)).toBeUndefined();
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
  });

  it("waits for another process's exclusive lock and finds the file sound once it is released", async () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    const other = heldElsewhere(file, 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
    other.waitNow();
    expect(checkDatabase(file)).toBeUndefined();
    await other.exited;
  });
});

describe('a file locked past the wait', () => {
  it('is reported locked, never as damaged, and is left where it is', async () => {
    const file = dbFile();
    onTheSide(file, (db) => db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)'));
    const other = heldElsewhere(
      file,
      'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)',
      400,
    );
    other.waitNow();
    expect(() => checkDatabase(file, 50)).toThrow(StoreLockedError);
    expect(existsSync(file)).toBe(true);
    await other.exited;
    expect(checkDatabase(file, 50)).toBeUndefined();
  });

  it('is reported by name, with the wait and what to do, for a person to read', () => {
    const file = dbFile();
    const other = new DatabaseSync(file);
    other.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)');
    other.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
    let thrown: unknown;
    try {
      checkDatabase(file, 5);
    } catch (e) {
      thrown = e;
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    expect(thrown).toBeInstanceOf(StoreLockedError);
    expect((thrown as Error).name).toBe('StoreLockedError');
    const message = (thrown as Error).message;
    expect(message).toContain(`${file} stayed locked by another process for 5 ms`);
    expect(message).toContain('not moved aside');
    expect(message).toMatch(/Stop the other process .*KARTAGE_VAR_DIR/);
  });
});

describe('a damaged file', () => {
  it('is moved aside under its name and the time, logged, and a fresh database serves', async () => {
    const file = dbFile();
    writeFileSync(file, 'x'.repeat(4096));
    const lines = stderrLines();
    const store = createSqliteStore({ file });
    vi.restoreAllMocks();
    const dir = join(file, '..');
    const aside = readdirSync(dir).filter((f) => f.startsWith('kartage.db.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(/^kartage\.db\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        event: 'store_corrupt_moved_aside',
        file,
        movedTo: join(dir, aside[0]!),
        problem: expect.stringMatching(/not a database/),
        note: 'the embedded database failed its check; a fresh one was created and the old one kept for recovery',
      },
    ]);
    await store.outboxPush('a', entry('a'));
    expect(await store.outboxSize()).toBe(1);
  });

  it('takes its -wal and -shm with it while another process still has it open', () => {
    const file = dbFile();
    damaged(file, 'q', 1);
    const other = new DatabaseSync(file, { defensive: false });
    other.exec('CREATE TABLE w (x); INSERT INTO w VALUES (1)'); // committed to the WAL the other one keeps
    const wal = readFileSync(`${file}-wal`);
    stderrLines();
    createSqliteStore({ file });
    vi.restoreAllMocks();
    const dir = join(file, '..');
    const aside = readdirSync(dir).filter((f) => /^kartage\.db\.corrupt-[\dTZ-]+$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, `${aside[0]}-wal`))).toEqual(wal);
    expect(existsSync(join(dir, `${aside[0]}-shm`))).toBe(true);
    other.close();
  });

  it('is logged with the first 500 characters of a long problem', () => {
    const file = dbFile();
    const name = 't'.repeat(120);
    damaged(file, name, 6);
    const lines = stderrLines();
    createSqliteStore({ file });
    vi.restoreAllMocks();
    const problem = Array(5).fill(`NULL value in ${name}.x`).join('; ');
    expect(problem.length).toBeGreaterThan(500);
    expect(lines.map((l) => l.problem)).toEqual([problem.slice(0, 500)]);
  });
});

describe('the error line', () => {
  it('is one JSON line on stderr: the time, level error, the event and its fields', async () => {
    const { m, done } = await freshModule();
    const file = dbFile();
    const store = m.createSqliteStore({ file });
    m.openDatabase(file).fast.close(); // the read back then fails
    const chunks: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    await expect(store.outboxPush('x', entry('x'))).rejects.toThrow(/cannot be read back/);
    vi.restoreAllMocks();
    done();
    expect(chunks).toEqual([
      `${JSON.stringify({
        time: '2026-11-23T10:00:00.000Z',
        level: 'error',
        event: 'store_read_back_failed',
        file,
        id: 'x',
        error: 'database is not open',
      })}\n`,
    ]);
  });
});
