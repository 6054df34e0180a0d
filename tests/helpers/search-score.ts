/** What the search index's tests share: a word's stored score on a page, and the ranking of a query. */
import { queryClauses, rankPages } from '../../src/core/search.ts';
import type { SearchIndex } from '../../src/core/search/compact-index.ts';
import { termOf } from '../../src/core/search/analyze.ts';

/** A page's BM25F score for one word (0 when it does not hold it), as the index stores it. */
export function wordScore(index: SearchIndex, word: string, doc: number): number {
  const id = index.termId(termOf(word));
  if (id === undefined) return 0;
  const p = index.postings(id);
  const i = p.docs.indexOf(doc);
  return i < 0 ? 0 : p.scores[i]!;
}

export const ranked = (index: SearchIndex, q: string, limit: number) => rankPages(index, queryClauses(index, q), limit);
