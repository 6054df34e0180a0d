// The read side over real HTTP on the local server (same handlers and edge step as production).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import {
  BatchResponseSchema,
  ListPagesResponseSchema,
  PageSchema,
  SearchResponseSchema,
} from '../../src/contract/schemas.ts';
import { fold } from '../../src/core/search/engine.ts';
import { frontMatter } from '../../src/core/markdown-doc.ts';
import { expectErrorResponse } from '../helpers/http.ts';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

/** The tokens of a Vary header, lower-cased: `Accept` must be one of them, not a part of `Accept-Encoding`. */
const varyTokens = (v: string | null) => (v ?? '').split(',').map((t) => t.trim().toLowerCase());

let server: RunningServer;
const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } });
const expectError = expectErrorResponse;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('local server basics', () => {
  it('serves the OpenAPI document as JSON and the same document as YAML, and it validates', async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    await SwaggerParser.validate(structuredClone(doc));
    const yaml = await get('/openapi.yaml');
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(parseYaml(await yaml.text())).toEqual(doc);
  });

  it('serves pages at clean URLs and redirects .html to them', async () => {
    const res = await get('/pricing');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(varyTokens(res.headers.get('vary'))).toContain('accept');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const redirect = await fetch(`${server.url}/pricing.html`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/pricing');
  });
});

