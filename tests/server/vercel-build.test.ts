/**
 * @module The Vercel build output (`npm run build:vercel` -> `.vercel/output`, Build Output API v3), checked
 * against the route table: the routes of config.json (redirects, middleware, filesystem, rewrites), every
 * function bundle loaded and called with real Requests, the middleware bundle (getPage, negotiation, 404s)
 * reading only what it carries, the static files of every page, and the header rules. Builds the output
 * first when it is missing or older than its sources (about 10-30 s; no network, no Vercel account).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { headerRules } from '../../src/contract/routes.ts';
import { machineFiles } from '../../src/contract/links.ts';
import { functionRoutes, operations } from '../../src/operations/index.ts';

const opOf = (id: string) => operations.find((op) => op.id === id)!;
import { crons, functionSettings } from '../../src/build/vercel-config.ts';
import {
  BatchResponseSchema,
  ErrorSchema,
  LeadAcceptedSchema,
  LeadValidationSchema,
  ListPagesResponseSchema,
  PageSchema,
  SearchResponseSchema,
} from '../../src/contract/schemas.ts';
import { dataFilesFor } from '../../src/adapters/content-files.ts';
import { MIDDLEWARE_DATA } from '../../middleware.ts';
import type { ContentData } from '../../src/core/content.ts';
import { createContractChecker, type ContractChecker } from '../helpers/contract-check.ts';
import { OUTPUT_DIR, ROOT, outputReason } from '../../server/vercel-build.ts';
import { config as middlewareConfig } from '../../middleware.ts';
import { frontMatter } from '../../src/core/markdown-doc.ts';

type Json = Record<string, any>;
type Handler = (request: Request) => Response | Promise<Response>;
interface Route {
  src?: string;
  dest?: string;
  status?: number;
  headers?: Record<string, string>;
  handle?: string;
  continue?: boolean;
  check?: boolean;
  middlewarePath?: string;
  middlewareRawSrc?: string[];
}

const STATIC = join(OUTPUT_DIR, 'static');
const FUNCTIONS = join(OUTPUT_DIR, 'functions');
const CLIENT = { 'x-real-ip': '203.0.113.7' };
const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals', intent: 'demo' };

let config: { routes: Route[]; crons?: unknown };
let content: ContentData;
let checker: ContractChecker;
const envBefore = { ...process.env };
const varDir = mkdtempSync(join(tmpdir(), 'kartage-vercel-'));

/** Settings that would send the bundles to real stores, sinks or hosts: unset for this file. */
const APP_ENV =
  /^(UPSTASH_|KV_|HUBSPOT_|LEAD_|SALES_WEBHOOK_URL$|CRON_SECRET$|VERCEL$|VERCEL_|MCP_ALLOWED_HOSTS$|KARTAGE_DATA_DIR$|KARTAGE_VAR_DIR$)/;
/** The build runs as `npm run build:vercel` would from a shell: without the test runner's variables. */
const BUILD_ENV = /^(VITEST|NODE_ENV$|MODE$|TEST$)/;
const without = (env: NodeJS.ProcessEnv, re: RegExp) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !re.test(k)));

