/**
 * @module searchSite: ranked full-text search. The query goes through the same analyzer as the pages
 * (src/core/search/analyze.ts: folding, stop words, AU/US spelling, Porter2 stemming) and every content word
 * must occur in the page in some word form (or, for an abbreviation on the synonym list, its long form).
 * Ranking is BM25F over title, headings, description and body (src/core/search/compact-index.ts), then, over
 * the best candidates: a boost for titles that hold the query (more for the whole query, in order), evergreen
 * pages above dated posts at equal relevance, and a listing page (the blog or customers index) never above the
 * pages it lists unless its own title is what was asked for. Snippets show the passage holding the most query
 * words. The same function answers the API, the MCP tool and the site's /search page.
 */
import type { SearchResponse, SearchResult } from '../../contract/schemas.ts';
import type { ContentPage } from '../content.ts';
import type { ContentSource, PageEntry } from '../content-source.ts';
import { analyze, fold, isStopWord, termOf, words, type SynonymEntry } from './analyze.ts';
import { buildIndex, SearchIndex, type Postings, type SerializedIndex } from './compact-index.ts';
import type { PageKind } from '../../contract/content.ts';
import { isUnder, leafOf } from '../../contract/slugs.ts';

export { fold, analyze } from './analyze.ts';
export { SearchIndex } from './compact-index.ts';

/** Builds the index (at build time); `synonyms` is the lexicon's (content/data/lexicon.json). */
export function buildSearchIndex(pages: ContentPage[], synonyms: SynonymEntry[] = []): SerializedIndex {
  return buildIndex(pages, synonyms);
}

export function loadSearchIndex(json: string): SearchIndex {
  return new SearchIndex(JSON.parse(json) as SerializedIndex);
}

const NON_ASCII = /[^\x00-\x7f]/gu;

/** Folds of the non-ASCII characters seen so far (a page's alphabet is small; `normalize` is not cheap). */
const foldedChars = new Map<string, string>();

/** Folded text with a map from each folded character back to its offset in the original. */
function foldWithMap(s: string): { folded: string; map: number[] | undefined } {
  // Usually every non-ASCII character folds to one of the same length (é -> e, ³ -> 3), and plain ASCII
  // is only lower-cased: offsets stay put, one pass.
  let same = true;
  const lower = s.toLowerCase();
  const quick = lower.replace(NON_ASCII, (ch) => {
    let f = foldedChars.get(ch);
    if (f === undefined) foldedChars.set(ch, (f = fold(ch)));
    if (f.length !== ch.length) same = false;
    return f;
  });
  if (same && lower.length === s.length) return { folded: quick, map: undefined };
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

const WORD = /[\p{L}\p{N}]/u;
/** A letter or digit (ASCII fast path; the regex only for other characters). */
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const x = c.charCodeAt(0);
  if (x < 128) return (x >= 97 && x <= 122) || (x >= 48 && x <= 57) || (x >= 65 && x <= 90);
  return WORD.test(c);
}

/** Where a word may start for a term: its stem (less a final letter: "stori" for "story"), US spellings too. */
function surfacePrefixes(term: string): string[] {
  // The stem's last letter may not be the word's ("citi" is "city"): longer stems and short ones ending in the
  // stemmer's i (for a y) are looked for without it.
  const base = term.length > 4 || (term.length > 2 && term.endsWith('i')) ? term.slice(0, -1) : term;
  const out = new Set([base]);
  out.add(base.replace(/is/g, 'iz')).add(base.replace(/our/g, 'or')).add(base.replace(/tr$/, 'ter'));
  out.add(base.replace(/enc/g, 'ens'));
  return [...out];
}

/**
 * The folded first `limit` characters of a text (cut at a space). Not cached on purpose: a short-lived copy
 * dies young and costs the garbage collector nothing, while a cache of page copies would be moved and
 * promoted on every minor collection (measured: the cache made the p99 worse).
 */
function foldedPrefix(text: string, limit: number): { folded: string; map: number[] | undefined } {
  const cut = text.length <= limit ? text.length : Math.max(text.lastIndexOf(' ', limit), 0) || limit;
  return foldWithMap(cut === text.length ? text : text.slice(0, cut));
}

