/**
 * @module The published content as the functions see it: every page (contract Page) plus its plain text,
 * loaded once per instance from the file the build step writes.
 */
import type { PageKind } from '../contract/content.ts';
import type { Page, PageSummary } from '../contract/schemas.ts';

/** The files the build writes for the functions (in DATA_DIR, src/config.ts). */
export const CONTENT_FILE = 'content.json';
export const SEARCH_FILE = 'search-index.json';

export interface ContentPage extends Page {
  /** Plain text of the body, for search and snippets. */
  text: string;
  /** What the page is (its front matter's `kind`; `post` for a blog post): internal, never in an answer. */
  kind: PageKind;
}

export interface ContentData {
  origin: string;
  builtAt: string;
  /** Sorted by slug, ascending byte order. */
  pages: ContentPage[];
  /** Public paths of the static files outside `/_astro/` and `/pagefind/` (for real 404s). */
  files: string[];
}

/** The contract's Page (drops internal fields). */
export function toPage({ text: _text, kind: _kind, ...page }: ContentPage): Page {
  return page;
}

/** The contract's PageSummary. */
export function toSummary({ text: _t, markdown: _m, kind: _k, ...summary }: ContentPage): PageSummary {
  return summary;
}
