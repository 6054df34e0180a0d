/**
 * @module Slugs and every name made from one: the site path, the canonical URL, the markdown twin, the static
 * file behind getPage's JSON, the built HTML file, a content entry's slug and a slug's folder. The only place
 * these rules live (Starlight's `utils/slugs.ts` is the model); everything else asks here.
 *
 * A slug is the contract's page identifier (SLUG_PATTERN): `index` is the home page (site path `/`), a blog
 * post is `blog/<post>`. Paths given to this module are already percent-decoded (decoding belongs to the
 * request path, src/http/edge.ts `decodePath`); nothing here encodes, since a slug needs no encoding.
 */
import { SLUG_PATTERN } from './schemas.ts';

/** The home page's slug (site path `/`, twin `/index.md`, built file `index.html`). */
export const HOME_SLUG = 'index';

/** Slugs no page may take: `batch` is the batch operation's path under `/api/v1/pages/`. */
export const RESERVED_SLUGS: readonly string[] = ['batch'];

/** Folder of the blog: a post's slug is `blog/<entry id>`, and the blog listing is the page `blog`. */
export const BLOG_FOLDER = 'blog';

/** Public path prefix of the per-page JSON files that answer getPage. */
export const PAGE_JSON_PREFIX = '/api/v1/pages/';

const TWIN_EXT = '.md';
const HTML_EXT = '.html';

/** True when `s` is a slug as the contract writes it (lower-case letters, digits, `-` and `/`). */
export function isSlug(s: string): boolean {
  return SLUG_PATTERN.test(s);
}

/**
 * True when `s` could name a page: a contract slug with no empty segment (no leading, trailing or double `/`).
 * The build refuses a page whose slug is not one.
 */
export function isPageSlug(s: string): boolean {
  return isSlug(s) && !s.startsWith('/') && !s.endsWith('/') && !s.includes('//');
}

/** True for a slug reserved for something other than a page (see RESERVED_SLUGS). */
export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.includes(slug);
}

/**
 * The slug a decoded site path names, or undefined when it names none: `/` -> `index`, `/blog/x` -> `blog/x`.
 * `/index` (the home page's file name, which the static server also answers) gives `index` too; a trailing
 * slash, an empty segment, upper case or a file extension (`/pricing.md`) is not a page path.
 */
export function slugOfPath(path: string): string | undefined {
  if (path === '/') return HOME_SLUG;
  if (!path.startsWith('/')) return undefined;
  const slug = path.slice(1);
  return isPageSlug(slug) ? slug : undefined;
}

/** A page's site path: `index` -> `/`, `blog/x` -> `/blog/x`. */
export function pathOfSlug(slug: string): string {
  return slug === HOME_SLUG ? '/' : `/${slug}`;
}

/** A page's canonical URL on `origin` (`https://kartage.com.au`, no trailing slash). */
export function urlOfSlug(origin: string, slug: string): string {
  return origin + pathOfSlug(slug);
}

/** Public path of a page's markdown twin: `pricing` -> `/pricing.md`, `index` -> `/index.md`. */
export function twinPathOfSlug(slug: string): string {
  return `/${slug}${TWIN_EXT}`;
}

/** URL of a page's markdown twin on `origin`. */
export function twinUrlOfSlug(origin: string, slug: string): string {
  return origin + twinPathOfSlug(slug);
}

/** The slug whose twin a decoded path is (`/pricing.md` -> `pricing`), or undefined. */
export function slugOfTwinPath(path: string): string | undefined {
  if (!path.startsWith('/') || !path.endsWith(TWIN_EXT)) return undefined;
  const slug = path.slice(1, -TWIN_EXT.length);
  return isPageSlug(slug) ? slug : undefined;
}

/** Public path of the static JSON file behind getPage: `pricing` -> `/api/v1/pages/pricing.json`. */
export function pageJsonPathOfSlug(slug: string): string {
  return `${PAGE_JSON_PREFIX}${slug}.json`;
}

/**
 * The built HTML file of a page, relative to the output folder with `/` separators. astro.config.mjs sets
 * `build.format: 'file'`, so `pricing` is `pricing.html`, `blog/x` is `blog/x.html` and the home page is
 * `index.html` (never `x/index.html`).
 */
export function htmlFileOfSlug(slug: string): string {
  return `${slug}${HTML_EXT}`;
}

/**
 * The slug a built HTML file would be the page of (the inverse of htmlFileOfSlug; a leading `/` is allowed),
 * or undefined. Whether the file is a content page at all (not `404.html` or `search.html`) is the page's
 * own business: its `kartage:slug` meta tag.
 */
export function slugOfHtmlFile(file: string): string | undefined {
  const rel = file.startsWith('/') ? file.slice(1) : file;
  if (!rel.endsWith(HTML_EXT)) return undefined;
  const slug = rel.slice(0, -HTML_EXT.length);
  return isPageSlug(slug) ? slug : undefined;
}

/**
 * The site path of a built page as the page itself sees its URL while rendering (`/pricing`, `/pricing.html`,
 * `/index.html` and `/` give `/pricing`, `/pricing`, `/` and `/`). A path that names no slug comes back as it is.
 */
export function sitePathOfPageUrl(pathname: string): string {
  const bare = pathname.endsWith(HTML_EXT) ? pathname.slice(0, -HTML_EXT.length) : pathname;
  const slug = slugOfPath(bare);
  return slug === undefined ? bare || '/' : pathOfSlug(slug);
}

/** The content collections that publish pages. */
export type PageCollection = 'pages' | 'blog';

/** A content entry's slug: a `pages` entry's id is its slug; a `blog` entry `x` is the post `blog/x`. */
export function slugOfEntry(collection: PageCollection, id: string): string {
  return collection === 'blog' ? `${BLOG_FOLDER}/${id}` : id;
}

/** The `[...slug]` route parameter of a page: its path without the leading `/` (undefined for the home page). */
export function routeParamOfSlug(slug: string): string | undefined {
  return slug === HOME_SLUG ? undefined : slug;
}

/** The folder a slug sits in (`blog/x` -> `blog`, `a/b/c` -> `a/b`), or `''` for a top-level page. */
export function folderOf(slug: string): string {
  const cut = slug.lastIndexOf('/');
  return cut < 0 ? '' : slug.slice(0, cut);
}

/** The top-level folder of a slug (`product/storage` -> `product`), or `''` for a top-level page. */
export function sectionOf(slug: string): string {
  const cut = slug.indexOf('/');
  return cut < 0 ? '' : slug.slice(0, cut);
}

/** The last segment of a slug (`customers/keystone-storage` -> `keystone-storage`). */
export function leafOf(slug: string): string {
  return slug.slice(slug.lastIndexOf('/') + 1);
}

/** True when `slug` sits anywhere under `folder` (`blog/x` and `blog/a/b` are under `blog`; `blog` is not). */
export function isUnder(slug: string, folder: string): boolean {
  return slug.length > folder.length + 1 && slug.startsWith(folder) && slug[folder.length] === '/';
}

/** The slugs of the folders above a slug, outermost first (`a/b/c` -> `a`, `a/b`); none for a top-level page. */
export function ancestorsOf(slug: string): string[] {
  const out: string[] = [];
  for (let at = slug.indexOf('/'); at > 0; at = slug.indexOf('/', at + 1)) out.push(slug.slice(0, at));
  return out;
}
