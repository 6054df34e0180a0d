/**
 * Oracles from the contract, not from the source. Every number and name below is
 * written out as /work/shared/SPEC.md writes it ("Limits", "Endpoints", "POST /mcp") and never imported
 * from src/: a wrong limit in src/contract moves the OpenAPI document, the after-all contract check and
 * every test that reads `LIMITS` with it, but not this file. It checks the served OpenAPI document
 * (GET /openapi.json from the local server), the MCP server (tools/list over the SDK's own client) and live
 * answers against those literals. The server runs on an injected clock a second into a minute, so the
 * budgets counted here cannot roll over mid-test, and the clock is moved to test the 24-hour window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createSqliteSink, createSqliteStore, readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { createFallbackStore } from '../../src/adapters/fallback-store.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { PROJECT_ROOT, type RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';
import { postJson, send, type HttpAnswer } from '../helpers/http.ts';

/** SPEC.md "Limits", as written there. */
const READ = { limit: 120, policy: '120;w=60' };
const LEAD = { limit: 5, policy: '5;w=3600' };
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_KEY_MAX = 200;
const BATCH = { min: 1, max: 50 };
const LIST_LIMIT = { min: 1, max: 100, default: 100 };
const SEARCH_LIMIT = { min: 1, max: 50, default: 10 };
const Q_MIN = 2;
const CACHE_SECONDS = 5 * 60;
/** SPEC.md "Lead": maxima, the dialcode pattern and default, the allowed values. */
const LEAD_MAX = { name: 120, email: 200, company: 200, phone: 40, country: 60, message: 4000 } as const;
const DIALCODE = { pattern: '^\\+\\d{1,4}$', default: '+61' };
const INTENT = { values: ['demo', 'enquiry'], default: 'enquiry' };
const SEGMENT = ['Local & interstate', 'International', 'Military & government', 'Mixed'];
const WAREHOUSES = ['None', '1', '2-5', '6+'];
const MOVES = ['Under 500', '500-2,000', '2,000-10,000', '10,000+'];
/** SPEC.md "POST /mcp": the four tools, "service" standing for the service's own name. */
const MCP_TOOL_NAMES = ['search_kartage_site', 'get_kartage_page', 'list_kartage_pages', 'get_kartage_pricing'];
/** SPEC.md header names. */
const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];
const RETRY_AFTER = 'Retry-After';
const IDEMPOTENCY_KEY = 'Idempotency-Key';
const IDEMPOTENCY_REPLAYED = 'Idempotency-Replayed';

/** SPEC.md "Endpoints": method, path and the statuses each operation documents. */
const OPERATIONS = {
  listPages: { method: 'get', path: '/api/v1/pages', statuses: [200, 429] },
  getPage: { method: 'get', path: '/api/v1/pages/{slug}', statuses: [200, 404, 429] },
  searchSite: { method: 'get', path: '/api/v1/search', statuses: [200, 400, 429] },
  getPagesBatch: { method: 'post', path: '/api/v1/pages/batch', statuses: [200, 400, 429] },
  validateLead: { method: 'post', path: '/api/v1/lead/validate', statuses: [200, 422, 429] },
  submitLead: { method: 'post', path: '/api/lead', statuses: [200, 400, 429, 502] },
} as const;
type OperationId = keyof typeof OPERATIONS;
const READS: OperationId[] = ['listPages', 'getPage', 'searchSite', 'getPagesBatch'];

/** A second into a minute: nothing counted below can straddle a window edge. Moved only by the 24-hour test. */
const T0 = Date.UTC(2026, 10, 23, 10, 0, 1);
let now = T0;
const clock = () => now;

let server: RunningServer;
let dbFile: string;
let doc: any;
let clientN = 0;
/** A fresh loopback source address: its own budgets. */
const nextClient = () => `127.26.${1 + Math.floor(++clientN / 250)}.${(clientN % 250) + 2}`;

beforeAll(async () => {
  dbFile = join(await mkdtemp(join(tmpdir(), 'kartage-oracle-')), 'kartage.db');
  // The fallback wrapper createDeps would add keeps its in-process store on the real clock (it remembers
  // idempotency keys too), so it is built here with the same injected clock.
  const store = createFallbackStore(
    createSqliteStore({ file: dbFile, now: clock }),
    () => {},
    createMemoryStore({ now: clock }),
  );
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store,
    sink: createSqliteSink(dbFile),
    log: () => {},
    now: clock,
  });
  server = await startTestServer({ deps });
  const served = await send(`${server.url}/openapi.json`, { from: nextClient() });
  expect(served.status).toBe(200);
  doc = served.json();
});
afterAll(async () => {
  await server?.close();
});

