/**
 * @module What runs in front of the static files (Vercel Routing Middleware in production, the local
 * server's first step here): markdown negotiation on page URLs, getPage over the per-page static files,
 * and real 404s (JSON, or markdown when markdown was asked for) for unknown API paths.
 * Returns a decision; the platform glue turns it into its own response, rewrite or pass-through.
 */
import { API_LINKS, canonicalLinkHeader, pageLinkHeader } from '../contract/links.ts';
import { CACHE_CONTROL, CONTENT_SIGNAL, CORS_READ, PAGE_VARY, routes, type RouteSpec } from '../contract/routes.ts';
import { SLUG_PATTERN } from '../contract/schemas.ts';
import { negotiateMarkdown, wantsMarkdown } from './accept.ts';
import { routeHeadersFor } from './deprecation.ts';
import type { Content, ContentPage } from './content.ts';
import { markdownTokens, markdownTwin } from './markdown-doc.ts';

export type EdgeDecision =
  | { type: 'respond'; response: Response }
  | { type: 'rewrite'; path: string; headers: Record<string, string> }
  | { type: 'next'; headers: Record<string, string> };

export interface EdgeDeps {
  content: Content;
  /** Meters a read for getPage; returns headers to add, or a 429 response. */
  meterRead?: (request: Request) => Promise<{ headers: Record<string, string>; response?: Response }>;
}

const GET_PAGE_PREFIX = '/api/v1/pages/';

/** The markdown answer for a path that does not exist. */
export function notFoundMarkdown(path: string, origin: string): string {
  return [
    '# Not found',
    '',
    `There is no page at \`${path.slice(0, 200).replace(/[`\n\r]/g, '')}\`.`,
    '',
    'Where to look instead:',
    '',
    `- [llms.txt](${origin}/llms.txt): site summary and an index of every page as markdown`,
    `- [sitemap.md](${origin}/sitemap.md): every page with its title and URL, by section`,
    `- [sitemap.xml](${origin}/sitemap.xml): every published URL`,
    `- [openapi.json](${origin}/openapi.json): the API description`,
    `- [/api/v1/pages](${origin}/api/v1/pages): the page index as JSON`,
    `- [/.well-known/mcp.json](${origin}/.well-known/mcp.json): the MCP server (POST ${origin}/mcp)`,
    `- [/.well-known/ard.json](${origin}/.well-known/ard.json): catalogue of agentic resources`,
    `- [/.well-known/api-catalog](${origin}/.well-known/api-catalog): API catalogue (RFC 9727)`,
    `- [/auth.md](${origin}/auth.md): no authentication is needed`,
    `- [/api-deprecation-policy](${origin}/api-deprecation-policy): deprecation policy`,
    `- [/api/v1/sandbox](${origin}/api/v1/sandbox): the lead validation sandbox`,
    '',
  ].join('\n');
}

