/**
 * @module The answers the pipeline and the operations both give, in one small module neither owns: the 405's text,
 * the request's id, the 500 for an unexpected throw and the public 404 (operations import these from here, not
 * from the pipeline that imports the operations).
 */
import type { Deps } from '../adapters/composition-root.ts';
import { errorResponse, rateLimitHeaders, tooManyRequests } from './responses.ts';
import { clientOf } from './client-address.ts';
import { createLog } from '../adapters/log.ts';
import { wantsMarkdown } from './accept.ts';
import { errorStack } from '../core/error-text.ts';
import { notFoundMarkdown } from '../core/not-found.ts';
import type { Log } from '../core/ports.ts';
import type { Operation } from './operation.ts';

/** The 405's text for a method `op` does not take. */
export const notAllowedText = (op: Operation) => `Method not allowed: ${op.path} takes ${op.method} only`;

/** The request's id: Vercel's, or the one the local server stamped on it. */
export function requestIdOf(request: Request): string {
  return request.headers.get('x-vercel-id') ?? request.headers.get('x-request-id') ?? crypto.randomUUID();
}

/** The 500 answer for an unexpected throw: logged with the request's id (`requestIdOf`), which the body quotes. */
export function internalError(id: string, error: unknown, log: Log = createLog()): Response {
  log('unhandled_error', { level: 'error', id, error: errorStack(error) });
  return errorResponse(500, `Internal error (reference ${id}); please retry, or tell us at /contact`);
}

/**
 * The real 404 of a path no operation or file answers: the Error body, or a markdown page of where to
 * look when markdown was asked for. Public and cacheable: it says nothing about the client.
 */
export function notFound(request: Request, path: string, origin: string, error?: string): Response {
  const headers = { 'Cache-Control': 'public, max-age=60', Vary: 'Accept', 'Access-Control-Allow-Origin': '*' };
  if (wantsMarkdown(request.headers.get('accept'))) {
    return new Response(notFoundMarkdown(path, origin), {
      status: 404,
      headers: { 'Content-Type': 'text/markdown; charset=utf-8', ...headers },
    });
  }
  const where = path.slice(0, 200);
  return errorResponse(404, error ?? `No API endpoint at ${where}. See /openapi.json.`, headers);
}

/**
 * The 404 of an API path no operation answers, metered: it costs the client a read unit (a 429 past it), so
 * a flood of made-up paths is capped like any read. Its counters make it the client's own: private.
 */
export async function meteredNotFound(request: Request, path: string, deps: Deps, error?: string): Promise<Response> {
  const spent = await deps.meter(clientOf(request));
  if (!spent.ok) return tooManyRequests(spent);
  const response = notFound(request, path, deps.config.origin, error);
  for (const [k, v] of Object.entries(rateLimitHeaders(spent))) response.headers.set(k, v);
  response.headers.set('Cache-Control', 'private, max-age=60');
  return response;
}
