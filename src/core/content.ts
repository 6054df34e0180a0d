/**
 * @module The published content as the functions see it: every page (contract Page) plus its plain text,
 * loaded once per instance from the file the build step writes.
 */
import type { PageKind } from '../contract/content.ts';
import type { Page, PageSummary } from '../contract/schemas.ts';
import { entryOf, type ContentSource, type PageEntry } from './content-source.ts';

/** Folder (relative to the project root) and file the build writes for the functions. */
export const DATA_DIR = 'build';
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

/**
 * Fast lookups over the loaded content. It also answers the entry and snippet-text reads of a ContentSource,
 * so search (which takes those) runs over it as over the file-backed source.
 */
export interface Content extends Pick<ContentSource, 'entries' | 'entry' | 'snippetText'> {
  data: ContentData;
  bySlug: Map<string, ContentPage>;
  staticFiles: Set<string>;
}

export function indexContent(data: ContentData): Content {
  const bySlug = new Map(data.pages.map((p) => [p.slug, p]));
  let entries: PageEntry[] | undefined;
  // One entry is worked out when first asked for (search asks for the few it answers with), not all of them.
  const entryBySlug = new Map<string, PageEntry>();
  const entry = (slug: string) => {
    let e = entryBySlug.get(slug);
    if (!e) {
      const page = bySlug.get(slug);
      if (page) entryBySlug.set(slug, (e = entryOf(page)));
    }
    return e;
  };
  return {
    data,
    bySlug,
    staticFiles: new Set(data.files),
    entries: () => (entries ??= data.pages.map((p) => entry(p.slug)!)),
    entry,
    snippetText: (slug) => bySlug.get(slug)?.text,
  };
}

/** The contract's Page (drops internal fields). */
export function toPage({ text: _text, kind: _kind, ...page }: ContentPage): Page {
  return page;
}

/** The contract's PageSummary. */
export function toSummary({ text: _t, markdown: _m, kind: _k, ...summary }: ContentPage): PageSummary {
  return summary;
}