describe('GET /api/v1/pages (listPages)', () => {
  it('walks the whole index with limit 7 with no skip or repeat, in ascending slug order', async () => {
    const all = ListPagesResponseSchema.parse(await (await get('/api/v1/pages')).json());
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(`/api/v1/pages?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const body = ListPagesResponseSchema.parse(await res.json());
      expect(body.count).toBe(body.pages.length);
      expect(body.count).toBeLessThanOrEqual(7);
      seen.push(...body.pages.map((p) => p.slug));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.pages.map((p) => p.slug));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(seen);
    expect(seen).toContain('index');
    expect(all.count).toBeGreaterThanOrEqual(55);
  });

  it('filters by prefix', async () => {
    const body = ListPagesResponseSchema.parse(await (await get('/api/v1/pages?prefix=blog/')).json());
    expect(body.count).toBeGreaterThanOrEqual(20);
    expect(body.pages.every((p) => p.slug.startsWith('blog/'))).toBe(true);
    expect(body).not.toHaveProperty('nextCursor');
  });

  it.each(['0', '101', 'abc', '1.5', '-1', ''])('answers 400 naming limit for limit=%s', async (limit) => {
    await expectError(await get(`/api/v1/pages?limit=${limit}`), 400, /limit/);
  });
});

describe('GET /api/v1/pages/{slug} (getPage)', () => {
  it('answers the Page as JSON with Vary, caching, CORS and a strong ETag honoured by If-None-Match', async () => {
    const res = await get('/api/v1/pages/product/storage');
    expect(res.status).toBe(200);
    expect(varyTokens(res.headers.get('vary'))).toContain('accept');
    expect(res.headers.get('cache-control')).toMatch(/max-age=300/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const page = PageSchema.parse(await res.json());
    expect(page.slug).toBe('product/storage');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/api/v1/pages/product/storage', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
  });

  it('answers markdown with Accept: text/markdown, the same bytes as the .md twin: front matter + the JSON markdown', async () => {
    const md = await get('/api/v1/pages/pricing', { Accept: 'text/markdown' });
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(varyTokens(md.headers.get('vary'))).toContain('accept');
    const text = await md.text();
    expect(text).toBe(await (await get('/pricing.md')).text());
    const json = PageSchema.parse(await (await get('/api/v1/pages/pricing')).json());
    expect(text).toBe(frontMatter(json) + json.markdown);
    expect(json.markdown).toMatch(/^# /);
  });

  it('404s with the Error body, or markdown when markdown was asked for; never 5xx on odd slugs', async () => {
    await expectError(await get('/api/v1/pages/no-such-page'), 404, /no-such-page/);
    const md = await get('/api/v1/pages/no-such-page', { Accept: 'text/markdown' });
    expect(md.status).toBe(404);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toContain('/llms.txt');
    for (const odd of ['UPPER', 'pricing.json', '..%2F..%2Fetc%2Fpasswd', '%E0%A4%A', 'a%00b', 'x'.repeat(3000)]) {
      const res = await get(`/api/v1/pages/${odd}`);
      expect(res.status, odd).toBe(404);
    }
  });
});

describe('markdown negotiation on page URLs', () => {
  it('answers /pricing with Accept: text/markdown with the bytes of /pricing.md, Vary on both variants', async () => {
    const negotiated = await get('/pricing', { Accept: 'text/markdown, text/html;q=0.5' });
    const twin = await get('/pricing.md');
    const html = await get('/pricing', { Accept: 'text/html, text/markdown;q=0.5' });
    expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await negotiated.text()).toBe(await twin.text());
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    for (const r of [negotiated, twin, html]) expect(varyTokens(r.headers.get('vary'))).toContain('accept');
  });

  it('gives the home page at / and /index.md', async () => {
    const md = await get('/', { Accept: 'text/markdown' });
    expect(await md.text()).toBe(await (await get('/index.md')).text());
  });
});

describe('GET /api/v1/search (searchSite)', () => {
  it('finds the storage product page first for "storage billing", every result holding every term', async () => {
    const res = await get('/api/v1/search?q=storage%20billing');
    expect(res.status).toBe(200);
    const body = SearchResponseSchema.parse(await res.json());
    expect(body.query).toBe('storage billing');
    expect(body.results[0]!.slug).toBe('product/storage');
    expect(body.count).toBe(body.results.length);
    const scores = body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const r of body.results) {
      const page = PageSchema.parse(await (await get(`/api/v1/pages/${r.slug}`)).json());
      const words = fold(`${page.title} ${page.description} ${page.markdown}`).split(/[^\p{L}\p{N}]+/u);
      for (const term of ['storage', 'billing'])
        expect(
          words.some((w) => w.startsWith(term)),
          `${r.slug} has ${term}`,
        ).toBe(true);
      expect(r.snippet).not.toMatch(/[#*|]/);
      expect(r.snippet.length).toBeLessThanOrEqual(170);
    }
  });

  it('honours limit and answers 400 for a missing, short or bad query', async () => {
    const body = SearchResponseSchema.parse(await (await get('/api/v1/search?q=moving&limit=3')).json());
    expect(body.count).toBe(3);
    await expectError(await get('/api/v1/search'), 400, /q/);
    await expectError(await get('/api/v1/search?q=a'), 400, /q/);
    await expectError(await get('/api/v1/search?q=%20%20a%20'), 400, /q/);
    await expectError(await get('/api/v1/search?q=moving&limit=51'), 400, /limit/);
    await expectError(await get('/api/v1/search?q=moving&limit=0'), 400, /limit/);
  });
});

describe('POST /api/v1/pages/batch (getPagesBatch)', () => {
  it('answers one result per slug in request order, duplicates kept, missing ones marked', async () => {
    const res = await post('/api/v1/pages/batch', JSON.stringify({ slugs: ['pricing', 'nope', 'index', 'pricing'] }));
    expect(res.status).toBe(200);
    const body = BatchResponseSchema.parse(await res.json());
    expect(body.results.map((r) => [r.slug, r.found])).toEqual([
      ['pricing', true],
      ['nope', false],
      ['index', true],
      ['pricing', true],
    ]);
    expect(body.results[1]).toHaveProperty('error', expect.stringMatching(/./));
    expect(body.results[0]).toHaveProperty('page.slug', 'pricing');
  });

  it.each([
    ['missing slugs', '{}'],
    ['empty slugs', '{"slugs":[]}'],
    ['51 slugs', JSON.stringify({ slugs: Array(51).fill('index') })],
    ['non-array slugs', '{"slugs":"index"}'],
    ['invalid JSON', '{"slugs":['],
    ['a JSON array body', '["index"]'],
    ['an empty body', ''],
  ])('answers 400 for %s', async (_, body) => {
    await expectError(await post('/api/v1/pages/batch', body), 400);
  });

  it('answers 405 for GET', async () => {
    await expectError(await get('/api/v1/pages/batch'), 405);
  });
});

describe('everything else', () => {
  it('is a real 404: HTML page, markdown with Accept: text/markdown, JSON under /api/', async () => {
    const html = await get('/no/such/page');
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const md = await get('/no/such/page', { Accept: 'text/markdown' });
    expect(md.status).toBe(404);
    const text = await md.text();
    for (const link of ['/llms.txt', '/sitemap.xml', '/openapi.json', '/api/v1/pages']) expect(text).toContain(link);
    await expectError(await get('/api/v2/pages'), 404);
  });

  it('ignores Authorization, never challenges, and has no OAuth metadata', async () => {
    const res = await get('/api/v1/pages?limit=1', { Authorization: 'Bearer nonsense' });
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    for (const p of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'])
      expect((await get(p)).status).toBe(404);
  });

  it('answers CORS preflight on the read API', async () => {
    const res = await fetch(`${server.url}/api/v1/search`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
