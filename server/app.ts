/**
 * @module The local server's request pipeline, in Vercel's order: the edge step (the same code as
 * middleware.ts), the filesystem, the route table's rewrites, the functions in `api/` (the same modules
 * Vercel deploys), then a real 404. Web-standard: Request in, Response out.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASE_HEADERS, functionPath, functionRoutes, rewrites, type RouteSpec } from '../src/contract/routes.ts';
import { decodePath, handleEdge, notFoundMarkdown } from '../src/core/edge.ts';
import { wantsMarkdown } from '../src/core/accept.ts';
import { errorResponse, methodNotAllowed, preflight } from '../src/adapters/http.ts';
import type { Deps } from '../src/adapters/deps.ts';
import { createStaticFiles, isCanonicalPath } from './static-files.ts';

type Handler = (request: Request) => Response | Promise<Response>;
export type FunctionModule = Partial<Record<'GET' | 'POST' | 'DELETE' | 'OPTIONS', Handler>>;

export interface MountedFunction { route: RouteSpec; module: FunctionModule }

export interface AppOptions {
  root: string;
  distDir: string;
  deps: Deps;
}

export interface App {
  handle(request: Request): Promise<Response>;
  functions: MountedFunction[];
  /** Function routes of the table whose module is not in `api/` yet (answered 404, as Vercel would). */
  missing: RouteSpec[];
  /** Releases what the app holds open (the build folder's watch). */
  close(): void;
}

/** Imports the function module of every function route (the files Vercel deploys from `api/`). */
async function mountFunctions(root: string): Promise<{ functions: MountedFunction[]; missing: RouteSpec[] }> {
  const functions: MountedFunction[] = [];
  const missing: RouteSpec[] = [];
  for (const route of functionRoutes()) {
    const file = join(root, 'api', `${route.fn}.ts`);
    try {
      functions.push({ route, module: (await import(pathToFileURL(file).href)) as FunctionModule });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !String((e as Error).message).includes(file)) throw e;
      missing.push(route);
    }
  }
  return { functions, missing };
}

/** Headers every answer carries (the route table's rule for every path); an answer's own headers win. */
const BASE = Object.entries(BASE_HEADERS);

/** Adds the headers every answer carries, where the answer has not set them itself. */
export function withBaseHeaders(response: Response): Response {
  for (const [k, v] of BASE) if (!response.headers.has(k)) response.headers.set(k, v);
  return response;
}

export async function createApp(opts: AppOptions): Promise<App> {
  const files = createStaticFiles(opts.distDir);
  const { functions, missing } = await mountFunctions(opts.root);
  const byPath = new Map<string, MountedFunction>();
  for (const f of functions) byPath.set(functionPath(f.route.fn!), f);
  const aliases = rewrites().map((r) => ({ pattern: new URLPattern({ pathname: r.source }), destination: r.destination }));

  async function callFunction(f: MountedFunction, request: Request): Promise<Response> {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const handler = f.module[method as keyof FunctionModule];
    if (handler) return handler(request);
    if (method === 'OPTIONS') return preflight(f.route.methods);
    return methodNotAllowed(f.route.methods);
  }

  async function notFound(request: Request, path: string): Promise<Response> {
    if (wantsMarkdown(request.headers.get('accept'))) {
      return new Response(notFoundMarkdown(path, opts.deps.content().data.origin), { status: 404, headers: { 'Content-Type': 'text/markdown; charset=utf-8', Vary: 'Accept' } });
    }
    if (path.startsWith('/api/')) return errorResponse(404, `No API endpoint at ${path.slice(0, 200)}. See /openapi.json.`);
    const page404 = await files.resolve('/404.html');
    // Header rules of the 404 page itself, not of the path asked for (`/x.md` must not make it markdown).
    if (page404 && (request.method === 'GET' || request.method === 'HEAD')) return files.serve(request, page404, '/404.html', { 'Cache-Control': 'no-store' }, 404);
    return errorResponse(404, `Nothing at ${path.slice(0, 200)}`);
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Decoded exactly once, here; the edge step decodes the same way (`/%61pi/v1/pages` is `/api/v1/pages`),
    // and the file lookup takes this path as it is (`/%2561pi/...` is a file named `%61pi`, not `api`).
    const path = decodePath(url.pathname) ?? url.pathname;
    const decision = await handleEdge(request, { content: opts.deps.content(), meterRead: (r) => opts.deps.meter(r) });
    if (decision.type === 'respond') return decision.response;

    let target = path;
    let extra: Record<string, string> = decision.headers;
    if (decision.type === 'rewrite') target = decision.path;

    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isRead && path.endsWith('.html') && path !== '/404.html' && decision.type === 'next' && isCanonicalPath(path)) {
      // The target is the request's own path (still percent-encoded) less `.html`: a same-origin path,
      // since a canonical path has no empty segment (`//host`) and no backslash (`/\host`).
      const clean = path === '/index.html' ? '/' : path.slice(0, -'.html'.length);
      const location = url.pathname === '/index.html' ? '/' : url.pathname.slice(0, -'.html'.length);
      if (await files.resolve(clean)) {
        return new Response(null, { status: 308, headers: { Location: location + url.search } });
      }
    }

    // Filesystem first (as on Vercel), except for function paths.
    const fn = byPath.get(target);
    if (!fn && isRead) {
      const file = await files.resolve(target);
      if (file) return files.serve(request, file, path, extra);
    }
    if (fn) return callFunction(fn, request);

    // Rewrites after the filesystem.
    for (const alias of aliases) {
      if (!alias.pattern.test({ pathname: target })) continue;
      const aliased = byPath.get(alias.destination);
      if (aliased) return callFunction(aliased, request);
      if (isRead) {
        const file = await files.resolve(alias.destination);
        if (file) return files.serve(request, file, path, extra);
      }
    }
    if (request.method === 'OPTIONS') return preflight(['GET', 'HEAD']);
    return notFound(request, path);
  }

  const handle = async (request: Request) => withBaseHeaders(await route(request));
  return { handle, functions, missing, close: () => files.close() };
}
