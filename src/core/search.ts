/**
 * @module searchSite: ranked full-text search where every term must appear (as a word or the start of
 * one) in the title, description or body; case- and accent-insensitive; no stemming or fuzzy matching.
 * The MiniSearch index is built at build time and loaded once per instance.
 */
import MiniSearch, { type Options, type SearchResult as MsResult } from 'minisearch';
import type { SearchResponse, SearchResult } from '../contract/schemas.ts';
import type { Content, ContentPage } from './content.ts';

/** Lowercase, accents removed (é -> e, ß -> ss, ﬁ -> fi). */
export function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

/** Words of a text after folding: runs of letters and digits. */
export function terms(s: string): string[] {
  return fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

export const SEARCH_FIELDS = ['title', 'description', 'text'] as const;

export const searchOptions: Options<ContentPage> = {
  idField: 'slug',
  fields: [...SEARCH_FIELDS],
  storeFields: [],
  tokenize: (text) => fold(text).split(/[^\p{L}\p{N}]+/u),
  processTerm: (t) => t || null,
  searchOptions: { prefix: true, fuzzy: false, combineWith: 'AND', boost: { title: 6, description: 2 } },
};

/** Builds the index (at build time). */
export function buildSearchIndex(pages: ContentPage[]): MiniSearch<ContentPage> {
  const ms = new MiniSearch<ContentPage>(searchOptions);
  ms.addAll(pages);
  return ms;
}

export function loadSearchIndex(json: string): MiniSearch<ContentPage> {
  return MiniSearch.loadJSON<ContentPage>(json, searchOptions);
}

/** Folds of the non-ASCII characters seen so far (a page's alphabet is small; `normalize` is not cheap). */
const foldedChars = new Map<string, string>();

/** Folded text with a map from each folded character back to its offset in the original. */
function foldWithMap(s: string): { folded: string; map: number[] | undefined } {
  // Most pages are plain ASCII: folding is lower-casing and offsets do not move.
  if (!/[^\x00-\x7f]/.test(s)) return { folded: s.toLowerCase(), map: undefined };
  const parts: string[] = [];
  const map: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    let f = cp < 0x80 ? ch.toLowerCase() : foldedChars.get(ch);
    if (f === undefined) foldedChars.set(ch, (f = fold(ch)));
    for (let k = 0; k < f.length; k++) map.push(i);
    parts.push(f);
    i += ch.length;
  }
  map.push(s.length);
  return { folded: parts.join(''), map };
}

const isWordChar = (c: string | undefined) => !!c && /[\p{L}\p{N}]/u.test(c);

/** Offset in `text` of the first word that starts with any of `qterms`, or -1. */
export function firstMatch(text: string, qterms: string[]): number {
  // Folding is the costly part, and the first match is usually near the start: fold a window at a time,
  // overlapping by the longest term so a match across a window edge is not missed.
  const overlap = Math.max(...qterms.map((t) => t.length)) + 1;
  const WINDOW = 512;
  for (let start = 0; start < text.length; start += WINDOW) {
    const from = Math.max(0, start - overlap);
    const { folded, map } = foldWithMap(text.slice(from, start + WINDOW));
    let best = -1;
    for (const t of qterms) {
      for (let at = folded.indexOf(t); at >= 0; at = folded.indexOf(t, at + 1)) {
        const before = at > 0 ? folded[at - 1] : from > 0 ? text[from - 1] : undefined;
        if (!isWordChar(before)) {
          if (best < 0 || at < best) best = at;
          break;
        }
      }
    }
    if (best >= 0) return from + (map ? map[best]! : best);
  }
  return -1;
}

/** About `size` characters of plain text around `at`, cut on word boundaries, with ellipses. */
export function snippetAround(text: string, at: number, size = 160): string {
  if (text.length <= size) return text;
  let start = Math.max(0, at - Math.floor(size / 4));
  let end = Math.min(text.length, start + size);
  if (end === text.length) start = Math.max(0, end - size);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < at ? space + 1 : start;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > at ? space : end;
  }
  return `${start > 0 ? '… ' : ''}${text.slice(start, end).trim()}${end < text.length ? ' …' : ''}`;
}

/** True when `words` holds words starting with each of `qterms`, adjacent and in order. */
export function hasPhrase(words: string[], qterms: string[]): boolean {
  outer: for (let i = 0; i + qterms.length <= words.length; i++) {
    for (let k = 0; k < qterms.length; k++) if (!words[i + k]!.startsWith(qterms[k]!)) continue outer;
    return true;
  }
  return false;
}

/**
 * Evergreen pages (product, solutions, pricing and the like) are the answer a visitor wants for a product
 * term; customer stories and dated blog posts rank below them at equal relevance.
 */
export function sectionPrior(slug: string): number {
  if (slug.startsWith('blog/')) return 0.5;
  if (slug.startsWith('customers/')) return 0.7;
  return 1;
}

/** The folded words of a page's title and description, worked out once per loaded page. */
const summaries = new WeakMap<ContentPage, string[][]>();
function summaryTerms(page: ContentPage): string[][] {
  let t = summaries.get(page);
  if (!t) summaries.set(page, (t = [terms(page.title), terms(page.description ?? '')]));
  return t;
}

export interface SearchDeps {
  content: Content;
  index: MiniSearch<ContentPage>;
}

export function searchSite(d: SearchDeps, q: string, limit: number): SearchResponse {
  const qterms = [...new Set(terms(q))];
  if (!qterms.length) return { query: q, count: 0, results: [] };
  const hits: MsResult[] = d.index.search(qterms.join(' '));
  const scored = hits.map((hit) => {
    const page = d.content.bySlug.get(String(hit.id))!;
    // Focus: a page whose title or summary holds the query as a phrase is about it (x3); one whose
    // title or summary holds every term apart is close to it (x2); others merely mention it.
    const summary = summaryTerms(page);
    const focus = summary.some((w) => hasPhrase(w, qterms)) ? 3 : summary.some((w) => qterms.every((t) => w.some((x) => x.startsWith(t)))) ? 2 : 1;
    return { page, score: Math.round(hit.score * 100 * focus * sectionPrior(page.slug)) };
  });
  scored.sort((a, b) => b.score - a.score || (a.page.slug < b.page.slug ? -1 : 1));
  const results: SearchResult[] = scored.slice(0, limit).map(({ page, score }) => {
    const at = firstMatch(page.text, qterms);
    const result: SearchResult = {
      slug: page.slug,
      title: page.title,
      url: page.url,
      snippet: at >= 0 ? snippetAround(page.text, at) : snippetAround(page.description ?? page.text, 0),
      score: Math.max(1, score),
    };
    if (page.markdown_url) result.markdown_url = page.markdown_url;
    return result;
  });
  return { query: q, count: results.length, results };
}
