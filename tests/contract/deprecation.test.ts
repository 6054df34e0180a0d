/**
 * The deprecation machinery, proven with a test-only route: an old search path marked deprecated in the
 * route table answers with Deprecation, Sunset and Link rel="deprecation", and is `deprecated: true` in
 * the OpenAPI document, while the live operations stay undeprecated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteSpec } from '../../src/contract/routes.ts';
import { deprecationHeaders } from '../../src/core/deprecation.ts';
import { send } from '../helpers/http.ts';

const testRoute: RouteSpec = {
  id: 'searchSiteOld', path: '/api/v1/find', methods: ['GET'], serve: 'function', fn: 'v1/search', like: 'searchSite',
  meter: 'read', cache: 'metered', cors: true, summary: 'The old search path (test-only).',
  deprecated: { since: '2026-11-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z', link: 'https://kartage.com.au/api-deprecation-policy' },
};
// Added before the server modules load, as if the table had it (this file runs in its own worker).
(routes as unknown as RouteSpec[]).push(testRoute);

let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  const { startTestServer } = await import('../helpers/server.ts');
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('deprecation', () => {
  it('formats the headers per RFC 9745 and RFC 8594', () => {
    expect(deprecationHeaders(testRoute.deprecated!)).toEqual({
      Deprecation: '@1793491200',
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      Link: '<https://kartage.com.au/api-deprecation-policy>; rel="deprecation"; type="text/html"',
    });
  });

  it('a deprecated route answers with the headers; the live operations do not', async () => {
    const old = await send(`${server.url}/api/v1/find?q=storage`);
    expect(old.status).toBe(200);
    expect(old.headers.deprecation).toBe('@1793491200');
    expect(old.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(old.headers.link).toContain('rel="deprecation"');
    expect(old.json().results.length).toBeGreaterThan(0);
    for (const path of ['/api/v1/search?q=storage', '/api/v1/pages', '/api/v1/pages/pricing']) {
      const r = await send(`${server.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.deprecation, path).toBeUndefined();
    }
  });

  it('the OpenAPI document marks exactly the deprecated operation', async () => {
    const { buildOpenApi } = await import('../../src/contract/openapi.ts');
    const doc = buildOpenApi('https://kartage.com.au') as { paths: Record<string, Record<string, { operationId: string; deprecated?: boolean }>> };
    expect(doc.paths['/api/v1/find']!.get).toMatchObject({ operationId: 'searchSiteOld', deprecated: true });
    const deprecated = Object.values(doc.paths).flatMap((p) => Object.values(p)).filter((op) => op.deprecated);
    expect(deprecated.map((op) => op.operationId)).toEqual(['searchSiteOld']);
  });
});