/** Offsets (in `text`) of the words whose index term is in a group, with the group's index; sorted. */
export function matchOffsets(text: string, groups: string[][], limit = text.length): { at: number; group: number }[] {
  const { folded, map } = foldedPrefix(text, limit);
  const out: { at: number; group: number }[] = [];
  groups.forEach((terms, group) => {
    const wanted = new Set(terms);
    const seen = new Set<number>();
    for (const term of terms) {
      for (const prefix of surfacePrefixes(term)) {
        for (let at = folded.indexOf(prefix); at >= 0; at = folded.indexOf(prefix, at + 1)) {
          if (seen.has(at) || isWordChar(folded[at - 1])) continue;
          let end = at + prefix.length;
          while (end < folded.length && isWordChar(folded[end])) end++;
          const word = folded.slice(at, end);
          if (!isStopWord(word) && wanted.has(termOf(word))) {
            seen.add(at);
            out.push({ at: map ? map[at]! : at, group });
          }
        }
      }
    }
  });
  return out.sort((a, b) => a.at - b.at);
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

/** How far into a page the snippet looks, in growing steps (a passage with every query word ends the search). */
const SNIPPET_SCAN = [2048, 16384, 65536];

/**
 * The snippet: the ~160-character passage holding the most distinct query words (the earliest such passage),
 * starting a little before its first match. A match is always a content word, never a stop word. Long pages
 * are read from the start in growing steps, up to 64 KiB, and the search stops at a passage holding every word.
 */
export function bestSnippet(text: string, groups: string[][], size = 160): string | undefined {
  let found: { at: number; count: number } | undefined;
  for (const limit of SNIPPET_SCAN) {
    found = bestPassage(matchOffsets(text, groups, limit), size * 0.7);
    if (text.length <= limit || (found && found.count === groups.length)) break;
  }
  return found ? snippetAround(text, found.at, size) : undefined;
}

/** The start of the earliest window of `width` characters holding the most distinct groups. */
function bestPassage(hits: { at: number; group: number }[], width: number): { at: number; count: number } | undefined {
  if (!hits.length) return undefined;
  let best = 0;
  let bestCount = 0;
  const counts = new Map<number, number>();
  let distinct = 0;
  for (let lo = 0, hi = 0; lo < hits.length; lo++) {
    while (hi < hits.length && hits[hi]!.at - hits[lo]!.at < width) {
      const g = hits[hi++]!.group;
      const c = counts.get(g) ?? 0;
      if (!c) distinct++;
      counts.set(g, c + 1);
    }
    if (distinct > bestCount) {
      bestCount = distinct;
      best = lo;
    }
    const g = hits[lo]!.group;
    const c = counts.get(g)! - 1;
    counts.set(g, c);
    if (!c) distinct--;
  }
  return { at: hits[best]!.at, count: bestCount };
}

/**
 * What search reads of the content: the entries (titles, urls, descriptions of the pages it answers with, and
 * every title for a stop-word-only query) and the plain text of the pages it cuts snippets from. A
 * ContentSource: content-files.ts reads these from their own files, contentFromData from a loaded content.json.
 */
export type SearchContent = Pick<ContentSource, 'entries' | 'entry' | 'snippetText'>;

export interface SearchDeps {
  content: SearchContent;
  index: SearchIndex;
}

/** A result's fields from a page's entry (the snippet apart). */
function resultOf(page: PageEntry, snippet: string, score: number): SearchResult {
  const r: SearchResult = { slug: page.slug, title: page.title, url: page.url, snippet, score };
  if (page.markdown_url) r.markdown_url = page.markdown_url;
  return r;
}

/** The snippet when no passage holds a query word: the start of the description, else of the text. */
const leadSnippet = (d: SearchDeps, page: PageEntry) =>
  snippetAround(page.description ?? d.content.snippetText(page.slug) ?? '', 0);

/** One content word of the query: the term and the phrases (synonyms) that may stand for it. */
interface Clause {
  term: string;
  alternatives: string[][];
}

/** The query's content words, in order, each with its synonym phrases. */
export function queryClauses(index: SearchIndex, q: string): Clause[] {
  const seen = new Set<string>();
  const out: Clause[] = [];
  for (const term of analyze(q)) {
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ term, alternatives: [[term], ...(index.synonyms.get(term) ?? [])] });
  }
  return out;
}

/** Reusable buffers for the intersections of one query (two, used in turn), so a query allocates little. */
const scratch = [0, 1].map(() => ({ docs: new Int32Array(1024), scores: new Float32Array(1024) }));
function scratchOf(i: number, n: number): Postings {
  const s = scratch[i]!;
  if (s.docs.length < n) {
    s.docs = new Int32Array(n);
    s.scores = new Float32Array(n);
  }
  return s;
}