const json404 = (error: string) =>
  new Response(JSON.stringify({ error, status: 404 }), {
    status: 404,
    headers: { 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=60' },
  });
const md404 = (path: string, origin: string) =>
  new Response(notFoundMarkdown(path, origin), {
    status: 404,
    headers: { 'Content-Type': 'text/markdown; charset=utf-8', Vary: 'Accept', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=60' },
  });

const tokenCache = new WeakMap<ContentPage, string>();

/**
 * Headers of every markdown answer of a page (the negotiated page URL and getPage's markdown): CORS as
 * on the `.md` twin, the canonical page URL (a markdown body has no `<link rel="canonical">`), a token
 * estimate of the twin (computed once per page per instance) and the content signals.
 */
export function markdownHeaders(page: ContentPage): Record<string, string> {
  let tokens = tokenCache.get(page);
  if (!tokens) tokenCache.set(page, (tokens = String(markdownTokens(markdownTwin(page)))));
  return {
    'Content-Type': 'text/markdown; charset=utf-8',
    ...CORS_READ,
    Link: canonicalLinkHeader(page.url),
    'x-markdown-tokens': tokens,
    'Content-Signal': CONTENT_SIGNAL,
  };
}

/**
 * The decoded path of a URL, or undefined when its percent-encoding is broken. Decoded exactly once: the
 * edge step and the local server route on this, so `/%61pi/v1/pages` is `/api/v1/pages` for both, and
 * `/%2561pi/...` stays a path under `%61pi`.
 */
export function decodePath(pathname: string): string | undefined {
  if (!pathname.includes('%')) return pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/** Page slug for a site path, or undefined (`/` -> `index`). */
export function slugOfPath(path: string): string | undefined {
  const slug = path === '/' ? 'index' : path.slice(1);
  return SLUG_PATTERN.test(slug) && !slug.endsWith('/') && !slug.includes('//') ? slug : undefined;
}

const apiPatterns = (routes as readonly RouteSpec[])
  .filter((r) => r.path.startsWith('/api/'))
  .map((r) => new URLPattern({ pathname: r.path.replace(/\{(\w+)\}/g, ':$1+') }));

const functionPaths = new Set((routes as readonly RouteSpec[]).filter((r) => r.serve === 'function').map((r) => r.path));

export async function handleEdge(request: Request, deps: EdgeDeps): Promise<EdgeDecision> {
  const url = new URL(request.url);
  const path = decodePath(url.pathname) ?? url.pathname;
  const { content } = deps;
  const origin = content.data.origin;
  const markdownWanted = wantsMarkdown(request.headers.get('accept'));
  const read = request.method === 'GET' || request.method === 'HEAD';

  if (path.startsWith(GET_PAGE_PREFIX) && path !== '/api/v1/pages/batch') {
    if (request.method === 'OPTIONS') return { type: 'next', headers: {} };
    if (!read) {
      return { type: 'respond', response: new Response(JSON.stringify({ error: 'Method not allowed: use GET', status: 405 }), { status: 405, headers: { 'Content-Type': 'application/json; charset=utf-8', Allow: 'GET, HEAD, OPTIONS' } }) };
    }
    const metered = deps.meterRead ? await deps.meterRead(request) : { headers: {} };
    if (metered.response) return { type: 'respond', response: metered.response };
    const slug = path.slice(GET_PAGE_PREFIX.length);
    const page = SLUG_PATTERN.test(slug) ? content.bySlug.get(slug) : undefined;
    // A metered answer carries this client's counters, so no shared cache may keep it, a 404 included.
    const extra: Record<string, string> = {
      ...metered.headers,
      ...routeHeadersFor(path),
      'Cache-Control': CACHE_CONTROL.metered,
    };
    if (!page) {
      const res = markdownWanted ? md404(path, origin) : json404(`No page with slug "${slug.slice(0, 200)}". List slugs at /api/v1/pages.`);
      for (const [k, v] of Object.entries(extra)) res.headers.set(k, v);
      return { type: 'respond', response: res };
    }
    // Cache-Control (metered: private) comes in `extra`.
    const common = { Vary: 'Accept', 'Access-Control-Allow-Origin': '*' };
    // API answers point at the API's descriptions; a deprecation link, when there is one, stays first.
    const links = [...(extra.Link ? [extra.Link] : []), ...API_LINKS].join(', ');
    if (markdownWanted) {
      const md = markdownHeaders(page); // its Link is the page's canonical URL
      const headers = { ...common, ...md, ...extra, Link: `${links}, ${md.Link}` };
      return { type: 'rewrite', path: `/${slug}.md`, headers };
    }
    const headers = { ...common, ...extra, Link: links, 'Content-Type': 'application/json; charset=utf-8' };
    return { type: 'rewrite', path: `${GET_PAGE_PREFIX}${slug}.json`, headers };
  }

  if (path.startsWith('/api/')) {
    if (apiPatterns.some((p) => p.test({ pathname: path }))) return { type: 'next', headers: {} };
    if (path === '/api/v1/sandbox') return { type: 'next', headers: {} };
    return { type: 'respond', response: markdownWanted ? md404(path, origin) : json404(`No API endpoint at ${path.slice(0, 200)}. See /openapi.json.`) };
  }

  if (functionPaths.has(path)) return { type: 'next', headers: {} };

  // A page's `.md` twin (a static file): the headers of every markdown answer of that page, so the
  // canonical page URL and the token estimate travel with the twin too, not only with negotiation.
  if (read && path.endsWith('.md')) {
    const twinOf = content.bySlug.get(path.slice(1, -'.md'.length));
    if (twinOf) return { type: 'next', headers: { ...markdownHeaders(twinOf), Vary: 'Accept' } };
  }

  // Page URLs: markdown negotiation (Accept, or a known agent's user agent). Both variants carry the same
  // Vary; the HTML one carries the site's discovery links and the page's markdown alternate.
  const slug = read ? slugOfPath(path) : undefined;
  const page = slug ? content.bySlug.get(slug) : undefined;
  const negotiated = read && negotiateMarkdown(request.headers.get('accept'), request.headers.get('user-agent'));
  if (page && negotiated) {
    return { type: 'rewrite', path: `/${page.slug}.md`, headers: { ...markdownHeaders(page), Vary: PAGE_VARY } };
  }
  if (read && markdownWanted && !page && !content.staticFiles.has(path)) {
    return { type: 'respond', response: md404(path, origin) };
  }
  if (page) return { type: 'next', headers: { Vary: PAGE_VARY, Link: pageLinkHeader(page.slug) } };
  return { type: 'next', headers: slug ? { Vary: PAGE_VARY } : {} };
}
