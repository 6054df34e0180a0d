/**
 * @module Search for the MCP tool: the REST engine (core `searchSite`, every content word required) first;
 * when that finds nothing for a query of several content words, core `searchPartial` (same analyzer, same
 * index: the pages holding most of the words), so an agent that asked a long question is never left with
 * nothing to read. Each partial result says which words it matched.
 */
import { searchPartial, searchSite, type SearchDeps } from '../core/search/engine.ts';
import type { SearchResult } from '../contract/schemas.ts';

export type McpSearchResult = {
  query: string;
  count: number;
  match: 'all' | 'partial';
  results: (SearchResult & { matched?: string[] })[];
};

export function searchWithFallback(d: SearchDeps, query: string, limit: number): McpSearchResult {
  const strict = searchSite(d, query, limit);
  if (strict.count) return { ...strict, match: 'all' };
  const partial = searchPartial(d, query, limit);
  // One content word that no page holds is a plain "nothing"; partial matches need two words, one found.
  if (partial.matched.length + partial.missing.length < 2 || !partial.count) return { ...strict, match: 'all' };
  // Pages that hold more than one word when any does; otherwise the best single-word matches.
  const best = partial.results[0]!.matched.length;
  const results = partial.results.filter((r) => best < 2 || r.matched.length >= 2);
  return { query: strict.query, count: results.length, match: 'partial', results };
}
