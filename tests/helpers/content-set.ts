/**
 * A small hand-made site for tests that need content but not the real build, so they pass on a fresh clone:
 * a folder laid out as the project root after a build, with `build/` holding `content.json` and the search
 * index (what `loadContent` reads from a folder without the split data files) and `dist/` holding each page's
 * HTML, markdown twin and page JSON, as the derive step names them (`startServer({ root })` serves it).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PageKind } from '../../src/contract/content.ts';
import {
  htmlFileOfSlug,
  pageJsonPathOfSlug,
  twinPathOfSlug,
  twinUrlOfSlug,
  urlOfSlug,
} from '../../src/contract/slugs.ts';
import { CONTENT_FILE, SEARCH_FILE, toPage, type ContentData, type ContentPage } from '../../src/core/content.ts';
import { markdownTwin } from '../../src/core/markdown-doc.ts';
import { buildSearchIndex } from '../../src/core/search/engine.ts';

/** The origin a local build is made for (the real build's, without SITE_URL). */
export const SITE_ORIGIN = 'http://localhost:4321';

/** A page of the set: its markdown body, with the plain text search reads taken from it. */
export function sitePage(slug: string, title: string, markdown: string, kind: PageKind = 'page'): ContentPage {
  return {
    slug,
    title: `${title} | Kartage`,
    description: `${title} at Kartage.`,
    url: urlOfSlug(SITE_ORIGIN, slug),
    markdown_url: twinUrlOfSlug(SITE_ORIGIN, slug),
    updated: '2026-10-01',
    markdown,
    text: markdown.replace(/^#+ /gm, '').replace(/\n+/g, ' ').trim(),
    kind,
  };
}

/** The default pages: a home, the pricing page the middleware tests ask for, a product page and a post. */
export const SITE_PAGES: ContentPage[] = [
  sitePage('index', 'Software for moving companies', '# Kartage\n\nQuoting, scheduling and invoicing.\n', 'home'),
  sitePage('pricing', 'Pricing', '# Pricing\n\nFour plans, priced monthly in AUD excluding GST.\n', 'pricing'),
  sitePage('product/storage', 'Storage billing', '# Storage billing\n\nRun storage billing for every vault.\n'),
  sitePage('blog/getting-paid', 'Getting paid', '# Getting paid\n\nDeposits and storage billing explained.\n', 'post'),
];

export interface ContentSet {
  /** The folder to pass as `startServer`'s `root`. */
  root: string;
  /** `root/build`: pass as `createDeps`'s `dataDir`. */
  dataDir: string;
  /** `root/dist`: the static files. */
  distDir: string;
  data: ContentData;
}

/** A minimal page document, enough for a static file server to serve as the page. */
const html = (p: ContentPage) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${p.title}</title>` +
  `<link rel="canonical" href="${p.url}"></head><body><main><h1>${p.title}</h1></main></body></html>\n`;

/** Writes the set into a new temporary folder (inside the test file's own, removed when the file ends). */
export function writeContentSet(pages: ContentPage[] = SITE_PAGES): ContentSet {
  const root = mkdtempSync(join(tmpdir(), 'content-set-'));
  const dataDir = join(root, 'build');
  const distDir = join(root, 'dist');
  const sorted = [...pages].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const files = new Map<string, string>();
  for (const p of sorted) {
    files.set(`/${htmlFileOfSlug(p.slug)}`, html(p));
    files.set(twinPathOfSlug(p.slug), markdownTwin(p));
    files.set(pageJsonPathOfSlug(p.slug), JSON.stringify(toPage(p)));
  }
  for (const [path, body] of files) {
    mkdirSync(dirname(join(distDir, path)), { recursive: true });
    writeFileSync(join(distDir, path), body);
  }
  const data: ContentData = {
    origin: SITE_ORIGIN,
    builtAt: '2026-11-01T00:00:00.000Z',
    pages: sorted,
    files: [...files.keys()].sort(),
  };
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, CONTENT_FILE), JSON.stringify(data));
  writeFileSync(join(dataDir, SEARCH_FILE), JSON.stringify(buildSearchIndex(sorted)));
  return { root, dataDir, distDir, data };
}
