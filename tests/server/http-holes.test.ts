/**
 * HTTP-level holes found by a red-team pass over `npm start`, each over a real socket on the
 * local server: open redirects from the path normaliser, double percent-decoding around the metered
 * getPage files, cross-site lead creation, form posts answered as HTML to API clients, shared-cacheable
 * metered answers, and answers without the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createSqliteSink, createSqliteStore, readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { ErrorSchema, LeadAcceptedSchema } from '../../src/contract/schemas.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { PROJECT_ROOT, type RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';
import { rawExchange, timedRequest, type RawAnswer } from '../helpers/raw-http.ts';

let server: RunningServer;
let host: string;
let port: number;
let dbFile: string;

/** A fresh source address on loopback for each use: every request gets its own budgets. */
let clientN = 0;
const nextClient = () => `127.13.${1 + Math.floor(++clientN / 250)}.${(clientN % 250) + 2}`;

/** GET of a request target written byte for byte (no client-side normalisation of `..` or `%2F`). */
const rawGet = (target: string, from = nextClient(), headers: Record<string, string> = {}) => {
  const all = { Host: `${host}:${port}`, ...headers, Connection: 'close' };
  const head = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return rawExchange({ host, port, from, bytes: Buffer.from(`GET ${target} HTTP/1.1\r\n${head}\r\n`, 'latin1') });
};

const expectError = (ans: RawAnswer, status: number) => {
  expect(ans.status).toBe(status);
  expect(ans.headers['content-type']).toMatch(/^application\/json/);
  expect(ErrorSchema.parse(ans.json()).status).toBe(status);
};

const leads = async () => readLeads(dbFile);

/**
 * One fixed instant a second into a minute for the server and its store: a test below spends the whole read
 * budget (up to the 429), which on the real clock a run straddling a minute would not reach.
 */
const FIXED_NOW = Date.UTC(2026, 10, 23, 10, 0, 1);

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kartage-holes-'));
  dbFile = join(dir, 'kartage.db');
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createSqliteStore({ file: dbFile, now: () => FIXED_NOW }),
    sink: createSqliteSink(dbFile),
    log: () => {},
    now: () => FIXED_NOW,
  });
  server = await startTestServer({ deps });
  const u = new URL(server.url);
  host = u.hostname;
  port = Number(u.port);
});
afterAll(async () => {
  await server?.close();
});

describe('redirects stay on this origin', () => {
  const hostile = [
    '/%2F%2Fevil.example%2F..%2Fpricing.html',
    '/%2f%2fevil.example/..%2fpricing.html',
    '/%5C%5Cevil.example%2F..%2Fpricing.html',
    '/%5Cevil.example%2F..%2Fpricing.html',
    '/%2F%5Cevil.example%2F..%2Fpricing.html',
    '//evil.example/../pricing.html',
    '/%2E%2E/%2F%2Fevil.example/..%2F..%2Fpricing.html',
    '/pricing%2F..%2F%2Fevil.example%2F..%2Fpricing.html',
    '/x/..%2F%2Fevil.example%2F..%2F..%2Fpricing.html',
  ];
  for (const target of hostile) {
    it(`${target} is not sent to another origin`, async () => {
      const ans = await rawGet(target);
      const location = ans.headers.location;
      if (location !== undefined) {
        expect(location, target).toMatch(/^\/(?![/\\])/);
        expect(new URL(location, 'https://kartage.example').origin).toBe('https://kartage.example');
      }
      expect(ans.status).not.toBe(500);
    });
  }

  it('a plain .html URL still redirects to its clean URL, query kept', async () => {
    const ans = await rawGet('/pricing.html?a=1');
    expect(ans.status).toBe(308);
    expect(ans.headers.location).toBe('/pricing?a=1');
    expect((await rawGet('/index.html')).headers.location).toBe('/');
  });

  it('a percent-encoded .html redirects to the page itself, not to a cut escape', async () => {
    for (const spelling of ['%2Ehtml', '%2ehtml', '.%68tml', '%2E%68%74%6D%6C', '.htm%6C']) {
      const ans = await rawGet(`/pricing${spelling}?a=1`);
      expect(ans.status, spelling).toBe(308);
      expect(ans.headers.location, spelling).toBe('/pricing?a=1');
    }
    expect((await rawGet('/index%2Ehtml')).headers.location).toBe('/');
    // An encoded character before the suffix stays as it was sent.
    expect((await rawGet('/prici%6Eg%2Ehtml')).headers.location).toBe('/prici%6Eg');
  });
});

