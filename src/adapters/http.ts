/**
 * @module Response helpers shared by every handler: JSON, the contract's Error body and a
 * bounded JSON body reader. Web-standard only.
 */
import { errorText } from '../core/error-text.ts';
import { CACHE_CONTROL, CORS_READ, type CacheClass } from '../contract/routes.ts';

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

/** CORS preflight answer for the public, read-only API. */
export function preflight(methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers':
        'Content-Type, Accept, Idempotency-Key, If-None-Match, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/** The request body broke off before its end. */
export class BodyUnreadable extends Error {}

/**
 * Reads a body of at most `maxBytes` bytes, or `undefined` when it is larger. The size is checked while
 * streaming, so a lying or absent Content-Length cannot exhaust memory.
 */
export async function readBody(request: Request, maxBytes: number): Promise<Buffer<ArrayBuffer> | undefined> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      // A body that breaks off (client gone, malformed chunking) is a client error, not a server one.
      const { done, value } = await reader.read().catch((e) => {
        throw new BodyUnreadable(errorText(e));
      });
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

export type ReadJsonResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** Reads a JSON body of at most `maxBytes` bytes. Bad JSON -> 400, too large -> 413, both with the Error body. */
export async function readJson(request: Request, maxBytes: number, headers: Headers_ = {}): Promise<ReadJsonResult> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readBody(request, maxBytes);
  } catch (e) {
    if (e instanceof BodyUnreadable)
      return { ok: false, response: errorResponse(400, 'Request body could not be read to its end', headers) };
    throw e;
  }
  if (!bytes)
    return { ok: false, response: errorResponse(413, `Request body is larger than ${maxBytes} bytes`, headers) };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!text.trim())
    return { ok: false, response: errorResponse(400, 'Request body is empty: send a JSON object', headers) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: errorResponse(400, 'Request body is not valid JSON', headers) };
  }
}
