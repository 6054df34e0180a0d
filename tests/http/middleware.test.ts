/**
 * The middleware, as Vercel runs it (middleware.ts binds it) and as the local server runs it for the same
 * matcher: getPage through the pipeline, the real 404s, page negotiation, and failing open. Over a small
 * hand-made site (tests/helpers/content-set.ts), so no build is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { createMiddleware } from '../../src/http/middleware.ts';
import { matchOperation, routes } from '../../src/operations/index.ts';
import { runOperation } from '../../src/http/pipeline.ts';
import { leadsFlush } from '../../src/operations/leads-flush.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { writeContentSet } from '../helpers/content-set.ts';
import { send } from '../helpers/http.ts';
import { watchedLog } from '../helpers/test-log.ts';

const site = writeContentSet();
const watch = watchedLog();
const base = createDeps({ env: process.env, dataDir: site.dataDir, store: createMemoryStore(), log: watch.log });
let broken = false;
/** The site's dependencies, whose content fails to load while `broken` is set (the rest read from `base`). */
const flaky: Deps = Object.create(base, {
  content: {
    get: () => {
      if (broken) throw new Error('content unreadable (test)');
      return base.content;
    },
  },
});
const request = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost:4321${path}`, { headers: { 'x-real-ip': '203.0.113.7', ...headers } });

describe('createMiddleware', () => {
  const middleware = createMiddleware({ matchOperation, routes }, () => flaky);

  it('serves getPage from its prebuilt file through the pipeline (metered), and 404s unknown slugs', async () => {
    const ok = await middleware(request('/api/v1/pages/pricing'));
    expect(ok.headers.get('x-middleware-rewrite')).toBe('http://localhost:4321/api/v1/pages/pricing.json');
    expect(ok.headers.get('ratelimit-policy')).toBe('120;w=60');
    const md = await middleware(request('/api/v1/pages/pricing', { accept: 'text/markdown' }));
    expect(md.headers.get('x-middleware-rewrite')).toBe('http://localhost:4321/pricing.md');
    const missing = await middleware(request('/api/v1/pages/nope'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toMatch(/^private/);
  });

  it('passes a function operation on (a matcher that does not leave its path out costs a call, nothing else)', async () => {
    for (const path of ['/api/v1/search?q=storage', '/api/lead', '/mcp', '/api/v1/sandbox']) {
      expect((await middleware(request(path))).headers.get('x-middleware-next'), path).toBe('1');
    }
  });

  it('one not-found for unknown API paths, JSON or markdown', async () => {
    const json = await middleware(request('/api/v2/nope'));
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: 'No API endpoint at /api/v2/nope. See /openapi.json.', status: 404 });
    const md = await middleware(request('/api/v2/nope', { accept: 'text/markdown' }));
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
  });

  it('fails open: pages go on to the static files, API paths get the Error body', async () => {
    watch.expectErrors();
    broken = true;
    try {
      const page = await middleware(request('/pricing'));
      expect(page.headers.get('x-middleware-next')).toBe('1');
      const api = await middleware(request('/api/v1/pages/pricing', { 'x-request-id': 'mw-1' }));
      expect(api.status).toBe(500);
      expect((await api.json()).error).toContain('reference mw-1');
    } finally {
      broken = false;
    }
  });
});

describe('the local server runs the same middleware', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, root: site.root, deps: flaky, log: watch.serverLog });
  });
  afterAll(() => server?.close());

  it('fails open over HTTP as on Vercel; a 500 quotes the X-Request-Id it is sent with', async () => {
    watch.expectErrors();
    broken = true;
    try {
      const page = await send(`${server.url}/pricing`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const api = await send(`${server.url}/api/v1/pages/pricing`);
      expect(api.status).toBe(500);
      expect(api.json().error).toContain(`reference ${api.headers['x-request-id']}`);
    } finally {
      broken = false;
    }
  });
});

describe('leadsFlush', () => {
  it('is a 404 like any unknown path when no cron secret is configured, whatever is sent', async () => {
    const d = createDeps({ env: {}, store: createMemoryStore(), log: watch.log });
    const r = await runOperation(leadsFlush, request('/api/cron/leads-flush', { authorization: 'Bearer x' }), d);
    expect(r.status).toBe(404);
    expect((await r.json()).status).toBe(404);
  });
});
