/**
 * @module Response helpers shared by every handler: JSON, the contract's Error body, the RateLimit headers
 * and the one 429, the one CORS preflight, and the one bounded body reader (its failures typed, so each
 * caller answers them its own way: the Error body, or the lead form's HTML page). Web-standard only.
 */
import { policyOf } from '../contract/limits.ts';
import { CACHE_CONTROL, CORS_READ, type CacheClass } from '../contract/routes.ts';
import type { RateLimitRefusal, RateLimitState } from '../core/rate-limit.ts';

export type Headers_ = Record<string, string>;

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

/**
 * The contract's RateLimit headers of a budget's state, and `Retry-After` with a refusal. The IETF draft's
 * structured `RateLimit` / `RateLimit-Policy` fields are not sent: the draft reuses the name
 * `RateLimit-Policy` with another syntax (`"read";q=120;w=60`), so both cannot be sent without contradicting
 * the contract's `120;w=60` (README "Rate limits").
 */
export function rateLimitHeaders(state: RateLimitState & { retryAfter?: number }): Headers_ {
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

/**
 * The CORS preflight (204) of a path taking `methods` (OPTIONS is added). `cors: false` (the lead endpoint)
 * names no allowed origin, so no other origin's script may send the request.
 */
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

/** Why a body was not read: larger than the limit, or broken off before its end (client gone, bad chunking). */
export type BodyFailure = 'too-large' | 'unreadable';

export type BodyRead = { ok: true; bytes: Buffer<ArrayBuffer> } | { ok: false; failure: BodyFailure };

/**
 * Reads a body of at most `maxBytes` bytes. The size is checked while streaming, so a lying or absent
 * Content-Length cannot exhaust memory; a body that breaks off is the client's failure, not a throw.
 */
export async function readBytes(request: Request, maxBytes: number): Promise<BodyRead> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return { ok: false, failure: 'too-large' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return { ok: false, failure: 'unreadable' };
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, failure: 'too-large' };
      }
      chunks.push(chunk.value);
    }
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** The Error text of a body that was not read (413 when too large, else 400). */
export const bodyFailureText = (failure: BodyFailure, maxBytes: number): string =>
  failure === 'too-large'
    ? `Request body is larger than ${maxBytes} bytes`
    : 'Request body could not be read to its end';

/** The status of a body that was not read. */
export const bodyFailureStatus = (failure: BodyFailure): 400 | 413 => (failure === 'too-large' ? 413 : 400);

/** Why a JSON body was refused, and with what: 413 when too large, else 400. */
export interface JsonFailure {
  failure: BodyFailure | 'empty' | 'not-json';
  status: 400 | 413;
  error: string;
}

export type ReadJsonResult = { ok: true; value: unknown } | ({ ok: false } & JsonFailure);

/** Reads a JSON body of at most `maxBytes` bytes. */
export async function readJson(request: Request, maxBytes: number): Promise<ReadJsonResult> {
  const read = await readBytes(request, maxBytes);
  if (!read.ok) {
    const { failure } = read;
    return { ok: false, failure, status: bodyFailureStatus(failure), error: bodyFailureText(failure, maxBytes) };
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
  if (!text.trim())
    return { ok: false, failure: 'empty', status: 400, error: 'Request body is empty: send a JSON object' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, failure: 'not-json', status: 400, error: 'Request body is not valid JSON' };
  }
}
