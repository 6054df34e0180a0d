/**
 * The pipeline called with a `Request` and no server (as Hono's tests call `app.request`): what every
 * operation gets from it whatever its handler does, proven with the real operations and test-only ones,
 * over a small hand-made site (tests/helpers/content-set.ts), so no build is needed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { deprecationHeaders } from '../../src/http/deprecation.ts';
import { defineOperation, type FunctionOperation } from '../../src/http/operation.ts';
import { runOperation } from '../../src/http/pipeline.ts';
import { operations } from '../../src/operations/index.ts';
import { searchSite } from '../../src/operations/search-site.ts';
import { submitLead } from '../../src/operations/submit-lead.ts';
import { validateLead } from '../../src/operations/validate-lead.ts';
import { writeContentSet } from '../helpers/content-set.ts';
import { watchedLog } from '../helpers/test-log.ts';

/** A fixed instant a second into a minute: the tests that spend the read budget cannot straddle a minute. */
const FIXED_NOW = Date.UTC(2026, 10, 23, 10, 0, 1);
const clock = () => FIXED_NOW;
const site = writeContentSet();
const watch = watchedLog();
const deps = () =>
  createDeps({
    env: process.env,
    dataDir: site.dataDir,
    store: createMemoryStore({ now: clock }),
    now: clock,
    log: watch.log,
    sink: { name: 'none', deliver: async () => {} },
  });
const request = (path: string, init: RequestInit & { ip?: string } = {}) =>
  new Request(`http://localhost:4321${path}`, {
    ...init,
    headers: { 'x-real-ip': init.ip ?? '203.0.113.9', ...(init.headers as Record<string, string>) },
  });
const run = (op: FunctionOperation, r: Request, d = deps()) => runOperation(op, r, d);

const deprecated = {
  since: '2026-11-01T00:00:00Z',
  sunset: '2027-06-01T00:00:00Z',
  link: 'https://kartage.com.au/api-deprecation-policy',
};
/** The old search path of a test: the real search, declared deprecated. */
const oldSearch: FunctionOperation = { ...searchSite, id: 'searchSiteOld', path: '/api/v1/find', deprecated };

const throwing = defineOperation({
  id: 'boom',
  method: 'GET',
  path: '/api/v1/boom',
  summary: 'Throws (test-only).',
  description: 'Throws.',
  tag: 'Content',
  serve: { function: 'v1/boom' },
  query: z.object({ n: z.string().regex(/^\d+$/, 'n must be digits') }),
  responses: { 200: { description: 'never' }, 400: { description: 'bad n' }, 429: { description: 'too many' } },
  meter: 'read',
  cache: 'metered',
  cors: true,
  data: [],
  public: false,
  handler: () => {
    throw new Error('kaboom');
  },
});