/** Pages holding both lists' pages, scores summed (into `into` when given, else new arrays). */
function intersect(a: Postings, b: Postings, into?: Postings): Postings {
  const n = Math.min(a.docs.length, b.docs.length);
  const docs = into ? into.docs : new Int32Array(n);
  const scores = into ? into.scores : new Float32Array(n);
  let k = 0;
  for (let i = 0, j = 0; i < a.docs.length && j < b.docs.length; ) {
    const x = a.docs[i]!;
    const y = b.docs[j]!;
    if (x === y) {
      docs[k] = x;
      scores[k++] = a.scores[i++]! + b.scores[j++]!;
    } else if (x < y) i++;
    else j++;
  }
  return { docs: docs.subarray(0, k), scores: scores.subarray(0, k) };
}

/** Pages holding either list's pages, the better score kept. */
function unionMax(a: Postings, b: Postings): Postings {
  const docs = new Int32Array(a.docs.length + b.docs.length);
  const scores = new Float32Array(docs.length);
  let k = 0;
  let i = 0;
  let j = 0;
  while (i < a.docs.length || j < b.docs.length) {
    const x = i < a.docs.length ? a.docs[i]! : Infinity;
    const y = j < b.docs.length ? b.docs[j]! : Infinity;
    if (x === y) {
      docs[k] = x;
      scores[k++] = Math.max(a.scores[i++]!, b.scores[j++]!);
    } else if (x < y) {
      docs[k] = x;
      scores[k++] = a.scores[i++]!;
    } else {
      docs[k] = y;
      scores[k++] = b.scores[j++]!;
    }
  }
  return { docs: docs.subarray(0, k), scores: scores.subarray(0, k) };
}

/** The pages matching a clause (its term, or one of its synonym phrases in full), with their scores. */
function clausePostings(index: SearchIndex, clause: Clause): Postings | undefined {
  let out: Postings | undefined;
  for (const phrase of clause.alternatives) {
    let p: Postings | undefined;
    for (const t of phrase) {
      const id = index.termId(t);
      if (id === undefined) {
        p = undefined;
        break;
      }
      p = p ? intersect(p, index.postings(id)) : index.postings(id);
    }
    if (p) out = out ? unionMax(out, p) : p;
  }
  return out;
}

/** True when `seq` holds `part` as consecutive items. */
function holdsRun(seq: string[], part: string[]): boolean {
  outer: for (let i = 0; i + part.length <= seq.length; i++) {
    for (let k = 0; k < part.length; k++) if (seq[i + k] !== part[k]) continue outer;
    return true;
  }
  return false;
}

/** Slugs of the listing pages (kind `listing`): each lists the pages in the folder its slug names ("blog/..."). */
const listingCache = new WeakMap<SearchIndex, Set<string>>();
function listingSlugs(index: SearchIndex): Set<string> {
  let s = listingCache.get(index);
  if (!s) listingCache.set(index, (s = new Set(index.slugs.filter((_, doc) => index.kinds[doc] === 'listing'))));
  return s;
}

/** Dated pages (blog posts) rank below evergreen ones at equal relevance. */
export function sectionPrior(kind: PageKind): number {
  return kind === 'post' ? 0.85 : 1;
}

/** Boosts for query words in a page's title, in its title or description, and for the query as a phrase there. */
const TITLE_BOOST = 0.5;
const SUMMARY_BOOST = 0.5;
const PHRASE_BOOST = 1.3;

/** The analyzed last segment of each page's slug ("customers", "self-storage"), worked out on first use. */
const slugTermCache = new WeakMap<SearchIndex, string[][]>();
function slugTermsOf(index: SearchIndex, doc: number): string[] {
  let all = slugTermCache.get(index);
  if (!all) slugTermCache.set(index, (all = []));
  let t = all[doc];
  if (!t) all[doc] = t = analyze(leafOf(index.slugs[doc]!));
  return t;
}

/** Each page's section prior, worked out once per loaded index. */
const priorCache = new WeakMap<SearchIndex, Float32Array>();
function priorsOf(index: SearchIndex): Float32Array {
  let p = priorCache.get(index);
  if (!p) priorCache.set(index, (p = Float32Array.from(index.kinds, sectionPrior)));
  return p;
}

/** How many of the best BM25F candidates the title boosts and the listing rule look at. */
const CANDIDATES = 50;

interface Ranked {
  doc: number;
  score: number;
}

