/**
 * The embedded store's unanswered questions (src/adapters/sqlite-store/questions.ts) beyond the `Store` port's
 * suite: a question counted again never trims the list, even past a bound lowered since the file was written.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { QUESTION_STALE_MS } from '../../../src/core/unanswered/index.ts';
import { dbFile, T } from '../../helpers/sqlite-test.ts';

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