describe('the per-page JSON files are reachable only through metered getPage', () => {
  const spellings = [
    '/%2561pi/v1/pages/pricing.json',
    '/%61pi/v1/pages/pricing.json',
    '/api%2Fv1%2Fpages%2Fpricing.json',
    '/api/v1/pages/pricing.json',
    '/api/v1/%2570ages/pricing.json',
    '/api/v1/pages/%2570ricing.json',
    '/api//v1/pages/pricing.json',
    '/api/v1//pages/pricing.json',
    '/api/v1/pages//pricing.json',
    '/api/v1/x/../pages/pricing.json',
    '/api/v1/x/%2E%2E/pages/pricing.json',
    '/api/v1/x%2F..%2Fpages/pricing.json',
    '/API/v1/pages/pricing.json',
    '/api/v1/pages%2Fpricing.json',
  ];
  for (const target of spellings) {
    it(`${target} never serves the page JSON unmetered`, async () => {
      const ans = await rawGet(target);
      const servedPage = ans.status === 200 && /"slug"\s*:\s*"pricing"/.test(ans.text);
      if (servedPage || ans.status === 304) expect(ans.headers['ratelimit-remaining'], target).toBeDefined();
      expect(ans.status).not.toBe(500);
    });
  }

  it('a double-encoded spelling is not served, and every getPage counts against the budget', async () => {
    const from = nextClient();
    expect((await rawGet('/%2561pi/v1/pages/pricing.json', from)).status).toBe(404);
    const first = await rawGet('/api/v1/pages/pricing', from);
    expect(first.status).toBe(200);
    expect(Number(first.headers['ratelimit-remaining'])).toBe(LIMITS.read.limit - 1);
  });
});

