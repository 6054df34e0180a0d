/**
 * @module What an operation reads of the published content, one method per need, so that each function
 * loads only its part: listPages the entries (no bodies), getPage and batch the pages
 * asked for, search its index and the snippet text of the pages it answers with, the edge step the
 * entries and the static paths. `contentFromData` serves it from one loaded `content.json` (tests, small
 * sites); the file-backed source reads the build's split data files.
 */
import type { PageKind } from '../contract/content.ts';
import type { Page, PageSummary } from '../contract/schemas.ts';
import { markdownTokens, markdownTwin } from './markdown-doc.ts';
import { toPage, type ContentData, type ContentPage } from './content.ts';
import type { SearchIndex } from './search/compact-index.ts';
import type { AskIndex } from './ask/index.ts';
import { askIndexOf } from './ask-indexer/assemble.ts';

/**
 * What an operation reads of the content: every entry (listPages), one entry by slug (the edge step's
 * headers), whole pages by slug (getPage, batch, the MCP page tool), search (index, snippet text, the
 * results' entries), the static paths (the edge step's real 404s). Operations declare theirs, and each
 * Vercel function ships only those data files (src/adapters/content-files.ts `DATA_FILES`).
 */
export type ContentNeed = 'entries' | 'entry' | 'pages' | 'search' | 'ask' | 'files';

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
  /**
   * One page (the contract's Page: metadata and markdown body), or undefined; reads that page only. Its plain
   * text is not part of it (no page operation answers with it; search reads it through `snippetText`), so the
   * page data a function carries holds no second copy of every body.
   */
  page(slug: string): Page | undefined;
  /** The search index. */
  searchIndex(): SearchIndex;
  /** The assistant's section index (src/core/ask/index.ts). */
  askIndex(): AskIndex;
  /** The plain text search cuts a page's snippet from, or undefined. */
  snippetText(slug: string): string | undefined;
  /** Whether the site publishes a static file at this public path (outside `/_astro/` and `/pagefind/`). */
  hasFile(path: string): boolean;
}

/** A page's entry from the whole page. */
export function entryOf({ text: _t, markdown, ...entry }: ContentPage): PageEntry {
  return { ...entry, tokens: markdownTokens(markdownTwin({ ...entry, markdown })) };
}

/**
 * A content source over data already in memory; `index` loads the search index on first use, `ask` the
 * assistant's (default: built from the pages' markdown, without the rendered anchors).
 */
export function contentFromData(
  data: ContentData,
  index: () => SearchIndex,
  ask: () => AskIndex = () => askIndexOf(data.pages),
): ContentSource {
  const bySlug = new Map(data.pages.map((p) => [p.slug, p]));
  const files = new Set(data.files);
  let entries: PageEntry[] | undefined;
  let entryBySlug: Map<string, PageEntry> | undefined;
  let loaded: SearchIndex | undefined;
  let askLoaded: AskIndex | undefined;
  const all = () => (entries ??= data.pages.map(entryOf));
  return {
    origin: data.origin,
    builtAt: data.builtAt,
    entries: all,
    entry: (slug) => (entryBySlug ??= new Map(all().map((e) => [e.slug, e]))).get(slug),
    page: (slug) => {
      const p = bySlug.get(slug);
      return p && toPage(p);
    },
    searchIndex: () => (loaded ??= index()),
    askIndex: () => (askLoaded ??= ask()),
    snippetText: (slug) => bySlug.get(slug)?.text,
    hasFile: (path) => files.has(path),
  };
}
