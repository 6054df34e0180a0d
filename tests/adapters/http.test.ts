/**
 * The response helpers every handler shares (src/adapters/http.ts), with plain `Request`s and `Response`s:
 * the RateLimit headers and the 429, the CORS preflight, and the bounded body reader at its edges.
 * tests/server holds the same answers over a socket; these were written against the mutants
 * `npm run mutate` found surviving (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { preflight, rateLimitHeaders, readBytes, readJson, tooManyRequests } from '../../src/adapters/http.ts';
import type { LimitPolicy } from '../../src/core/ports.ts';

const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
const URL_ = 'https://kartage.com.au/api/lead';

describe('the RateLimit headers and the 429', () => {
  it('a budget that allowed the request has the four RateLimit headers and no Retry-After', () => {
    expect(rateLimitHeaders({ policy: read, limit: 120, remaining: 7, reset: 42 })).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '7',
      'RateLimit-Reset': '42',
      'RateLimit-Policy': '120;w=60',
    });
  });

  it('the 429 is the Error body, never cached, with the budget and Retry-After over any header passed', async () => {
    const refusal = { policy: read, limit: 120, remaining: 0, reset: 9, retryAfter: 9, error: 'Too many requests' };
    const r = tooManyRequests(refusal, { 'X-Extra': '1', 'Retry-After': '1' });
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ error: 'Too many requests', status: 429 });
    expect(Object.fromEntries(r.headers)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-extra': '1',
      'ratelimit-limit': '120',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '9',
      'ratelimit-policy': '120;w=60',
      'retry-after': '9',
    });
  });
});

describe('the CORS preflight', () => {
  it('204 for any origin, the methods with OPTIONS, the request headers, cached for a day', () => {
    const r = preflight(['GET', 'HEAD']);
    expect(r.status).toBe(204);
    expect(Object.fromEntries(r.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers':
        'Content-Type, Accept, Authorization, Idempotency-Key, If-None-Match, ' +
        'Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
      'access-control-max-age': '86400',
    });
  });

  it('without CORS (the lead endpoint) no origin is allowed', () => {
    const r = preflight(['POST'], false);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });
});

describe('the bounded body reader at its edges', () => {
  it('a declared length of exactly the limit is read', async () => {
    const r = await readBytes(
      new Request(URL_, { method: 'POST', headers: { 'content-length': '4' }, body: 'abcd' }),
      4,
    );
    expect(r.ok && r.bytes.toString()).toBe('abcd');
  });

  it('a request without a body reads as empty (not a failure)', async () => {
    const r = await readBytes(new Request(URL_, { method: 'GET' }), 4);
    expect(r.ok && r.bytes.length).toBe(0);
    expect(await readJson(new Request(URL_), 4)).toMatchObject({ ok: false, failure: 'empty', status: 400 });
  });

  it('bytes that are not UTF-8 become U+FFFD, not a thrown error', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"a":"<0xff>"}
    expect(await readJson(new Request(URL_, { method: 'POST', body: bytes }), 100)).toEqual({
      ok: true,
      value: { a: '\uFFFD' },
    });
  });
});
