/**
 * The embedded store's rate limits (src/adapters/sqlite-store/rate-limits.ts) beyond the `Store` port's suite: the
 * read-budget hits of one turn of the event loop share one transaction, and a result marked refused is never
 * refunded, whatever unit it names.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/adapters/sqlite-store/database.ts';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import type { LimitPolicy } from '../../../src/core/ports.ts';
import { dbFile, read, T } from '../../helpers/sqlite-test.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the read budget', () => {
  it('the hits of one turn of the event loop share one transaction', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.hit(read, 'c', T); // the first sweep done
    const { fast } = openDatabase(file);
    const begin = DatabaseSync.prototype.exec;
    let begins = 0;
    vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
      if (this === fast && sql === 'BEGIN IMMEDIATE') begins++;
      return begin.call(this, sql);
    });
    const results = await Promise.all([store.hit(read, 'a', T + 1000), store.hit(read, 'b', T + 1000)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(results.map((r) => r.allowed)).toEqual([true, true]);
    expect(begins).toBe(1);
  });
});

describe('the lead budget', () => {
  it('a result marked refused is never refunded, whatever unit it names', async () => {
    const lead: LimitPolicy = { name: 'lead', limit: 1, windowSeconds: 3600, algorithm: 'sliding-log' };
    const store = createSqliteStore({ file: dbFile() });
    const spent = await store.hit(lead, 'c', T);
    expect(spent).toMatchObject({ allowed: true, unit: expect.any(String) });
    await store.refund(lead, 'c', { ...spent, allowed: false });
    expect((await store.hit(lead, 'c', T + 1)).allowed).toBe(false);
  });
});
