/**
 * @module The shape every function handler shares: meter the request against its budget, run the
 * operation, and turn an unexpected throw into the contract's Error body (logged with an id) instead of
 * the platform's HTML error page.
 */
import type { CacheClass } from '../contract/routes.ts';
import { deps, type Deps } from './deps.ts';
import { errorResponse, readHeaders } from './http.ts';
import { routeHeadersFor } from '../core/deprecation.ts';
import { createLog } from './log.ts';
import { API_LINKS, appendLinks } from '../contract/links.ts';

const fallbackLog = createLog();

export interface ReadContext {
  d: Deps;
  /** Headers every answer of the operation carries: cache class, CORS, Vary and the RateLimit-* set. */
  headers: Record<string, string>;
}

/**
 * Runs `fn`, answering 500 with the Error body (and a logged id) when it throws. With `request`, adds the
 * deprecation headers of its route (none while nothing is deprecated).
 */
export async function guarded(fn: () => Promise<Response>, request?: Request): Promise<Response> {
  try {
    const response = await fn();
    if (request) for (const [k, v] of Object.entries(routeHeadersFor(new URL(request.url).pathname))) response.headers.set(k, v);
    appendLinks(response.headers, API_LINKS);
    return response;
  } catch (e) {
    const id = crypto.randomUUID();
    // Not deps().log: the failure may be in building the dependencies themselves.
    fallbackLog('unhandled_error', { level: 'error', id, error: String((e as Error)?.stack ?? e) });
    return errorResponse(500, `Internal error (reference ${id}); please retry, or tell us at /contact`);
  }
}

/** A handler of an operation metered against the read budget (DESIGN.md section 2). */
export function readEndpoint(cache: CacheClass, fn: (request: Request, ctx: ReadContext) => Response | Promise<Response>) {
  return (request: Request): Promise<Response> =>
    guarded(async () => {
      const d = deps();
      const metered = await d.meter(request);
      if (metered.response) return metered.response;
      return fn(request, { d, headers: { ...readHeaders(cache), ...metered.headers } });
    }, request);
}
