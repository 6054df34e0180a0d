/**
 * The embedded database's tables (src/adapters/sqlite-store/schema.ts): a file an earlier version created gains the
 * columns added since, with their defaults: its dead letters not yet announced, its questions a visitor's.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { dbFile, entry, T } from '../../helpers/sqlite-test.ts';

describe('a file of an earlier version', () => {
  it('gains the alert columns, its dead letters not yet announced, their alerts counted from none', async () => {
    const file = dbFile();
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE dead_letter (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
      payload TEXT NOT NULL, attempts INTEGER NOT NULL, reason TEXT NOT NULL, status INTEGER, answer TEXT,
      queued_at INTEGER NOT NULL, at INTEGER NOT NULL)`);
    old
      .prepare('INSERT INTO dead_letter (id, payload, attempts, reason, queued_at, at) VALUES (?, ?, 1, ?, 1, 2)')
      .run('old', entry('old'), 'refused');
    old.close();
    const store = createSqliteStore({ file });
    expect(await store.deadLetters()).toMatchObject([{ id: 'old', announced: false, alerts: 0 }]);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => [l.id, l.alerts])).toEqual([['old', 1]]);
    await store.deadLetterAnnounced('old');
    expect(await store.deadLetters()).toMatchObject([{ id: 'old', announced: true, alerts: 1 }]);
  });

  it('gains the flood-shaped column, its questions taken as a visitor’s', async () => {
    const file = dbFile();
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE unanswered (key TEXT PRIMARY KEY, text TEXT NOT NULL, count INTEGER NOT NULL,
      last_asked INTEGER NOT NULL) WITHOUT ROWID`);
    db.prepare('INSERT INTO unanswered VALUES (?, ?, 2, ?)').run('kept', 'kept', T - 1000);
    db.close();
    const store = createSqliteStore({ file, questionLimit: 1 });
    await store.countQuestion('new', 'new', T, 'visitor');
    expect(await store.topQuestions(5)).toEqual([{ text: 'kept', count: 2, lastAsked: T - 1000 }]);
  });
});
