/**
 * What only the in-process store's unanswered questions decide (tests/adapters/store/questions.test.ts holds what
 * every engine promises): unanswered questions asked equally often in the same second are listed, and
 * trimmed, in key order. The contract does not say which comes first (Upstash lists them the other way);
 * this store's order is pinned so its report and its trimming stay stable from run to run (the flood-shaped
 * questions it trims, src/core/ports.ts `countQuestion`).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/adapters/memory-store/index.ts';

const T = Date.UTC(2026, 10, 23, 10, 0, 0);

describe('the in-process store: ties between unanswered questions', () => {
  it('equal counts asked in the same second are listed in key order, whatever order they came in', async () => {
    const store = createMemoryStore();
    for (const key of ['b', 'c', 'a']) await store.countQuestion(key, key, T + 100);
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['a', 'b', 'c']);
  });

  it('exactly the bound of questions are all kept', async () => {
    const store = createMemoryStore({ questionLimit: 2 });
    for (const key of ['b', 'a']) await store.countQuestion(key, key, T);
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['a', 'b']);
  });

  it('past the bound, of flood-shaped questions of equal counts and times the first key goes', async () => {
    const store = createMemoryStore({ questionLimit: 4 });
    for (const key of ['t1', 't2', 'c', 'b']) await store.countQuestion(key, key, T, 'busy');
    await store.countQuestion('a', 'a', T, 'visitor');
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['a', 'c', 't1', 't2']);
  });
});