/** The best `k` of the matches by score (a bounded min-heap: no full sort of thousands of matches). */
function topK(p: Postings, prior: Float32Array, k: number): Ranked[] {
  const heap: Ranked[] = [];
  const less = (a: Ranked, b: Ranked) => a.score < b.score || (a.score === b.score && a.doc > b.doc);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < p.docs.length; i++) {
    const doc = p.docs[i]!;
    const score = p.scores[i]! * prior[doc]!;
    if (heap.length === k && (score < heap[0]!.score || (score === heap[0]!.score && doc > heap[0]!.doc))) continue;
    const item = { doc, score };
    if (heap.length < k) {
      heap.push(item);
      for (let c = heap.length - 1; c > 0; ) {
        const parent = (c - 1) >> 1;
        if (!less(heap[c]!, heap[parent]!)) break;
        [heap[c], heap[parent]] = [heap[parent]!, heap[c]!];
        c = parent;
      }
    } else if (less(heap[0]!, item)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

/**
 * Ranked pages for the clauses: every clause must match. Returns doc ids and (unrounded) scores, best first.
 * Exported for callers that rank partial matches (see rankPartial).
 */
export function rankPages(index: SearchIndex, clauses: Clause[], limit: number): Ranked[] {
  if (!clauses.length) return [];
  const lists: Postings[] = [];
  for (const c of clauses) {
    const p = clausePostings(index, c);
    if (!p?.docs.length) return [];
    lists.push(p);
  }
  lists.sort((a, b) => a.docs.length - b.docs.length);
  let all = lists[0]!;
  for (let i = 1; i < lists.length && all.docs.length; i++) {
    const n = Math.min(all.docs.length, lists[i]!.docs.length);
    all = intersect(all, lists[i]!, scratchOf(i % 2, n));
  }
  if (!all.docs.length) return [];
  const candidates = topK(all, priorsOf(index), Math.max(CANDIDATES, limit));
  const queryTerms = clauses.map((c) => c.term);
  for (const r of candidates) {
    const title = index.title(r.doc);
    const description = index.description(r.doc);
    let inTitle = 0;
    let inSummary = 0;
    for (const c of clauses) {
      if (c.alternatives.some((alt) => alt.every((t) => title.includes(t)))) inTitle++;
      else if (c.alternatives.some((alt) => alt.every((t) => description.includes(t)))) inSummary++;
    }
    inSummary += inTitle;
    let boost = 1 + (TITLE_BOOST * inTitle + SUMMARY_BOOST * inSummary) / clauses.length;
    if (clauses.length > 1 && (holdsRun(title, queryTerms) || holdsRun(description, queryTerms))) boost *= PHRASE_BOOST;
    // The title is the query (navigation: "pricing", "customer stories"), or the page's own address is.
    if (inTitle === clauses.length && title.length && title.every((t) => queryTerms.includes(t))) boost *= 1.5;
    const leaf = slugTermsOf(index, r.doc);
    if (leaf.length === queryTerms.length && leaf.every((t) => queryTerms.includes(t))) boost *= 1.5;
    r.score *= boost;
  }
  candidates.sort((a, b) => b.score - a.score || a.doc - b.doc);
  // A listing page whose title is not the query goes below every page of its own that matched.
  const listings = listingSlugs(index);
  for (const slug of listings) {
    const at = candidates.findIndex((r) => index.slugs[r.doc] === slug);
    if (at < 0) continue;
    const title = index.title(candidates[at]!.doc);
    if (clauses.every((c) => title.includes(c.term))) continue;
    let last = -1;
    candidates.forEach((r, i) => {
      if (isUnder(index.slugs[r.doc]!, slug)) last = i;
    });
    if (last > at) {
      const [listing] = candidates.splice(at, 1);
      listing!.score = Math.min(listing!.score, candidates[last - 1]!.score);
      candidates.splice(last, 0, listing!);
    }
  }
  return candidates.slice(0, limit);
}

/** Every page's title words (with stop words), worked out once per loaded content. */
const titleWords = new WeakMap<SearchContent, string[][]>();

/**
 * A query made of stop words only ("about", "how to"): the index holds no stop words, so the pages whose title
 * holds every word are the answer (shortest title first), or none.
 */
function titleOnly(d: SearchDeps, q: string, limit: number): SearchResponse {
  const wanted = [...new Set(words(q))];
  const hits: { page: PageEntry; size: number }[] = [];
  if (wanted.length) {
    const entries = d.content.entries();
    let titles = titleWords.get(d.content);
    if (!titles) titleWords.set(d.content, (titles = entries.map((p) => words(p.title.replace(/\s+\|\s+[^|]+$/, '')))));
    entries.forEach((page, i) => {
      const title = titles[i]!;
      if (wanted.every((w) => title.includes(w))) hits.push({ page, size: title.length });
    });
  }
  hits.sort((a, b) => a.size - b.size || (a.page.slug < b.page.slug ? -1 : 1));
  const results = hits
    .slice(0, limit)
    .map(({ page, size }) =>
      resultOf(page, leadSnippet(d, page), Math.max(1, Math.round((100 * wanted.length) / size))),
    );
  return { query: q, count: results.length, results };
}

export function searchSite(d: SearchDeps, q: string, limit: number): SearchResponse {
  const { index } = d;
  const clauses = queryClauses(index, q);
  if (!clauses.length) return titleOnly(d, q, limit);
  const ranked = rankPages(index, clauses, limit);
  const groups = clauses.map((c) => [...new Set(c.alternatives.flat())]);
  let previous = Infinity;
  const results: SearchResult[] = [];
  for (const { doc, score } of ranked) {
    const page = d.content.entry(d.index.slugs[doc]!);
    if (!page) continue;
    const points = Math.max(1, Math.min(previous, Math.round(score * 100)));
    previous = points;
    const text = d.content.snippetText(page.slug) ?? '';
    results.push(resultOf(page, bestSnippet(text, groups) ?? leadSnippet(d, page), points));
  }
  return { query: q, count: results.length, results };
}

/** A partial-match answer: results holding some of the query's words, and which words were matched. */
export interface PartialSearchResponse extends SearchResponse {
  /** Each result with the query's content words (as typed) that its page holds. */
  results: (SearchResult & { matched: string[] })[];
  /** The query's content words (as typed) that some result holds. */
  matched: string[];
  /** The query's content words no page holds. */
  missing: string[];
}

/**
 * Ranked partial matches, for a long question that strict matching answers with nothing (the MCP search tool
 * offers these, saying so): pages are ranked by how many of the query's content words they hold, then by
 * BM25F over those words; a word no page holds is left out (and reported in `missing`). Never used by the
 * API, whose contract requires every term.
 */
export function searchPartial(d: SearchDeps, q: string, limit: number): PartialSearchResponse {
  const typed = new Map<string, string>();
  for (const w of words(q)) if (!isStopWord(w) && !typed.has(termOf(w))) typed.set(termOf(w), w);
  const { index } = d;
  const clauses = queryClauses(index, q);
  const lists: { clause: Clause; postings: Postings }[] = [];
  const missing: string[] = [];
  for (const clause of clauses) {
    const p = clausePostings(index, clause);
    if (p?.docs.length) lists.push({ clause, postings: p });
    else missing.push(typed.get(clause.term) ?? clause.term);
  }
  const sum = new Map<number, { score: number; held: number; mask: Set<number> }>();
  lists.forEach(({ postings }, i) => {
    for (let k = 0; k < postings.docs.length; k++) {
      const doc = postings.docs[k]!;
      let e = sum.get(doc);
      if (!e) sum.set(doc, (e = { score: 0, held: 0, mask: new Set() }));
      e.score += postings.scores[k]!;
      e.held++;
      e.mask.add(i);
    }
  });
  const ranked = [...sum]
    .map(([doc, e]) => {
      const score = e.score * sectionPrior(index.kinds[doc]!) * (e.held / Math.max(1, lists.length)) ** 2;
      return { doc, e, score };
    })
    .sort((a, b) => b.e.held - a.e.held || b.score - a.score || a.doc - b.doc)
    .slice(0, limit);
  const groups = lists.map(({ clause }) => [...new Set(clause.alternatives.flat())]);
  const matchedIdx = new Set<number>();
  let previous = Infinity;
  const results: PartialSearchResponse['results'] = [];
  const typedOf = (i: number) => typed.get(lists[i]!.clause.term) ?? lists[i]!.clause.term;
  for (const { doc, e, score } of ranked) {
    const page = d.content.entry(d.index.slugs[doc]!);
    if (!page) continue;
    for (const i of e.mask) matchedIdx.add(i);
    const points = Math.max(1, Math.min(previous, Math.round(score * 100)));
    previous = points;
    const text = d.content.snippetText(page.slug) ?? '';
    const snippet = bestSnippet(text, groups) ?? leadSnippet(d, page);
    results.push({ ...resultOf(page, snippet, points), matched: [...e.mask].sort((a, b) => a - b).map(typedOf) });
  }
  const matched = lists
    .map((_, i) => i)
    .filter((i) => matchedIdx.has(i))
    .map(typedOf);
  return { query: q, count: results.length, results, matched, missing };
}
