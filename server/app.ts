/**
 * @module The local server's routing, in Vercel's order: the middleware (the same decisions as
 * middleware.ts, `createEdge`, for the same matcher), the filesystem, the route table's rewrites, the function
 * operations through the pipeline, then the pipeline's not-found. Web-standard: Request in, Response out.
 */
import { BASE_HEADERS, functionPath } from '../src/contract/routes.ts';
import { preflight } from '../src/http/responses.ts';
import { wantsMarkdown } from '../src/http/accept.ts';
import { decodePath } from '../src/http/edge.ts';
import type { Deps } from '../src/adapters/composition-root.ts';
import { createEdge } from '../src/http/middleware.ts';
import { type FunctionOperation, functionOf, isFunctionOperation } from '../src/http/operation.ts';
import { notFound } from '../src/http/answers.ts';
import { runOperation } from '../src/http/pipeline.ts';
import { matchOperation, operations, rewrites, routes } from '../src/operations/index.ts';
import { config as middlewareConfig } from '../middleware.ts';
import { bodyOf, createStaticFiles, isCanonicalPath, remember } from './static-files.ts';

export interface AppOptions {
  distDir: string;
  deps: Deps;
}

export interface App {
  handle(request: Request): Promise<Response>;
  /** The operations answered by functions (on Vercel, one function each). */
  functions: FunctionOperation[];
  /** Entries the path caches hold now: the static files' (`CACHE_LIMITS`) and the matcher's. */
  cacheSize(): { found: number; missing: number; headerSets: number; matcher: number };
  /** Releases what the app holds open (the build folder's watch). */
  close(): void;
}

/** Headers every answer carries (the route table's rule for every path); an answer's own headers win. */
const BASE = Object.entries(BASE_HEADERS);

/** Adds the headers every answer carries, where the answer has not set them itself. */
export function withBaseHeaders(response: Response): Response {
  const known = bodyOf(response);
  if (known) {
    for (const [k, v] of BASE_LOWER) if (!(k in known.head)) known.head[k] = v;
    return response;
  }
  for (const [k, v] of BASE) if (!response.headers.has(k)) response.headers.set(k, v);
  return response;
}
const BASE_LOWER = BASE.map(([k, v]) => [k.toLowerCase(), v] as const);

/** The middleware's matcher as URL patterns (checked against the raw and the decoded path, as either may be). */
const matcher = middlewareConfig.matcher.map((m) => new URLPattern({ pathname: m }));
/**
 * Whether the matcher takes a path, remembered per path (requests repeat paths; a pattern test is not free),
 * for at most `MATCHER_CACHE_LIMIT` paths, the oldest forgotten first.
 */
const matched = new Map<string, boolean>();
export const MATCHER_CACHE_LIMIT = 10_000;
function middlewareTakes(raw: string, decoded: string): boolean {
  let hit = matched.get(raw);
  if (hit === undefined) {
    hit = matcher.some((p) => p.test({ pathname: raw }) || p.test({ pathname: decoded }));
    remember(matched, raw, hit, MATCHER_CACHE_LIMIT);
  }
  return hit;
}

/**
 * A raw path's ending that decodes to `.html`, each character as itself or percent-encoded. Only used when
 * the decoded path ends with `.html` (so letters are lower case, a decoded `.HTML` never gets here).
 */
const HTML_SUFFIX = /(?:\.|%2e)(?:h|%68)(?:t|%74)(?:m|%6d)(?:l|%6c)$/i;

export async function createApp(opts: AppOptions): Promise<App> {
  const files = createStaticFiles(opts.distDir);
  // The middleware's own code (createMiddleware wraps the same decisions for Vercel), fail-open included.
  const edge = createEdge({ matchOperation, routes }, () => opts.deps);
  const functions = operations.filter(isFunctionOperation);
  const byPath = new Map<string, FunctionOperation>();
  for (const op of functions) byPath.set(functionPath(functionOf(op)!), op);
  const aliases = rewrites().map((r) => ({
    pattern: new URLPattern({ pathname: r.source }),
    destination: r.destination,
  }));

  async function serveFile(request: Request, target: string, path: string, extra: Record<string, string>) {
    const file = await files.resolve(target);
    return file ? files.serve(request, file, path, extra) : undefined;
  }

  /** The 404: the site's 404 page for a page read that wants HTML, the pipeline's not-found otherwise. */
  async function notFoundAnswer(request: Request, path: string): Promise<Response> {
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && !path.startsWith('/api/') && !wantsMarkdown(request.headers.get('accept'))) {
      // Header rules of the 404 page itself, not of the path asked for (`/x.md` must not make it markdown).
      const page404 = await files.resolve('/404.html');
      if (page404) return files.serve(request, page404, '/404.html', { 'Cache-Control': 'no-store' }, 404);
    }
    return notFound(request, path, opts.deps.content.origin);
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Decoded exactly once, here and in the middleware (`/%61pi/v1/pages` is `/api/v1/pages`); the file
    // lookup takes this path as it is (`/%2561pi/...` is a file named `%61pi`, not `api`).
    const path = decodePath(url.pathname) ?? url.pathname;
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const target = path;
    let extra: Record<string, string> = {};
    if (middlewareTakes(url.pathname, path)) {
      const answer = await edge(request);
      if (answer instanceof Response) return answer;
      if (answer.type === 'rewrite') {
        // A rewrite serves a static file in place of the path (getPage's JSON, a page's markdown twin).
        return (await serveFile(request, answer.path, path, answer.headers)) ?? notFoundAnswer(request, path);
      }
      extra = answer.headers;
    }

    if (isRead && path.endsWith('.html') && path !== '/404.html' && isCanonicalPath(path)) {
      // The target is the request's own path (still percent-encoded) less its `.html`, however that was
      // spelled (`/pricing%2Ehtml` -> `/pricing`): a same-origin path, since a canonical path has no empty
      // segment (`//host`) and no backslash (`/\host`).
      const clean = path === '/index.html' ? '/' : path.slice(0, -'.html'.length);
      const location = path === '/index.html' ? '/' : url.pathname.replace(HTML_SUFFIX, '');
      if (location !== url.pathname && (await files.resolve(clean)))
        return new Response(null, { status: 308, headers: { Location: location + url.search } });
    }

    // Filesystem first (as on Vercel), except for function paths.
    const op = byPath.get(target);
    if (op) return runOperation(op, request, opts.deps);
    if (isRead) {
      const served = await serveFile(request, target, path, extra);
      if (served) return served;
    }
    // Rewrites after the filesystem.
    for (const alias of aliases) {
      if (!alias.pattern.test({ pathname: target })) continue;
      const aliased = byPath.get(alias.destination);
      if (aliased) return runOperation(aliased, request, opts.deps);
      if (isRead) {
        const served = await serveFile(request, alias.destination, path, extra);
        if (served) return served;
      }
    }
    if (request.method === 'OPTIONS') return preflight(['GET', 'HEAD']);
    return notFoundAnswer(request, path);
  }

  const handle = async (request: Request) => withBaseHeaders(await route(request));
  const cacheSize = () => ({ ...files.cacheSize(), matcher: matched.size });
  return { handle, functions, cacheSize, close: () => files.close() };
}
