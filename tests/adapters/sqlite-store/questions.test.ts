/**
 * The embedded store's unanswered questions (src/adapters/sqlite-store/questions.ts) beyond the `Store` port's
 * suite: a question counted again never trims the list, even past a bound lowered since the file was written;
 * an asker's name leaves the file once its day has ended.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { QUESTION_STALE_MS } from '../../../src/core/unanswered/index.ts';
import { dbFile, onTheSide, T } from '../../helpers/sqlite-test.ts';

/** Whether any cell of any table of the file holds `text`. */
const fileHolds = (file: string, text: string) =>
  onTheSide(file, (db) =>
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).some(({ name }) =>
      JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all()).includes(text),
    ),
  );

describe('the bound, lowered since', () => {
  it('a question counted again never trims the list; a new one trims it to the bound', async () => {
    const file = dbFile();
    const before = createSqliteStore({ file, questionLimit: 5 });
    for (let i = 1; i <= 5; i++) await before.countQuestion(`q${i}`, `Q${i}`, T + i * 1000);
    const after = createSqliteStore({ file, questionLimit: 3 });
    await after.countQuestion('q1', 'Q1', T + 10_000);
    expect(await after.topQuestions(10)).toHaveLength(5);
    // A month on, every question is stale: the new one makes room by trimming the list to the lowered bound.
    await after.countQuestion('q6', 'Q6', T + 11_000 + QUESTION_STALE_MS);
    expect((await after.topQuestions(10)).map((q) => q.text)).toEqual(['Q1', 'Q6', 'Q5']);
  });
});

describe("an asker's name", () => {
  it('is in the file while its day lasts, and gone after the first asking a minute or more past its end', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    const midnight = Date.UTC(2026, 10, 24);
    await store.countQuestion('q', 'q', midnight - 60_000, 'asker-one');
    await store.countQuestion('r', 'r', midnight - 1, 'asker-two');
    expect(fileHolds(file, 'asker-one')).toBe(true);
    await store.countQuestion('r', 'r', midnight, 'asker-two');
    expect(fileHolds(file, 'asker-one')).toBe(false);
    expect(fileHolds(file, 'asker-two')).toBe(true);
  });
});
