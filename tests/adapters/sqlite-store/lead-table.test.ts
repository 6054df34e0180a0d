/**
 * The local lead sink and the commands' readers (src/adapters/sqlite-store/lead-table.ts): each lead kept once,
 * in the main file once delivered, refused when the file it was committed to is gone; the lead table and the
 * quarantine read oldest first; a backup that copies leads and outbox, never overwrites, and leaves no handle open.
 */
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  backupDatabase,
  createSqliteSink,
  createSqliteStore,
  readLeads,
  readQuarantine,
} from '../../../src/adapters/sqlite-store/index.ts';
import { dbFile, entry, inMainFile, lockHolder, record, stderrLines } from '../../helpers/sqlite-test.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the local lead sink', () => {
  it('keeps each lead once, oldest first, as it was delivered', async () => {
    const file = dbFile();
    const sink = createSqliteSink(file);
    expect(sink.name).toBe(`local lead table in ${file}`);
    for (const id of ['l1', 'l2', 'l1']) await sink.deliver(record(id));
    expect(readLeads(file).map((r) => r.id)).toEqual(['l1', 'l2']);
    expect(readLeads(file)[0]).toEqual(record('l1'));
  });

  it('a lead delivered is in the main file once delivered', async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    expect(inMainFile(file, 'leads')).toBe(1);
  });

  it('a lead delivered to a file removed while it waited for the lock is refused', async () => {
    const file = dbFile();
    const sink = createSqliteSink(file);
    await sink.deliver(record('first'));
    const lock = lockHolder(file);
    const delivered = sink.deliver(record('lost'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    lock.release();
    stderrLines();
    await expect(delivered).rejects.toThrow(/^the lead lost was committed but cannot be read back$/);
  });
});

describe("the commands' readers", () => {
  it('the quarantine, oldest first, with its reason', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('q', entry('q'));
    await store.outboxClaim(1, 60);
    await store.outboxQuarantine('q', 'unreadable');
    expect(readQuarantine(file)).toEqual([
      { id: 'q', payload: entry('q'), reason: 'unreadable', at: expect.any(Number) },
    ]);
  });
});

describe('the backup', () => {
  it('copies leads and outbox and never overwrites a file', async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    const store = createSqliteStore({ file });
    await store.outboxPush('o1', entry('o1'));
    await store.outboxPush('o2', entry('o2'));
    const target = join(file, '..', 'backup.db');
    expect(backupDatabase(file, target)).toEqual({ leads: 1, outbox: 2 });
    expect(() => backupDatabase(file, target)).toThrow(`${target} exists; the backup never overwrites a file`);
    expect(readLeads(target)).toEqual([record('l1')]);
  });

  it.runIf(existsSync('/proc/self/fd'))('leaves no handle open on the copy', async () => {
    const file = dbFile();
    await createSqliteSink(file).deliver(record('l1'));
    const target = `${file}.backup`;
    expect(backupDatabase(file, target)).toEqual({ leads: 1, outbox: 0 });
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    });
    expect(open.filter((path) => path.startsWith(target))).toEqual([]);
  });
});