describe('the pipeline', () => {
  it('answers the operation with its cache class, CORS and exposed headers, RateLimit and the API links', async () => {
    const r = await run(searchSite, request('/api/v1/search?q=storage+billing'));
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toMatch(/^private/);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    expect(r.headers.get('ratelimit-policy')).toBe('120;w=60');
    expect(r.headers.get('link')).toContain('rel="service-desc"');
    expect(r.headers.get('deprecation')).toBeNull();
    expect((await r.json()).count).toBeGreaterThan(0);
  });

  it('meters invalid requests too, and refuses past the budget with 429 no-store', async () => {
    const d = deps();
    let last: Response | undefined;
    for (let i = 0; i < 121; i++)
      last = await run(searchSite, request('/api/v1/search?q=x', { ip: '198.51.100.1' }), d);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('cache-control')).toBe('no-store');
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await last!.json()).status).toBe(429);
  });

  it('400 for a query the schema refuses, with the Error body naming the parameter', async () => {
    const r = await run(searchSite, request('/api/v1/search?q=storage&limit=0'));
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: expect.stringMatching(/^limit/), status: 400 });
  });

  it('405 with Allow for a method the operation does not take; OPTIONS is the preflight', async () => {
    const r = await run(searchSite, request('/api/v1/search', { method: 'DELETE' }));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await r.json()).status).toBe(405);
    const p = await run(submitLead, request('/api/lead', { method: 'OPTIONS' }));
    expect(p.status).toBe(204);
    expect(p.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    // No origin may post leads from another site's script.
    expect(p.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an unexpected throw is a 500 whose reference is the request id', async () => {
    const logged: Record<string, unknown>[] = [];
    const d = createDeps({ env: process.env, store: createMemoryStore(), log: (_e, f) => logged.push(f ?? {}) });
    const r = await run(throwing, request('/api/v1/boom?n=1', { headers: { 'x-request-id': 'req-42' } }), d);
    expect(r.status).toBe(500);
    expect((await r.json()).error).toContain('reference req-42');
    expect(logged[0]).toMatchObject({ id: 'req-42', level: 'error' });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a refused lead body spends a read unit, never a lead unit', async () => {
    const d = deps();
    let last: Response | undefined;
    for (let i = 0; i < 121; i++) {
      last = await run(
        submitLead,
        request('/api/lead', {
          method: 'POST',
          body: '{',
          headers: { 'content-type': 'application/json' },
          ip: '198.51.100.2',
        }),
        d,
      );
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('ratelimit-policy')).toBe('120;w=60');
  });

  it('a post from another site is a 400 Error whatever its type; without an Origin it goes through', async () => {
    const post = (type: string, origin?: string) =>
      run(
        submitLead,
        request('/api/lead', {
          method: 'POST',
          body: '{"name":"Sam","email":"sam@example.com"}',
          headers: { ...(origin ? { origin } : {}), 'content-type': type },
        }),
      );
    const text = await post('text/plain', 'https://evil.example');
    expect(text.status).toBe(400);
    expect((await text.json()).error).toMatch(/^Cross-site/);
    const json = await post('application/json', 'https://evil.example');
    expect(json.status).toBe(400);
    expect((await json.json()).error).toMatch(/^Cross-site/);
    expect((await post('application/json')).status).toBe(200);
    // The sandbox writes nothing: JSON from any origin stays open.
    const sandbox = await run(
      validateLead,
      request('/api/v1/lead/validate', {
        method: 'POST',
        body: '{"name":"Sam","email":"sam@example.com"}',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      }),
    );
    expect(sandbox.status).toBe(200);
  });
});

describe('deprecation, proven with a test-only operation', () => {
  it('formats the headers per RFC 9745 and RFC 8594', () => {
    expect(deprecationHeaders(deprecated)).toEqual({
      Deprecation: '@1793491200',
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      Link: '<https://kartage.com.au/api-deprecation-policy>; rel="deprecation"; type="text/html"',
    });
  });

  it('a deprecated operation answers with the headers, the deprecation link first; the live ones do not', async () => {
    const old = await run(oldSearch, request('/api/v1/find?q=storage'));
    expect(old.status).toBe(200);
    expect(old.headers.get('deprecation')).toBe('@1793491200');
    expect(old.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(old.headers.get('link')).toMatch(/^<https:\/\/kartage\.com\.au\/api-deprecation-policy>; rel="deprecation"/);
    const bad = await run(oldSearch, request('/api/v1/find?q=s'));
    expect(bad.status).toBe(400);
    expect(bad.headers.get('deprecation')).toBe('@1793491200');
    for (const op of operations) expect(op.deprecated, op.id).toBeUndefined();
  });

  it('the OpenAPI document marks exactly the deprecated operation', () => {
    const doc = buildOpenApi('https://kartage.com.au', [...operations, oldSearch]) as {
      paths: Record<string, Record<string, { operationId: string; deprecated?: boolean }>>;
    };
    expect(doc.paths['/api/v1/find']!.get).toMatchObject({ operationId: 'searchSiteOld', deprecated: true });
    const marked = Object.values(doc.paths)
      .flatMap((p) => Object.values(p))
      .filter((op) => op.deprecated);
    expect(marked.map((op) => op.operationId)).toEqual(['searchSiteOld']);
  });
});
