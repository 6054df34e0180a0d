/**
 * @module What runs in front of the static files (Vercel Routing Middleware in production, the local
 * server's first step here): markdown negotiation on page URLs, getPage over the per-page static files,
 * and real 404s (JSON, or markdown when markdown was asked for) for unknown API paths.
 * Returns a decision; the platform glue turns it into its own response, rewrite or pass-through.
 */
import { CACHE_CONTROL, routes, type RouteSpec } from '../contract/routes.ts';
import { SLUG_PATTERN } from '../contract/schemas.ts';
import { wantsMarkdown } from './accept.ts';
import { routeHeadersFor } from './deprecation.ts';
import type { Content } from './content.ts';

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
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = url.pathname;
  }
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
    const extra = { ...metered.headers, ...routeHeadersFor(path), 'Cache-Control': CACHE_CONTROL.metered };
    if (!page) {
      const res = markdownWanted ? md404(path, origin) : json404(`No page with slug "${slug.slice(0, 200)}". List slugs at /api/v1/pages.`);
      for (const [k, v] of Object.entries(extra)) res.headers.set(k, v);
      return { type: 'respond', response: res };
    }
    const common = { Vary: 'Accept', 'Access-Control-Allow-Origin': '*', ...extra };
    return markdownWanted
      ? { type: 'rewrite', path: `/${slug}.md`, headers: { ...common, 'Content-Type': 'text/markdown; charset=utf-8' } }
      : { type: 'rewrite', path: `${GET_PAGE_PREFIX}${slug}.json`, headers: { ...common, 'Content-Type': 'application/json; charset=utf-8' } };
  }

  if (path.startsWith('/api/')) {
    if (apiPatterns.some((p) => p.test({ pathname: path }))) return { type: 'next', headers: {} };
    if (path === '/api/v1/sandbox') return { type: 'next', headers: {} };
    return { type: 'respond', response: markdownWanted ? md404(path, origin) : json404(`No API endpoint at ${path.slice(0, 200)}. See /openapi.json.`) };
  }

  if (functionPaths.has(path)) return { type: 'next', headers: {} };

  // Page URLs: markdown negotiation. The HTML and markdown variants both say Vary: Accept.
  if (read && markdownWanted) {
    const slug = slugOfPath(path);
    if (slug && content.bySlug.has(slug)) return { type: 'rewrite', path: `/${slug}.md`, headers: { Vary: 'Accept', 'Content-Type': 'text/markdown; charset=utf-8' } };
    if (!content.staticFiles.has(path)) return { type: 'respond', response: md404(path, origin) };
  }
  return { type: 'next', headers: read && slugOfPath(path) ? { Vary: 'Accept' } : {} };
}