describe('cross-site lead creation', () => {
  const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' };
  const form = new URLSearchParams(lead).toString();
  const FORM = 'application/x-www-form-urlencoded';
  const EVIL = 'https://evil.example';
  const TEXT = 'text/plain;charset=UTF-8';
  const MULTIPART = 'multipart/form-data; boundary=b';
  const multipart = `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nSam\r\n--b--\r\n`;
  const post = (body: string, headers: Record<string, string>) =>
    timedRequest(`${server.url}/api/lead`, { method: 'POST', body, headers, from: nextClient() });

  const refusals: [string, string, Record<string, string>][] = [
    ['a form post from another origin', form, { 'Content-Type': FORM, Origin: EVIL, Accept: 'text/html' }],
    ['a text/plain post from another origin', JSON.stringify(lead), { 'Content-Type': TEXT, Origin: EVIL }],
    ['a multipart post from another origin', multipart, { 'Content-Type': MULTIPART, Origin: EVIL }],
    ['a form post from an opaque origin', form, { 'Content-Type': FORM, Origin: 'null' }],
    ['an untyped post from another origin', JSON.stringify(lead), { Origin: EVIL }],
    ['a form post marked Sec-Fetch-Site: cross-site', form, { 'Content-Type': FORM, 'Sec-Fetch-Site': 'cross-site' }],
    // JSON too, since no CORS header lets another origin's script send it (the preflight allows none).
    ['a JSON post from another origin', JSON.stringify(lead), { 'Content-Type': 'application/json', Origin: EVIL }],
    [
      'a JSON post marked Sec-Fetch-Site: cross-site',
      JSON.stringify(lead),
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
    ],
    ['a JSON post from an opaque origin', JSON.stringify(lead), { 'Content-Type': 'application/json', Origin: 'null' }],
  ];
  for (const [name, body, headers] of refusals) {
    it(`${name} gets 400 with the Error body and creates nothing`, async () => {
      const before = (await leads()).length;
      const ans = await post(body, headers);
      expectError(ans, 400);
      expect(ans.json().error).toMatch(/cross-site/i);
      expect((await leads()).length).toBe(before);
    });
  }

  it('the sandbox refuses the same cross-site posts, and answers JSON from any origin', async () => {
    const url = `${server.url}/api/v1/lead/validate`;
    const body = JSON.stringify(lead);
    const as = (type: string) =>
      timedRequest(url, { method: 'POST', body, headers: { 'Content-Type': type, Origin: EVIL }, from: nextClient() });
    expectError(await as(TEXT), 400);
    expect((await as('application/json')).status).toBe(200);
  });

  it('posts without an Origin (agents, curl, servers) and JSON from the site itself still create leads', async () => {
    const before = (await leads()).length;
    const agent = await post(JSON.stringify(lead), { 'Content-Type': 'application/json' });
    expect(agent.status).toBe(200);
    const curlForm = await post(form, { 'Content-Type': FORM });
    expect(curlForm.status).toBe(200);
    const own = await post(JSON.stringify(lead), {
      'Content-Type': 'application/json',
      Origin: server.url,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(own.status).toBe(200);
    expect((await leads()).length).toBe(before + 3);
  });

  it("the lead endpoint's preflight lets no other origin's script post JSON; the sandbox's lets any", async () => {
    const preflight = (path: string) =>
      timedRequest(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: EVIL,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    const lead = await preflight('/api/lead');
    expect(lead.headers['access-control-allow-origin']).toBeUndefined();
    const sandbox = await preflight('/api/v1/lead/validate');
    expect(sandbox.headers['access-control-allow-origin']).toBe('*');
  });

  it("the site's own form post (same origin, Sec-Fetch-Site: same-origin) gets its HTML page", async () => {
    const ans = await post(form, {
      'Content-Type': FORM,
      Origin: server.url,
      'Sec-Fetch-Site': 'same-origin',
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(ans.status).toBe(200);
    expect(ans.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('form posts answer HTML only to clients that ask for it', () => {
  const post = (body: string, accept?: string) =>
    timedRequest(`${server.url}/api/lead`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(accept ? { Accept: accept } : {}) },
      from: nextClient(),
    });

  for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5', 'text/html;q=0']) {
    it(`Accept ${accept ?? '(none)'}: the contract's JSON (Error for a bad form)`, async () => {
      expectError(await post('name=Sam', accept), 400);
      const good = new URLSearchParams({ name: 'Sam Taylor', email: 'sam@harbourline.example' }).toString();
      const ok = await post(good, accept);
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^application\/json/);
      LeadAcceptedSchema.parse(ok.json());
    });
  }

  it('a too-large form gets the JSON 413 Error', async () => {
    expectError(await post(`message=${'x'.repeat(LIMITS.leadBodyBytes + 10)}`), 413);
  });

  it('a browser (Accept: text/html) gets the HTML page', async () => {
    const ans = await post('name=Sam', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(ans.status).toBe(400);
    expect(ans.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('metered answers are never shared-cacheable', () => {
  it('the getPage 404 carries the counters and a private Cache-Control', async () => {
    for (const accept of ['application/json', 'text/markdown']) {
      const ans = await rawGet('/api/v1/pages/no-such-page', nextClient(), { Accept: accept });
      expect(ans.status).toBe(404);
      expect(ans.headers['ratelimit-remaining']).toBeDefined();
      expect(ans.headers['cache-control']).toMatch(/^(private|no-store)/);
      expect(ans.headers['cache-control']).not.toMatch(/public|s-maxage/);
    }
  });

  it('every metered answer (200, 400, 404, 429) is private or no-store', async () => {
    const from = nextClient();
    const seen = new Set<number>();
    for (let i = 0; i <= LIMITS.read.limit && !seen.has(429); i++) {
      const target = ['/api/v1/pages/pricing', '/api/v1/search?q=x', '/api/v1/pages/nope', '/api/v1/pages'][i % 4]!;
      const ans = await rawGet(target, from);
      seen.add(ans.status);
      expect(ans.headers['cache-control'], `${target} ${ans.status}`).toMatch(/^(private|no-store)/);
    }
    expect([...seen].sort()).toEqual([200, 400, 404, 429]);
  });
});

describe('security headers on every answer', () => {
  const targets = [
    '/',
    '/pricing',
    '/nope',
    '/nope.php',
    '/nope.md',
    '/pricing.md',
    '/llms.txt',
    '/openapi.json',
    '/favicon.svg',
    '/api/v1/pages',
    '/api/v1/pages/pricing',
    '/api/v1/pages/nope',
    '/api/nope',
    '/api/v1/sandbox',
  ];
  for (const target of targets) {
    it(`${target}`, async () => {
      const ans = await rawGet(target);
      expect(ans.headers['x-content-type-options'], target).toBe('nosniff');
      expect(ans.headers['strict-transport-security'], target).toMatch(/max-age=\d+/);
      expect(ans.headers['x-frame-options'] ?? '', target).toBe('DENY');
      expect(ans.headers['content-security-policy'], target).toContain("frame-ancestors 'none'");
    });
  }

  it('the lead endpoint and the server-level errors carry them too', async () => {
    const headers = { 'Content-Type': 'application/json' };
    const from = nextClient();
    const lead = await timedRequest(`${server.url}/api/lead`, { method: 'POST', body: '{}', headers, from });
    expect(lead.headers['x-content-type-options']).toBe('nosniff');
    const bytes = Buffer.from(`TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const trace = await rawExchange({ host, port, from: nextClient(), bytes });
    expect(trace.status).toBe(405);
    expect(trace.headers['x-content-type-options']).toBe('nosniff');
  });
});
