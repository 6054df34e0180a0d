/**
 * The embedded store's outbox (src/adapters/sqlite-store/outbox.ts) beyond the `Store` port's suite: an entry in
 * the main file once acknowledged, refused when the file it was committed to is gone, freed at once by a retry
 * without a delay whatever the flusher's clock, and its last error kept for a person reading the file.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { dbFile, entry, inMainFile, lockHolder, onTheSide, stderrLines, T } from '../../helpers/sqlite-test.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a pushed entry', () => {
  it('is in the main file once it is acknowledged', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    expect(inMainFile(file, 'outbox')).toBe(1);
  });

  it('committed to a file removed while it waited for the lock, is refused', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    const lock = lockHolder(file);
    const pushed = store.outboxPush('lost', entry('lost'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    lock.release();
    stderrLines();
    await expect(pushed).rejects.toThrow(/^the outbox entry lost was committed but cannot be read back$/);
  });
});

describe('a retry', () => {
  it('without a delay frees the entry at once, even for a flusher whose clock is behind', async () => {
    let now = T;
    const store = createSqliteStore({ file: dbFile(), now: () => now });
    await store.outboxPush('x', entry('x'));
    await store.outboxClaim(1, 60);
    now = T + 1000;
    await store.outboxRetry('x', 'CRM down');
    now = T + 500;
    expect((await store.outboxClaim(1, 60)).map((i) => i.id)).toEqual(['x']);
  });

  it('keeps the first 500 characters of the last error, for a person reading the file', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.outboxRetry('x', `${'e'.repeat(500)}-cut`, 1000);
    expect(onTheSide(file, (db) => db.prepare('SELECT last_error FROM outbox').get())).toEqual({
      last_error: 'e'.repeat(500),
    });
  });
});
