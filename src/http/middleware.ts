/**
 * @module What runs in front of the static files: Vercel Routing Middleware in production (middleware.ts
 * binds it), and the local server's first step for the paths the middleware's matcher takes. getPage runs
 * through the pipeline here and is served from its prebuilt file; unknown API paths get the pipeline's
 * not-found; page URLs get markdown negotiation (src/http/edge.ts). A failure fails open: pages go on to
 * the static files, API paths get the Error body instead of the platform's error page.
 */
import { next, rewrite } from '@vercel/functions';
import type { Deps } from '../adapters/composition-root.ts';
import { createLog } from '../adapters/log.ts';
import { decodePath, handleEdge } from './edge.ts';
import { errorStack } from '../core/error-text.ts';
import type { Log } from '../core/ports.ts';
import type { RouteSpec } from '../contract/routes.ts';
import type { Operation, Rewrite } from './operation.ts';
import { internalError, meteredNotFound, notFound, requestIdOf } from './answers.ts';
import { runOperation } from './pipeline.ts';

/** What the middleware routes by: src/operations/index.ts's `matchOperation` and route table, passed in. */
export interface OperationTable {
  matchOperation(path: string): { op: Operation; params: Record<string, string> } | undefined;
  routes: readonly RouteSpec[];
}

/** What the step in front of the static files decides: an answer, a file to serve instead, or go on. */
export type EdgeAnswer = Response | Rewrite | { type: 'next'; headers: Record<string, string> };

const GO_ON: EdgeAnswer = { type: 'next', headers: {} };

/**
 * The middleware's decisions, fail-open included, without a platform: `createMiddleware` turns them into
 * Vercel's `rewrite()`/`next()` answers, and the local server acts on them directly.
 */
export function createEdge(table: OperationTable, getDeps: () => Deps): (request: Request) => Promise<EdgeAnswer> {
  const { matchOperation, routes } = table;
  // Static answers under /api/ that are not operations (the sandbox description).
  const staticApiPaths = new Set(
    routes.filter((r) => r.serve === 'static' && r.path.startsWith('/api/')).map((r) => r.path),
  );
  return async function edge(request) {
    let log: Log | undefined;
    try {
      const deps = getDeps();
      log = deps.log;
      const url = new URL(request.url);
      const path = decodePath(url.pathname) ?? url.pathname;
      const found = matchOperation(path);
      if (found && found.op.serve === 'middleware') {
        return runOperation(found.op, request, deps, found.params);
      }
      if (found || staticApiPaths.has(path)) return GO_ON; // a function or a static file answers
      const content = deps.content;
      if (path.startsWith('/api/')) return meteredNotFound(request, path, deps);
      const decision = handleEdge(request, path, { content });
      if (decision.type === 'not-found') return notFound(request, path, content.origin);
      return decision;
    } catch (e) {
      const path = new URL(request.url).pathname;
      if (path.startsWith('/api/')) return internalError(requestIdOf(request), e, log ?? createLog());
      (log ?? createLog())('middleware_failed', { level: 'error', error: errorStack(e) });
      return GO_ON;
    }
  };
}

/** The Vercel Routing Middleware over `createEdge`. */
export function createMiddleware(table: OperationTable, getDeps: () => Deps): (request: Request) => Promise<Response> {
  const edge = createEdge(table, getDeps);
  return async function middleware(request) {
    const answer = await edge(request);
    if (answer instanceof Response) return answer;
    if (answer.type === 'rewrite') return rewrite(new URL(answer.path, request.url), { headers: answer.headers });
    return next({ headers: answer.headers });
  };
}
