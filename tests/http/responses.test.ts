/**
 * The response helpers every handler shares (src/http/responses.ts), with plain `Response`s: the RateLimit
 * headers and the 429, the CORS preflight. tests/server holds the same answers over a socket.
 */
import { describe, expect, it } from 'vitest';
import { preflight, rateLimitHeaders, tooManyRequests } from '../../src/http/responses.ts';
import type { LimitPolicy } from '../../src/core/ports.ts';

const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };

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
