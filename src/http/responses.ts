/**
 * @module Response helpers shared by every handler: JSON, the contract's Error body, the RateLimit headers
 * and the one 429, the one CORS preflight. Web-standard only.
 */
import { policyOf } from '../contract/limits.ts';
import { CACHE_CONTROL, CORS_READ, type CacheClass } from '../contract/routes.ts';
import type { RateLimitRefusal, RateLimitState } from '../core/rate-limit.ts';

/** Response headers by name. */
export type Headers_ = Record<string, string>;

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Headers_ = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The contract's Error body `{error, status}` with the status repeated. */
export function errorResponse(status: number, error: string, headers: Headers_ = {}): Response {
  return json({ error, status }, status, headers);
}

/** Headers every JSON read answer carries: cache class, CORS and Vary. */
export function readHeaders(cache: CacheClass): Headers_ {
  return { 'Cache-Control': CACHE_CONTROL[cache], Vary: 'Accept', ...CORS_READ };
}

/** The contract's RateLimit headers of a budget's state, and `Retry-After` with a refusal. */
export function rateLimitHeaders(state: RateLimitState & { retryAfter?: number }): Headers_ {
  // Not the IETF draft's structured fields: the draft gives `RateLimit-Policy` another syntax
  // (`"read";q=120;w=60`), which would contradict the contract's `120;w=60`.
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.reset),
    'RateLimit-Policy': policyOf(state.policy),
    ...(state.retryAfter === undefined ? {} : { 'Retry-After': String(state.retryAfter) }),
  };
}

/** The 429 of a request past its budget: the Error body, the budget's headers, never cached. */
export function tooManyRequests(refusal: RateLimitRefusal, headers: Headers_ = {}): Response {
  return errorResponse(429, refusal.error, { 'Cache-Control': 'no-store', ...headers, ...rateLimitHeaders(refusal) });
}

/** Request headers a browser may send cross-origin to the API, MCP's included. */
const ALLOW_HEADERS = [
  'Content-Type, Accept, Authorization, Idempotency-Key, If-None-Match',
  'Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
].join(', ');

/** The CORS preflight (204) of a path taking `methods`; `cors: false` (the lead endpoint) allows no origin. */
export function preflight(methods: readonly string[], cors = true): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...(cors ? { 'Access-Control-Allow-Origin': '*' } : {}),
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': '86400',
    },
  });
}
