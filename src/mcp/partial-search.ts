/**
 * @module Search for the MCP tool: the REST engine (core `searchSite`, every term required) first; when
 * that finds nothing for a query of several words, the pages holding most of its content words, ranked
 * by how many they hold and then by the engine's own score, so an agent that asked a long question is
 * never left with nothing to read. Each partial result says which words it matched.
 */
import { searchSite, type SearchDeps } from '../core/search.ts';
import type { SearchResult } from '../contract/schemas.ts';

/** Words a question carries that say nothing about the content. */
const STOP = new Set(
  (
    'a an and are as at be by can could do does for from have how i if in into is it its me my of on or ' +
    'our should so that the their there these this to us was we what when where which who why will with ' +
    'would you your about any get use using need want'
  ).split(' '),
);

/** The query's content words: lower case, letters and digits, no stop words, no repeats. */
export function contentWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((w) => w.length > 1 && !STOP.has(w)))];
}

export type McpSearchResult = {
  query: string;
  count: number;
  match: 'all' | 'partial';
  results: (SearchResult & { matched?: string[] })[];
};

export function searchWithFallback(d: SearchDeps, query: string, limit: number): McpSearchResult {
  const strict = searchSite(d, query, limit);
  if (strict.count) return { ...strict, match: 'all' };
  const words = contentWords(query);
  if (words.length < 2) return { ...strict, match: 'all' };
  // Each word alone through the same engine; a page's rank is how many words it holds, then its scores.
  const byPage = new Map<string, { result: SearchResult; matched: string[]; score: number }>();
  for (const word of words) {
    for (const r of searchSite(d, word, 50).results) {
      const seen = byPage.get(r.slug);
      if (seen) {
        seen.matched.push(word);
        seen.score += r.score;
      } else byPage.set(r.slug, { result: r, matched: [word], score: r.score });
    }
  }
  const ranked = [...byPage.values()].sort(
    (a, b) => b.matched.length - a.matched.length || b.score - a.score || (a.result.slug < b.result.slug ? -1 : 1),
  );
  // Pages that hold more than one word when any does; otherwise the best single-word matches.
  const best = ranked[0]?.matched.length ?? 0;
  const kept = ranked.filter((x) => best < 2 || x.matched.length >= 2).slice(0, limit);
  const results = kept.map(({ result, matched, score }) => ({ ...result, score, matched }));
  return { query: strict.query, count: results.length, match: 'partial', results };
}
