/**
 * What the search index's tests share: a small page, a word's BM25F score on a page computed from the pages' term
 * counts (independently of the index), the ranking of a query.
 */
import type { PageKind } from '../../src/contract/content.ts';
import type { ContentPage } from '../../src/core/content.ts';
import { analyze, termOf } from '../../src/core/search/analyze.ts';
import {
  bareTitle,
  FIELDS,
  headingsOf,
  type IndexablePage,
  K1,
  MIN_IDF,
  type SearchIndex,
} from '../../src/core/search/compact-index.ts';
import { queryClauses, rankPages } from '../../src/core/search/engine.ts';

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

/**
 * BM25F written out from its definition over `pages` (in index order): for each field, the term's count
 * weighted and divided by the field's length normalisation, summed (tf~); the saturation tf~ / (K1 + tf~) kept
 * as one of 63 levels (at least 1); times the term's idf, floored at MIN_IDF and kept to three decimals; in
 * single precision. `score(word, doc)` is 0 for a page without the word.
 */
export function bm25fScorer(pages: readonly IndexablePage[]): (word: string, doc: number) => number {
  const names = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
  const fields = pages.map((p) =>
    [bareTitle(p.title), headingsOf(p.markdown), p.description ?? '', p.text].map(analyze),
  );
  const n = pages.length;
  const avg = names.map((_, f) => Math.max(1, fields.reduce((s, d) => s + d[f]!.length, 0) / Math.max(1, n)));
  const count = (doc: number, f: number, term: string) => fields[doc]![f]!.filter((t) => t === term).length;
  return (word, doc) => {
    const term = termOf(word);
    const holders = fields.filter((d) => d.some((terms) => terms.includes(term))).length;
    let tf = 0;
    names.forEach((name, f) => {
      const { weight, b } = FIELDS[name];
      tf += (weight * count(doc, f, term)) / (1 - b + (b * fields[doc]![f]!.length) / avg[f]!);
    });
    if (tf === 0) return 0;
    const idf = Math.round(1000 * Math.max(MIN_IDF, Math.log(1 + (n - holders + 0.5) / (holders + 0.5)))) / 1000;
    const level = Math.max(1, Math.min(63, Math.round((63 * tf) / (K1 + tf))));
    return Math.fround((idf * level) / 63);
  };
}

/** The best `limit` pages for query `q`, as the engine ranks them before its boosts are read out. */
export const ranked = (index: SearchIndex, q: string, limit: number) => rankPages(index, queryClauses(index, q), limit);