beforeAll(() => {
  const reason = outputReason();
  if (reason) {
    // What `npm run build:vercel` runs, on this Node.
    // ANALYTICS=off: `vercel build` sets VERCEL, which turns the pages' analytics on, and its build command
    // writes dist/, which the browser tests then serve as the local build (analytics off). The pages with them
    // are tested by tests/e2e/analytics.spec.ts, on a build of their own.
    const env = { ...without(without(process.env, APP_ENV), BUILD_ENV), ANALYTICS: 'off' };
    const r = spawnSync(process.execPath, [join(ROOT, 'server', 'vercel-build.ts')], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0)
      throw new Error(`npm run build:vercel failed (${reason}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  }
  config = JSON.parse(readFileSync(join(OUTPUT_DIR, 'config.json'), 'utf8'));
  // The checkout's full content data (the bundles carry only their parts of it).
  content = JSON.parse(readFileSync(join(ROOT, 'build', 'content.json'), 'utf8'));
  checker = createContractChecker(content.origin);
  for (const k of Object.keys(process.env)) if (APP_ENV.test(k)) delete process.env[k];
  process.env.KARTAGE_VAR_DIR = varDir;
}, 600_000);

afterAll(() => {
  for (const k of Object.keys(process.env)) if (APP_ENV.test(k)) delete process.env[k];
  for (const [k, v] of Object.entries(envBefore)) if (APP_ENV.test(k)) process.env[k] = v;
  rmSync(varDir, { recursive: true, force: true });
});

// --- config.json routing, as Vercel evaluates it ------------------------------------------------------

const index = (pred: (r: Route) => boolean) => config.routes.findIndex(pred);
const matches = (r: Route, path: string) => r.src !== undefined && new RegExp(r.src).test(path);
const middlewareRoute = () => config.routes[index((r) => r.middlewarePath !== undefined)]!;

/** The first redirect before the middleware that fires for `path`. */
function redirectOf(path: string): Route | undefined {
  const mw = index((r) => r.middlewarePath !== undefined);
  return config.routes.slice(0, mw).find((r) => r.status && r.status >= 300 && r.status < 400 && matches(r, path));
}

/** `found(path)`, else `found` of the first rewrite after the filesystem that matches `path` and finds something. */
function viaRewrites(path: string, found: (p: string) => string | undefined): string | undefined {
  const hit = found(path);
  if (hit) return hit;
  const after = config.routes.slice(
    index((r) => r.handle === 'filesystem') + 1,
    index((r) => r.handle === 'error'),
  );
  for (const r of after) {
    if (!r.dest || !matches(r, path)) continue;
    const dest = found(path.replace(new RegExp(r.src!), r.dest));
    if (dest) return dest;
  }
  return undefined;
}

/** The function directory that answers `path` after the filesystem: its own, or through the rewrites. */
function functionFor(path: string): string | undefined {
  return viaRewrites(path, (p) =>
    [join(FUNCTIONS, `${p}.func`), join(FUNCTIONS, p, 'index.func')].find((d) => existsSync(d)),
  );
}

/** The static file `path` is served from: the file itself, or the first rewrite after the filesystem that hits one. */
function staticFor(path: string): string | undefined {
  return viaRewrites(path, (p) => {
    const full = join(STATIC, p === '/' ? 'index.html' : p);
    return statSync(full, { throwIfNoEntry: false })?.isFile() ? full : undefined;
  });
}

/** Response headers the header routes give `path` (later routes override earlier ones, names case-insensitive). */
function headersFor(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of config.routes.slice(
    0,
    index((r) => r.middlewarePath !== undefined),
  )) {
    if (!r.headers || r.status || !matches(r, path)) continue;
    for (const [k, v] of Object.entries(r.headers)) out[k.toLowerCase()] = v;
  }
  return out;
}

const FUNCTION_PATHS = functionRoutes().map((r) => r.path);
const GET_PAGE_PATHS = [
  '/api/v1/pages/pricing',
  '/api/v1/pages/index',
  '/api/v1/pages/blog/planning-for-peak-season',
  '/api/v1/pages/nope',
];
const PAGE_PATHS = ['/', '/pricing', '/blog', '/blog/planning-for-peak-season', '/product/quoting', '/no-such-page'];
/** Published files the middleware never sees: the machine-readable files (a `.md` one gets its markdown headers). */
const PUBLISHED = [
  ...machineFiles()
    .map((f) => f.path)
    .filter((p) => !p.endsWith('.md')),
  '/favicon.svg',
  '/_astro/x.js',
  '/_astro/x.css',
  '/pagefind/pagefind.js',
  '/pagefind/wasm.en.pagefind',
];

describe('config.json routes', () => {
  it('runs the middleware before the filesystem, then the rewrites, then real 404s', () => {
    const mw = index((r) => r.middlewarePath !== undefined);
    const fs = index((r) => r.handle === 'filesystem');
    expect(mw).toBeGreaterThanOrEqual(0);
    expect(mw).toBeLessThan(fs);
    expect(middlewareRoute()).toMatchObject({ middlewarePath: 'middleware', continue: true });
    expect(existsSync(join(FUNCTIONS, 'middleware.func', '.vc-config.json'))).toBe(true);
    expect(config.routes.slice(fs)).toContainEqual({ src: '^/api(/.*)?$', status: 404 });
  });

  it('sends no contract path to a redirect before the middleware (getPage of the home page included)', () => {
    for (const p of [...FUNCTION_PATHS, ...GET_PAGE_PATHS, '/api/v1/sandbox']) expect(redirectOf(p), p).toBeUndefined();
    expect(redirectOf('/pricing.html')).toMatchObject({ status: 308, headers: { Location: '/$1' } });
    expect(redirectOf('/index.html')).toMatchObject({ status: 308, headers: { Location: '/' } });
    expect(redirectOf('/404.html')).toBeUndefined();
    expect(redirectOf('/pricing/')).toMatchObject({ status: 308 });
  });

  it('redirects nothing to another origin, whether routes see the raw or the decoded path', () => {
    const hostile = [
      '//evil.example/../pricing.html',
      '//evil.example/pricing.html',
      '/\\evil.example/pricing.html',
      '//evil.example/',
    ];
    for (const p of [...hostile, ...hostile.map((h) => `/${encodeURIComponent(h.slice(1))}`)]) {
      const r = redirectOf(p);
      if (!r) continue;
      const location = p.replace(new RegExp(r.src!), r.headers!.Location!);
      expect(location, `${p} -> ${location}`).toMatch(/^\/(?![/\\])/);
    }
  });

  it('sends percent-encoded paths through the middleware (so /%61pi/v1/pages/x.json is metered)', () => {
    for (const p of [
      '/%61pi/v1/pages/pricing.json',
      '/%2561pi/v1/pages/pricing.json',
      '/api%2Fv1%2Fpages%2Fpricing.json',
    ]) {
      expect(matches(middlewareRoute(), p), p).toBe(true);
    }
  });

  it('the middleware matcher is narrow: getPage, pages, unknown API paths and unpublished extensions only', () => {
    const mw = middlewareRoute();
    const twins = ['/pricing.md', '/index.md', '/blog/planning-for-peak-season.md'];
    for (const p of [...GET_PAGE_PATHS, ...PAGE_PATHS, ...twins, '/api/v2/pages', '/api/v1/nope', '/wp-login.php']) {
      expect(matches(mw, p), p).toBe(true);
    }
    for (const p of [...FUNCTION_PATHS, '/api/mcp', ...PUBLISHED]) expect(matches(mw, p), p).toBe(false);
    // The source matcher read as URLPatterns (as the local server reads patterns) agrees with the built regex.
    const patterns = middlewareConfig.matcher.map((m) => new URLPattern({ pathname: m }));
    for (const p of [
      ...GET_PAGE_PATHS,
      ...PAGE_PATHS,
      ...FUNCTION_PATHS,
      ...PUBLISHED,
      ...twins,
      '/wp-login.php',
      '/a.b/c',
      '/.well-known/x',
    ]) {
      expect(
        patterns.some((u) => u.test({ pathname: p })),
        p,
      ).toBe(matches(mw, p));
    }
    expect(mw.middlewareRawSrc).toEqual(middlewareConfig.matcher);
  });

  it('routes every function operation of the route table to its function', () => {
    for (const r of functionRoutes()) {
      expect(functionFor(r.path), r.path).toBe(join(FUNCTIONS, 'api', `${r.fn}.func`));
    }
  });

  it('declares the crons of the operations', () => {
    expect(config.crons).toEqual(crons());
    expect(config.crons).toEqual([{ path: '/api/cron/leads-flush', schedule: '*/10 * * * *' }]);
  });
});

describe('header rules', () => {
  it('are the route table header rules, in order, with the same matching', () => {
    const mw = index((r) => r.middlewarePath !== undefined);
    const built = config.routes
      .slice(0, mw)
      .filter((r) => r.headers && r.continue && !r.status)
      .slice(-headerRules.length);
    expect(built.map((r) => r.headers)).toEqual(headerRules.map((r) => r.headers));
    const samples = [
      '/',
      '/pricing',
      '/blog/x',
      '/pricing.md',
      '/llms.txt',
      '/openapi.json',
      '/openapi.yaml',
      '/sitemap.xml',
      '/.well-known/mcp.json',
      '/.well-known/api-catalog',
      '/api/v1/sandbox',
      '/api/v1/pages/pricing',
      '/_astro/a.js',
      '/pagefind/pagefind.js',
      '/favicon.svg',
    ];
    headerRules.forEach((rule, i) => {
      const pattern = new URLPattern({ pathname: rule.source });
      for (const p of samples)
        expect(matches(built[i]!, p), `${rule.source} on ${p}`).toBe(pattern.test({ pathname: p }));
    });
  });

  it('give HTML the security headers and static files their types, caching and CORS', () => {
    const html = headersFor('/pricing');
    expect(html['content-security-policy']).toMatch(/default-src 'self'.*script-src 'self' 'wasm-unsafe-eval'/);
    expect(html).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      vary: 'Accept, User-Agent',
    });
    expect(html['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(headersFor('/pricing.md')).toMatchObject({
      'content-type': 'text/markdown; charset=utf-8',
      vary: 'Accept',
      'access-control-allow-origin': '*',
    });
    expect(headersFor('/llms.txt')).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
    });
    expect(headersFor('/openapi.yaml')).toMatchObject({
      'content-type': 'application/yaml; charset=utf-8',
      'access-control-allow-origin': '*',
    });
    expect(headersFor('/_astro/a.js')['cache-control']).toBe('public, max-age=31536000, immutable');
    // Every answer carries the security headers, not only pages (a 404 page at `/x.php`, SVG, JSON).
    for (const p of ['/pricing.md', '/x.php', '/favicon.svg', '/api/v1/pages/pricing', '/api/lead']) {
      expect(headersFor(p), p).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
      expect(headersFor(p)['content-security-policy'], p).toContain("frame-ancestors 'none'");
      expect(headersFor(p)['strict-transport-security'], p).toMatch(/max-age=\d+/);
    }
  });
});

describe('static files', () => {
  it('has every page, its markdown twin and its JSON, and serves the page at its clean URL', () => {
    expect(content.pages.length).toBeGreaterThan(10);
    for (const page of content.pages) {
      const json = join(STATIC, 'api', 'v1', 'pages', `${page.slug}.json`);
      const twin = join(STATIC, `${page.slug}.md`);
      expect(existsSync(join(STATIC, `${page.slug}.html`)), `${page.slug}.html`).toBe(true);
      expect(existsSync(twin), `${page.slug}.md`).toBe(true);
      expect(existsSync(json), `${page.slug}.json`).toBe(true);
      const data = PageSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(data.slug).toBe(page.slug);
      expect(frontMatter(data) + data.markdown, page.slug).toBe(readFileSync(twin, 'utf8'));
      const url = page.slug === 'index' ? '/' : `/${page.slug}`;
      expect(staticFor(url), url).toBe(join(STATIC, `${page.slug}.html`));
    }
  });

  it('has every file the edge step counts as existing, and the aliased static files', () => {
    for (const f of content.files) expect(existsSync(join(STATIC, f)), f).toBe(true);
    expect(staticFor('/api/v1/sandbox')).toBe(join(STATIC, 'api', 'v1', 'sandbox.json'));
    expect(staticFor('/.well-known/api-catalog')).toBe(join(STATIC, '.well-known', 'api-catalog.json'));
    expect(staticFor('/no-such-page')).toBeUndefined();
  });
});

// --- the bundles --------------------------------------------------------------------------------------

function vcConfig(dir: string): Json {
  return JSON.parse(readFileSync(join(dir, '.vc-config.json'), 'utf8'));
}
async function load(dir: string): Promise<Record<string, Handler>> {
  return (await import(pathToFileURL(join(dir, vcConfig(dir).handler)).href)) as Record<string, Handler>;
}
const fnDir = (id: string) => join(FUNCTIONS, 'api', `${functionRoutes().find((r) => r.id === id)!.fn}.func`);

/** Calls a function's export for the request's method, recording the answer for the contract check. */
async function call(id: string, request: Request): Promise<Response> {
  const mod = await load(fnDir(id));
  const handler = mod[request.method];
  expect(handler, `${id} exports ${request.method}`).toBeTypeOf('function');
  const response = await handler!(request);
  checker.inspect(request, response.clone());
  return response;
}
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { headers: { ...CLIENT, ...headers } });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { ...CLIENT, 'Content-Type': 'application/json', ...headers },
  });

describe('function bundles', () => {
  it('each is a Node 24 function with its settings and the data files it reads', () => {
    for (const r of functionRoutes()) {
      const dir = fnDir(r.id);
      const vc = vcConfig(dir);
      expect(vc, r.id).toMatchObject({
        runtime: 'nodejs24.x',
        launcherType: 'Nodejs',
        memory: functionSettings(opOf(r.id)).memory,
        maxDuration: functionSettings(opOf(r.id)).maxDuration,
      });
      expect(existsSync(join(dir, vc.handler)), `${r.id} handler`).toBe(true);
      // includeFiles: the data files of what the operation reads, mapped from the checkout into the
      // function's root at deploy time; nothing else of build/ (no content.json, no other need's files).
      const wanted = dataFilesFor(opOf(r.id).data).map((f) => `build/${f}`);
      const shipped = Object.keys(vc.filePathMap ?? {})
        .filter((f) => f.startsWith('build/'))
        .sort();
      expect(shipped, r.id).toEqual(wanted);
      for (const f of wanted) expect(existsSync(join(ROOT, f)), f).toBe(true);
    }
  });

  it('listPages answers 200 {count, pages}', async () => {
    const res = await call('listPages', get('/api/v1/pages?limit=3'));
    expect(res.status).toBe(200);
    const body = ListPagesResponseSchema.parse(await res.json());
    expect(body.pages).toHaveLength(3);
    expect(res.headers.get('ratelimit-limit')).toBe('120');
    expect(res.headers.get('cache-control')).toMatch(/^private/);
  });

  it('search answers 200 with ranked results', async () => {
    const res = await call('searchSite', get('/api/v1/search?q=storage%20billing'));
    expect(res.status).toBe(200);
    const body = SearchResponseSchema.parse(await res.json());
    expect(body.results.length).toBeGreaterThan(0);
  });

  it('batch answers 200 with one result per slug', async () => {
    const res = await call('getPagesBatch', post('/api/v1/pages/batch', { slugs: ['pricing', 'no-such-page'] }));
    expect(res.status).toBe(200);
    const body = BatchResponseSchema.parse(await res.json());
    expect(body.results.map((r) => [r.slug, r.found])).toEqual([
      ['pricing', true],
      ['no-such-page', false],
    ]);
  });

  it('validateLead answers 200 for a good lead and 422 with the problems for a bad one', async () => {
    const good = await call('validateLead', post('/api/v1/lead/validate', LEAD));
    expect(good.status).toBe(200);
    expect(LeadValidationSchema.parse(await good.json())).toMatchObject({
      sandbox: true,
      wouldSubmit: true,
      problems: [],
    });
    const bad = await call('validateLead', post('/api/v1/lead/validate', { name: 'Sam Taylor' }));
    expect(bad.status).toBe(422);
    const body = LeadValidationSchema.parse(await bad.json());
    expect(body.wouldSubmit).toBe(false);
    expect(body.problems.map((p) => p.field)).toContain('email');
  });

  it('submitLead answers 200 and records the lead (the local lead table in KARTAGE_VAR_DIR/kartage.db)', async () => {
    const res = await call('submitLead', post('/api/lead', LEAD, { 'Idempotency-Key': 'vercel-output-test-1' }));
    expect(res.status).toBe(200);
    expect(LeadAcceptedSchema.parse(await res.json())).toEqual({ ok: true });
    expect(readLeads(join(varDir, 'kartage.db')).some((l) => l.lead.email === 'sam@harbourline.example')).toBe(true);
  });

  it('mcp answers initialize with 200 at /mcp (the URL a rewritten request keeps) and GET with 405', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'vercel-output-test', version: '1.0.0' },
      },
    };
    for (const path of ['/mcp', '/api/mcp']) {
      const res = await call('mcp', post(path, init, { Accept: 'application/json, text/event-stream' }));
      expect(res.status, path).toBe(200);
      const body = (await res.json()) as Json;
      expect(body.result?.serverInfo?.name, path).toBeTypeOf('string');
    }
    const res = await call('mcp', get('/mcp'));
    expect(res.status).toBe(405);
    ErrorSchema.parse(await res.json());
  });

  it('leads-flush answers 404 without the cron secret, and runs with it', async () => {
    // The function reads its environment once, on its first request: the secret is set before it.
    process.env.CRON_SECRET = 'test-cron-secret';
    try {
      const res = await call('leadsFlush', get('/api/cron/leads-flush'));
      expect(res.status).toBe(404);
      expect(ErrorSchema.parse(await res.json()).status).toBe(404);
      expect((await call('leadsFlush', get('/api/cron/leads-flush', { Authorization: 'Bearer wrong' }))).status).toBe(
        404,
      );
      const ok = await call('leadsFlush', get('/api/cron/leads-flush', { Authorization: 'Bearer test-cron-secret' }));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ delivered: expect.any(Number), remaining: expect.any(Number) });
    } finally {
      delete process.env.CRON_SECRET;
    }
  });
});

describe('middleware bundle', () => {
  const dir = join(FUNCTIONS, 'middleware.func');
  const cwd = process.cwd();
  let middleware: Handler;

  beforeAll(async () => {
    // The bundle must carry its data: run it away from the checkout's build/ folder.
    process.chdir(varDir);
    middleware = (await load(dir)).default!;
  });
  afterAll(() => process.chdir(cwd));

  it('is a Node 24 web-API middleware that carries the data files of its needs (one entry, the static paths)', () => {
    expect(vcConfig(dir)).toMatchObject({ handler: 'middleware.js', runtime: 'nodejs24.x', useWebApi: true });
    const wanted = dataFilesFor(['entry', 'files']);
    expect(MIDDLEWARE_DATA.map((u) => basename(u.pathname)).sort()).toEqual(wanted);
    const carried = readdirSync(join(dir, 'build')).sort();
    expect(carried).toEqual(wanted);
    expect(middleware).toBeTypeOf('function');
  });

  it('getPage: meters the read and rewrites to the per-page JSON file, which exists', async () => {
    for (const slug of ['pricing', 'index', 'blog/planning-for-peak-season']) {
      const res = await middleware(get(`/api/v1/pages/${slug}`));
      const target = new URL(res.headers.get('x-middleware-rewrite')!);
      expect(target.pathname, slug).toBe(`/api/v1/pages/${slug}.json`);
      const file = staticFor(target.pathname)!;
      expect(file, slug).toBe(join(STATIC, 'api', 'v1', 'pages', `${slug}.json`));
      expect(PageSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).slug).toBe(slug);
      // What the client gets: the static file with the middleware's headers.
      const headers = new Headers([...res.headers].filter(([k]) => !k.startsWith('x-middleware-')));
      checker.inspect(get(`/api/v1/pages/${slug}`), new Response(readFileSync(file), { status: 200, headers }));
      expect(res.headers.get('ratelimit-limit')).toBe('120');
      expect(res.headers.get('ratelimit-policy')).toBe('120;w=60');
      expect(res.headers.get('cache-control')).toMatch(/^private/);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('vary')).toBe('Accept');
    }
  });

  it('getPage with Accept: text/markdown rewrites to the twin; an unknown slug is a 404 Error', async () => {
    const md = await middleware(get('/api/v1/pages/pricing', { Accept: 'text/markdown' }));
    expect(new URL(md.headers.get('x-middleware-rewrite')!).pathname).toBe('/pricing.md');
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const missing = await middleware(get('/api/v1/pages/no-such-page'));
    checker.inspect(get('/api/v1/pages/no-such-page'), missing.clone());
    expect(missing.status).toBe(404);
    expect(ErrorSchema.parse(await missing.json()).status).toBe(404);
    expect(missing.headers.get('ratelimit-remaining')).not.toBeNull();
  });

  it('negotiates markdown on page URLs and passes HTML through with Vary: Accept', async () => {
    const md = await middleware(get('/pricing', { Accept: 'text/markdown' }));
    const twin = new URL(md.headers.get('x-middleware-rewrite')!).pathname;
    expect(twin).toBe('/pricing.md');
    expect(staticFor(twin)).toBe(join(STATIC, 'pricing.md'));
    const html = await middleware(get('/pricing', { Accept: 'text/html' }));
    expect(html.headers.get('x-middleware-next')).toBe('1');
    expect(html.headers.get('vary')).toBe('Accept, User-Agent');
    expect(html.headers.get('link')).toContain('</pricing.md>; rel="alternate"; type="text/markdown"');
    const agent = await middleware(get('/pricing', { 'User-Agent': 'ClaudeBot/1.0' }));
    expect(new URL(agent.headers.get('x-middleware-rewrite')!).pathname).toBe('/pricing.md');
    expect(html.headers.get('ratelimit-limit')).toBeNull(); // the site is not metered
  });

  it('answers real 404s: JSON for unknown API paths, markdown when markdown is asked for', async () => {
    const api = await middleware(get('/api/v2/pages'));
    expect(api.status).toBe(404);
    expect(ErrorSchema.parse(await api.json()).status).toBe(404);
    for (const path of ['/no-such-page', '/wp-login.php']) {
      const res = await middleware(get(path, { Accept: 'text/markdown' }));
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await res.text()).toMatch(/^# Not found/);
    }
  });
});

describe('the contract', () => {
  it('every answer above kept the OpenAPI document (status, required headers, content type, body)', async () => {
    expect(await checker.violations()).toEqual([]);
    expect(checker.checked()).toBeGreaterThanOrEqual(8);
  });
});

describe('what ships', () => {
  it('no bundle carries local state (var/: the local lead file and outbox)', () => {
    const bundles = readdirSync(FUNCTIONS, { recursive: true, withFileTypes: true }).filter(
      (e) => e.isDirectory() && e.name.endsWith('.func'),
    );
    expect(bundles.length).toBeGreaterThan(5);
    for (const b of bundles) expect(existsSync(join(b.parentPath, b.name, 'var')), b.name).toBe(false);
  });
});
