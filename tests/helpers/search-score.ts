/** What the search index's tests share: a small page, a word's stored score on a page, the ranking of a query. */
import type { PageKind } from '../../src/contract/content.ts';
import type { ContentPage } from '../../src/core/content.ts';
import { queryClauses, rankPages } from '../../src/core/search/engine.ts';
import type { SearchIndex } from '../../src/core/search/compact-index.ts';
import { termOf } from '../../src/core/search/analyze.ts';

export interface PageExtra {
  kind?: PageKind;
  description?: string;
  markdown_url?: string;
}

/** A page titled "<title> | Kartage" whose markdown and plain text are `text`. */
export const searchPage = (slug: string, title: string, text: string, o: PageExtra = {}): ContentPage => ({
  slug,
  title: `${title} | Kartage`,
  url: `https://x.test/${slug}`,
  markdown: text,
  text,
  kind: o.kind ?? 'page',
  ...(o.description ? { description: o.description } : {}),
  ...(o.markdown_url ? { markdown_url: o.markdown_url } : {}),
});

/** A page's BM25F score for one word (0 when it does not hold it), as the index stores it. */
export function wordScore(index: SearchIndex, word: string, doc: number): number {
  const id = index.termId(termOf(word));
  if (id === undefined) return 0;
  const p = index.postings(id);
  const i = p.docs.indexOf(doc);
  return i < 0 ? 0 : p.scores[i]!;
}

export const ranked = (index: SearchIndex, q: string, limit: number) => rankPages(index, queryClauses(index, q), limit);