/** Follows a local `$ref` of the served document. */
const deref = (v: any): any => {
  if (!v?.$ref) return v;
  const path = String(v.$ref).replace(/^#\//, '').split('/');
  return deref(path.reduce((o: any, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
};
const operation = (id: OperationId) => {
  const op = doc.paths?.[OPERATIONS[id].path]?.[OPERATIONS[id].method];
  expect(op, `${id} in the served document`).toBeDefined();
  expect(op.operationId).toBe(id);
  return op;
};
const parameter = (id: OperationId, name: string) => {
  const p = (operation(id).parameters ?? []).map(deref).find((x: any) => x.name === name);
  expect(p, `${id} parameter ${name}`).toBeDefined();
  return { ...p, schema: deref(p.schema) };
};
const bodySchema = (id: OperationId) => deref(operation(id).requestBody?.content?.['application/json']?.schema);
/** The header names a documented response declares, and whether each is required. */
const responseHeaders = (id: OperationId, status: number) => {
  const r = deref(operation(id).responses?.[String(status)]);
  expect(r, `${id} ${status} documented`).toBeDefined();
  return Object.fromEntries(
    Object.entries<any>(r.headers ?? {}).map(([name, h]) => [name.toLowerCase(), deref(h).required === true]),
  );
};
const expectRequiredHeaders = (id: OperationId, status: number, names: string[]) => {
  const declared = responseHeaders(id, status);
  for (const name of names) expect(declared[name.toLowerCase()], `${id} ${status} ${name}`).toBe(true);
};

describe('the served OpenAPI document states the contract', () => {
  it('every operation at its method and path, with at least the statuses the contract lists; no 401 or 403', () => {
    for (const [id, o] of Object.entries(OPERATIONS)) {
      const statuses = Object.keys(operation(id as OperationId).responses).map(Number);
      expect(statuses, id).toEqual(expect.arrayContaining([...o.statuses]));
      expect(statuses, id).not.toContain(401);
      expect(statuses, id).not.toContain(403);
    }
    expect(doc.paths['/mcp']?.post).toBeDefined();
  });

  it('listPages limit: integer 1 to 100, default 100', () => {
    expect(parameter('listPages', 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: LIST_LIMIT.min,
      maximum: LIST_LIMIT.max,
      default: LIST_LIMIT.default,
    });
    expect(parameter('listPages', 'limit').required).not.toBe(true);
  });

  it('searchSite q: required, min length 2; limit: integer 1 to 50, default 10', () => {
    const q = parameter('searchSite', 'q');
    expect(q.required).toBe(true);
    expect(q.schema.minLength).toBe(Q_MIN);
    expect(parameter('searchSite', 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: SEARCH_LIMIT.min,
      maximum: SEARCH_LIMIT.max,
      default: SEARCH_LIMIT.default,
    });
  });

  it('getPage slug pattern; getPagesBatch slugs: required, 1 to 50 items', () => {
    expect(parameter('getPage', 'slug').schema.pattern).toBe('^[a-z0-9/-]+$');
    const batch = bodySchema('getPagesBatch');
    expect(batch.required).toContain('slugs');
    expect(deref(batch.properties.slugs)).toMatchObject({ type: 'array', minItems: BATCH.min, maxItems: BATCH.max });
  });

  it('the Lead body of both lead operations: field maxima, dialcode, and the allowed values', () => {
    for (const id of ['validateLead', 'submitLead'] as const) {
      const lead = bodySchema(id);
      expect([...lead.required].sort(), id).toEqual(['email', 'name']);
      const field = (f: string) => deref(lead.properties[f]);
      for (const [f, max] of Object.entries(LEAD_MAX)) expect(field(f).maxLength, `${id} ${f}`).toBe(max);
      expect(field('email').format).toBe('email');
      expect(field('dialcode')).toMatchObject({ pattern: DIALCODE.pattern, default: DIALCODE.default });
      expect(field('intent').default).toBe(INTENT.default);
      expect([...field('intent').enum].sort()).toEqual([...INTENT.values].sort());
      expect([...field('segment').enum].sort()).toEqual([...SEGMENT].sort());
      expect([...field('warehouses').enum].sort()).toEqual([...WAREHOUSES].sort());
      expect([...field('moves').enum].sort()).toEqual([...MOVES].sort());
    }
  });

  it('submitLead: the Idempotency-Key header (max 200, 24 hours) and Idempotency-Replayed on the 200', () => {
    const key = parameter('submitLead', IDEMPOTENCY_KEY);
    expect(key.in).toBe('header');
    expect(key.required).not.toBe(true);
    expect(key.schema.maxLength).toBe(IDEMPOTENCY_KEY_MAX);
    expect(key.description).toMatch(/24 hours/);
    expect(Object.keys(responseHeaders('submitLead', 200))).toContain(IDEMPOTENCY_REPLAYED.toLowerCase());
  });

  it('the rate-limit headers: RateLimit-* on the 200s, Retry-After on every 429', () => {
    for (const id of [...READS, 'validateLead', 'submitLead'] as OperationId[]) {
      expectRequiredHeaders(id, 200, RATE_HEADERS);
      expectRequiredHeaders(id, 429, [RETRY_AFTER]);
    }
    for (const id of READS) expectRequiredHeaders(id, 429, RATE_HEADERS);
    expectRequiredHeaders('submitLead', 429, ['RateLimit-Reset', 'RateLimit-Limit']);
  });
});

describe('the MCP server', () => {
  it('lists exactly the four tools of the contract over the SDK client', async () => {
    const client = new Client({ name: 'kartage-oracle', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    } finally {
      await client.close();
    }
  });
});

const header = (r: HttpAnswer, name: string) => r.headers[name.toLowerCase()];
const batch = (n: number, from = nextClient()) =>
  postJson(`${server.url}/api/v1/pages/batch`, { slugs: Array(n).fill('index') }, { from });
const search = (query: string, from = nextClient()) => send(`${server.url}/api/v1/search?${query}`, { from });
const list = (query: string, from = nextClient()) => send(`${server.url}/api/v1/pages?${query}`, { from });
const validate = (body: unknown, headers?: Record<string, string>) =>
  postJson(`${server.url}/api/v1/lead/validate`, body, { from: nextClient(), headers });
const good = { name: 'Sam Taylor', email: 'sam@harbourline.example' };

describe('live answers keep the contract', () => {
  it('a batch of 1 to 50 slugs is 200 with one result each; 0 or 51 is 400', async () => {
    for (const n of [BATCH.min, BATCH.max]) {
      const r = await batch(n);
      expect(r.status, `${n} slugs`).toBe(200);
      expect(r.json().results).toHaveLength(n);
    }
    for (const n of [BATCH.min - 1, BATCH.max + 1]) expect((await batch(n)).status, `${n} slugs`).toBe(400);
  });

  it('search: limit 1 to 50 (default 10), q of at least 2 characters', async () => {
    for (const limit of [SEARCH_LIMIT.min - 1, SEARCH_LIMIT.max + 1])
      expect((await search(`q=storage&limit=${limit}`)).status, `limit ${limit}`).toBe(400);
    const all = await search(`q=storage&limit=${SEARCH_LIMIT.max}`);
    expect(all.status).toBe(200);
    expect(all.json().count).toBeLessThanOrEqual(SEARCH_LIMIT.max);
    const byDefault = await search('q=storage');
    expect(byDefault.json().count).toBe(Math.min(SEARCH_LIMIT.default, all.json().count));
    expect(all.json().count, 'a query with more results than the default').toBeGreaterThan(SEARCH_LIMIT.default);
    expect((await search(`q=${'s'.repeat(Q_MIN - 1)}`)).status).toBe(400);
    expect((await search(`q=${'st'.padEnd(Q_MIN, 't')}`)).status).toBe(200);
  });

  it('list: limit 1 to 100, default 100', async () => {
    for (const limit of [LIST_LIMIT.min - 1, LIST_LIMIT.max + 1])
      expect((await list(`limit=${limit}`)).status, `limit ${limit}`).toBe(400);
    expect((await list(`limit=${LIST_LIMIT.min}`)).json().count).toBe(LIST_LIMIT.min);
    const byDefault = (await list('')).json();
    const at = (await list(`limit=${LIST_LIMIT.max}`)).json();
    expect(at.count).toBeLessThanOrEqual(LIST_LIMIT.max);
    expect(byDefault.count).toBe(at.count);
    // More pages than one default page, or the default would not be seen: then it is exactly 100.
    if (byDefault.nextCursor) expect(byDefault.count).toBe(LIST_LIMIT.default);
  });

  it('reads carry the read policy and are cacheable for five minutes, by the client only', async () => {
    const r = await list('limit=1');
    expect(header(r, 'RateLimit-Policy')).toBe(READ.policy);
    expect(header(r, 'RateLimit-Limit')).toBe(String(READ.limit));
    expect(header(r, 'Cache-Control')).toMatch(new RegExp(`(^|[ ,])max-age=${CACHE_SECONDS}($|[ ,])`));
  });

  it('120 reads a minute: the 121st is 429 with Retry-After and the policy', async () => {
    const from = nextClient();
    const statuses: number[] = [];
    for (let i = 0; i < READ.limit; i++) statuses.push((await list('limit=1', from)).status);
    expect(statuses).toEqual(Array(READ.limit).fill(200));
    const refused = await list('limit=1', from);
    expect(refused.status).toBe(429);
    expect(Number(header(refused, RETRY_AFTER))).toBeGreaterThan(0);
    expect(header(refused, 'RateLimit-Policy')).toBe(READ.policy);
    expect(header(refused, 'RateLimit-Remaining')).toBe('0');
  });

  it('every bounded lead field: exactly its maximum passes the sandbox; one more is reported on that field', async () => {
    for (const [field, max] of Object.entries(LEAD_MAX)) {
      const value = (n: number) =>
        field === 'email' ? `${'a'.repeat(n - '@example.com'.length)}@example.com` : 'x'.repeat(n);
      const at = await validate({ ...good, [field]: value(max) });
      expect(at.status, `${field} at ${max}`).toBe(200);
      expect(at.json()).toMatchObject({ sandbox: true, wouldSubmit: true, problems: [] });
      const over = await validate({ ...good, [field]: value(max + 1) });
      expect(over.status, `${field} at ${max + 1}`).toBe(422);
      expect(over.json().problems.map((p: { field: string }) => p.field)).toContain(field);
      // Truncated, not rejected: the contract's 400 is for a missing name or an invalid email only.
      if (field !== 'email') expect(over.json().wouldSubmit, field).toBe(true);
    }
  });

  it('the allowed values and the dialcode pattern', async () => {
    for (const [field, values] of Object.entries({
      intent: INTENT.values,
      segment: SEGMENT,
      warehouses: WAREHOUSES,
      moves: MOVES,
    })) {
      for (const v of values) expect((await validate({ ...good, [field]: v })).status, `${field} ${v}`).toBe(200);
      expect((await validate({ ...good, [field]: 'something else' })).status, field).toBe(422);
    }
    for (const code of ['+1', '+61', '+1234'])
      expect((await validate({ ...good, dialcode: code })).status, code).toBe(200);
    for (const code of ['61', '+12345', '+'])
      expect((await validate({ ...good, dialcode: code })).status, code).toBe(422);
  });

  it('Idempotency-Key: 200 characters accepted, 201 is 400', async () => {
    const post = (key: string) =>
      postJson(`${server.url}/api/lead`, good, { from: nextClient(), headers: { [IDEMPOTENCY_KEY]: key } });
    expect((await post('k'.repeat(IDEMPOTENCY_KEY_MAX))).status).toBe(200);
    expect((await post('k'.repeat(IDEMPOTENCY_KEY_MAX + 1))).status).toBe(400);
  });

  it('5 leads an hour with the lead policy, then 429 with Retry-After, RateLimit-Reset and RateLimit-Limit', async () => {
    const from = nextClient();
    for (let i = 0; i < LEAD.limit; i++) {
      const r = await postJson(`${server.url}/api/lead`, { ...good, message: `lead ${i}` }, { from });
      expect(r.status, `lead ${i + 1}`).toBe(200);
      expect(header(r, 'RateLimit-Policy')).toBe(LEAD.policy);
      expect(header(r, 'RateLimit-Limit')).toBe(String(LEAD.limit));
      expect(header(r, 'RateLimit-Remaining')).toBe(String(LEAD.limit - 1 - i));
    }
    const refused = await postJson(`${server.url}/api/lead`, { ...good, message: 'one too many' }, { from });
    expect(refused.status).toBe(429);
    expect(Number(header(refused, RETRY_AFTER))).toBeGreaterThan(0);
    expect(Number(header(refused, 'RateLimit-Reset'))).toBeGreaterThan(0);
    expect(header(refused, 'RateLimit-Limit')).toBe(String(LEAD.limit));
    // The sandbox spends no lead budget.
    expect((await postJson(`${server.url}/api/v1/lead/validate`, good, { from })).status).toBe(200);
  });

  it('a replay within 24 hours is the first answer with Idempotency-Replayed: true; after 24 hours a new lead', async () => {
    const from = nextClient();
    const post = () => postJson(`${server.url}/api/lead`, good, { from, headers: { [IDEMPOTENCY_KEY]: 'oracle-24h' } });
    try {
      const first = await post();
      expect(first.status).toBe(200);
      const count = (await readLeads(dbFile)).length;
      now = T0 + IDEMPOTENCY_WINDOW_MS - 1_000;
      const replay = await post();
      expect(replay.status).toBe(200);
      expect(header(replay, IDEMPOTENCY_REPLAYED)).toBe('true');
      expect(await readLeads(dbFile)).toHaveLength(count);
      now = T0 + IDEMPOTENCY_WINDOW_MS + 1_000;
      const fresh = await post();
      expect(fresh.status).toBe(200);
      expect(header(fresh, IDEMPOTENCY_REPLAYED)).toBeUndefined();
      expect(await readLeads(dbFile)).toHaveLength(count + 1);
    } finally {
      now = T0;
    }
  });
});
