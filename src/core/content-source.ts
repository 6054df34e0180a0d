/**
 * @module What an operation reads of the published content, one method per need, so that each function
 * loads only its part (issue 14 part 3): listPages the entries (no bodies), getPage and batch the pages
 * asked for, search its index and the snippet text of the pages it answers with, the edge step the
 * entries and the static paths. `contentFromData` serves it from one loaded `content.json` (tests, small
 * sites); the file-backed source reads the build's split data files.
 */
import type { PageKind } from '../contract/content.ts';
import type { PageSummary } from '../contract/schemas.ts';
import { markdownTokens, markdownTwin } from './markdown-doc.ts';
import type { ContentData, ContentPage } from './content.ts';
import type { SearchIndex } from './search.ts';

/**
 * The parts of the content an operation reads: `entries` (no bodies), `pages` (one page at a time),
 * `search` (the index and snippet text), `files` (the static paths, for real 404s). Operations declare
 * theirs, and each Vercel function ships only those data files.
 */
export type ContentNeed = 'entries' | 'pages' | 'search' | 'files';

/** A page without its body: the contract's summary plus what routing and headers need. */
export interface PageEntry extends PageSummary {
  /** Token estimate of the page's markdown twin (`x-markdown-tokens`). */
  tokens: number;
  /** What the page is (from its front matter); internal, never in an API answer. */
  kind: PageKind;
}

export interface ContentSource {
  readonly origin: string;
  readonly builtAt: string;
  /** Every page's entry, sorted by slug (ascending byte order). */
  entries(): readonly PageEntry[];
  /** One slug's entry, or undefined. */
  entry(slug: string): PageEntry | undefined;
  /** One page with its body and plain text, or undefined; reads that page only. */
  page(slug: string): ContentPage | undefined;
  /** The search index. */
  searchIndex(): SearchIndex;
  /** The plain text search cuts a page's snippet from, or undefined. */
  snippetText(slug: string): string | undefined;
  /** Whether the site publishes a static file at this public path (outside `/_astro/` and `/pagefind/`). */
  hasFile(path: string): boolean;
}

/** A page's entry from the whole page. */
export function entryOf({ text: _t, markdown, ...entry }: ContentPage): PageEntry {
  return { ...entry, tokens: markdownTokens(markdownTwin({ ...entry, markdown })) };
}

/** A content source over data already in memory; `index` loads the search index on first use. */
export function contentFromData(data: ContentData, index: () => SearchIndex): ContentSource {
  const bySlug = new Map(data.pages.map((p) => [p.slug, p]));
  const files = new Set(data.files);
  let entries: PageEntry[] | undefined;
  let entryBySlug: Map<string, PageEntry> | undefined;
  let loaded: SearchIndex | undefined;
  const all = () => (entries ??= data.pages.map(entryOf));
  return {
    origin: data.origin,
    builtAt: data.builtAt,
    entries: all,
    entry: (slug) => (entryBySlug ??= new Map(all().map((e) => [e.slug, e]))).get(slug),
    page: (slug) => bySlug.get(slug),
    searchIndex: () => (loaded ??= index()),
    snippetText: (slug) => bySlug.get(slug)?.text,
    hasFile: (path) => files.has(path),
  };
}
