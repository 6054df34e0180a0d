/**
 * Fuzzing POST /mcp over real HTTP: tools/call with arbitrary arguments for the four tools (validity judged
 * by each tool's advertised input schema, results checked against the REST response schemas),
 * resources/read with arbitrary URIs, other methods, notifications, batches, broken JSON-RPC envelopes,
 * and odd Accept, Content-Type, Mcp-Protocol-Version, Origin and Host headers. Never a 5xx; HTTP-level
 * refusals are our Error body (Host, Origin, rate limit) or the SDK's JSON-RPC error (406, 415, 413, 400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import {
  ListPagesResponseSchema,
  MOVES,
  SearchResponseSchema,
  SEGMENTS,
  WAREHOUSES,
} from '../../src/contract/schemas.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { MCP_TOOLS } from '../../src/contract/mcp.ts';
import { MCP_DEFAULTS } from '../../src/mcp/tool-schemas.ts';
import { BATCH_PROTOCOLS, MCP_BATCH_MAX } from '../../src/mcp/transport.ts';
import {
  anyJson,
  anyString,
  budget,
  checkAnswer,
  clientArb,
  expectErrorBody,
  expectHealthy,
  nastyString,
  params,
  pickClient,
  nextClient,
  report,
  request,
  runs,
  sendable,
  startFuzzServer,
  withInvalidUtf8,
  type FuzzServer,
} from './support.ts';
import { timedRequest, type RawAnswer } from '../helpers/raw-http.ts';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

let s: FuzzServer;
let slugs: string[];
let origin: string;
let resourceUris: string[];
const inputValid = new Map<string, ValidateFunction>();
const outputValid = new Map<string, ValidateFunction>();

beforeAll(async () => {
  s = await startFuzzServer();
  slugs = s.slugs;
  origin = s.server.deps.content.origin;
  // The tools' advertised schemas decide which arguments are valid (formats are not checked).
  const ajv = new Ajv({ strict: false, validateFormats: false });
  const tools = (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).json().result.tools as {
    name: string;
    inputSchema: object;
    outputSchema: object;
  }[];
  expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
  for (const t of tools) {
    const strip = ({ $schema: _s, ...rest }: any) => rest;
    inputValid.set(t.name, ajv.compile(strip(t.inputSchema)));
    outputValid.set(t.name, ajv.compile(strip(t.outputSchema)));
  }
  resourceUris = (
    (await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).json().result.resources as { uri: string }[]
  ).map((r) => r.uri);
  expect(resourceUris.length).toBeGreaterThan(3);
});
afterAll(async () => {
  console.info(report('mcp'));
  await s?.close();
});

function rpc(
  message: unknown,
  headers: Record<string, string> = MCP_HEADERS,
  from?: string,
  body?: Buffer,
): Promise<RawAnswer> {
  return request(`${s.url}/mcp`, { method: 'POST', headers, from, body: body ?? Buffer.from(JSON.stringify(message)) });
}

// ---------------------------------------------------------------------------------------------------
// Generators

const intish = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: min - 2, max: max + 2 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53, 2 ** 53 - 1, -(2 ** 31), 1e21) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('10', '', '1e1'),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 2 }),
      ),
    },
  );
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
const text = (good: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: good },
    { weight: 2, arbitrary: anyString(30, 300) },
    { weight: 1, arbitrary: fc.integer({ min: 198, max: 202 }).map((n) => 'b'.repeat(n)) },
    { weight: 1, arbitrary: anyJson },
  );
const words = fc
  .array(fc.constantFrom('storage', 'billing', 'crew', 'app', 'quoting', 'pricing', 'zzzz', 'st', ' '), {
    minLength: 1,
    maxLength: 3,
  })
  .map((w) => w.join(' '));
const slugText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...['pricing', 'index', 'developers', 'blog/planning-for-peak-season', 'product/storage'],
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9/-]{1,20}$/) },
  { weight: 1, arbitrary: anyString(20) },
);
const withExtra = <T extends Record<string, unknown>>(a: fc.Arbitrary<T>) =>
  fc
    .tuple(a, fc.dictionary(fc.oneof(nastyString, anyString(6)), anyJson, { maxKeys: 2 }), fc.boolean())
    .map(([args, extra, add]) => (add ? { ...extra, ...args } : args));
const argsFor: Record<string, fc.Arbitrary<unknown>> = {
  search_kartage_site: withExtra(
    fc.record(
      { query: opt(text(words)), limit: opt(intish(LIMITS.searchLimit.min, LIMITS.searchLimit.max)) },
      { requiredKeys: [] },
    ),
  ),
  get_kartage_page: withExtra(
    fc.record(
      { slug: opt(text(slugText)), part: opt(intish(1, 4)), maxChars: opt(intish(1000, 12_000)) },
      { requiredKeys: [] },
    ),
  ),
  list_kartage_pages: withExtra(
    fc.record(
      {
        prefix: opt(text(fc.constantFrom('blog/', 'product/', 'b', ''))),
        cursor: opt(text(slugText)),
        limit: opt(intish(LIMITS.listLimit.min, LIMITS.listLimit.max)),
      },
      { requiredKeys: [] },
    ),
  ),
  get_kartage_pricing: withExtra(
    fc.record(
      {
        segment: opt(fc.oneof(fc.constantFrom(...SEGMENTS), anyString(10))),
        warehouses: opt(fc.oneof(fc.constantFrom(...WAREHOUSES), anyString(5))),
        moves: opt(fc.oneof(fc.constantFrom(...MOVES), anyString(5))),
      },
      { requiredKeys: [] },
    ),
  ),
};
const toolCall = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...MCP_TOOLS).chain((name) => fc.tuple(fc.constant(name), argsFor[name]!)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...MCP_TOOLS), fc.oneof(anyJson, fc.constant(undefined))) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.oneof(
        anyString(20),
        fc.constantFrom('search_kartage_site ', 'SEARCH_KARTAGE_SITE', 'get_service_page', '__proto__'),
      ),
      fc.dictionary(anyString(5), anyJson, { maxKeys: 2 }),
    ),
  },
);
const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 1e9 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, '', '__proto__') },
);

// ---------------------------------------------------------------------------------------------------
// Checks

/** A JSON-RPC response to a single request with `id`: the object, checked for shape. */
function single(ans: RawAnswer, sentId: unknown): { result?: any; error?: { code: number; message: string } } {
  expect(ans.status, ans.text.slice(0, 300)).toBe(200);
  expect(ans.headers['content-type']).toMatch(/^application\/json/);
  const body = ans.json();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toEqual(sentId);
  expect('result' in body !== 'error' in body, `exactly one of result and error: ${ans.text.slice(0, 200)}`).toBe(true);
  if (body.error) {
    expect(typeof body.error.code).toBe('number');
    expect(typeof body.error.message).toBe('string');
  }
  return body;
}

const failed = (r: { result?: any; error?: unknown }) => !!r.error || r.result?.isError === true;

/**
 * tools/call: a call valid by the tool's input schema succeeds with output that fits the REST schemas and
 * the advertised output schema; an invalid one fails (a tool error or a JSON-RPC error). `args` undefined:
 * the call had no `arguments`. `parts`: for get_kartage_page past part 1, how many parts part 1 reported
 * for the same slug and maxChars.
 */
function checkToolCall(name: string, args: unknown, r: { result?: any; error?: unknown }, parts?: number): void {
  const validate = inputValid.get(name);
  if (!validate) return void expect(failed(r), `unknown tool ${JSON.stringify(name)} fails`).toBe(true);
  if (args === undefined) {
    if (!validate({})) expect(failed(r), 'no arguments where some are required').toBe(true);
    return;
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return void expect(failed(r), 'arguments that are not an object').toBe(true);
  const valid = validate(args);
  if (!valid)
    return void expect(
      failed(r),
      `invalid arguments ${JSON.stringify(args)?.slice(0, 300)} fail: ${validate.errors?.[0]?.message}`,
    ).toBe(true);
  const a = args as Record<string, any>;
  if (name === 'search_kartage_site' && a.query.trim().length < LIMITS.searchMinLength)
    return void expect(failed(r)).toBe(true);
  if (name === 'get_kartage_page' && !slugs.includes(a.slug))
    return void expect(r.result?.isError, `no page ${a.slug}`).toBe(true);
  const part = a.part ?? 1;
  if (name === 'get_kartage_page' && part > 1) {
    expect(parts, 'the caller asked part 1 for the number of parts').toBeDefined();
    if (part > parts!) return void expect(r.result?.isError, `part ${part} of ${parts} is a tool error`).toBe(true);
  }
  expect(
    failed(r),
    `valid arguments ${JSON.stringify(args).slice(0, 300)} succeed: ${JSON.stringify(r).slice(0, 300)}`,
  ).toBe(false);
  const out = r.result.structuredContent;
  const outValid = outputValid.get(name)!;
  expect(outValid(out), `structuredContent fits the advertised output schema: ${JSON.stringify(outValid.errors)}`).toBe(
    true,
  );
  expect(r.result.content[0].type).toBe('text');
  if (name === 'search_kartage_site') {
    const res = SearchResponseSchema.parse(out);
    expect(res.query).toBe(a.query.trim());
    expect(res.count).toBeLessThanOrEqual(a.limit ?? MCP_DEFAULTS.searchLimit);
    expect(r.result.content.filter((c: { type: string }) => c.type === 'resource_link')).toHaveLength(res.count);
  } else if (name === 'list_kartage_pages') {
    const res = ListPagesResponseSchema.parse(out);
    const limit = a.limit ?? MCP_DEFAULTS.listLimit;
    const eligible = [...slugs]
      .sort()
      .filter((x) => (a.cursor === undefined || x > a.cursor) && (a.prefix === undefined || x.startsWith(a.prefix)));
    expect(res.pages.map((p) => p.slug)).toEqual(eligible.slice(0, limit));
  } else if (name === 'get_kartage_page') {
    expect(out).toMatchObject({ slug: a.slug, part });
    if (parts !== undefined) expect(out.parts, 'the same parts as part 1 said').toBe(parts);
    expect(out.parts).toBeGreaterThanOrEqual(part);
    expect(out).not.toHaveProperty('markdown');
    expect(out.chars).toBeLessThanOrEqual(a.maxChars ?? 12_000);
  } else if (a.segment !== undefined || a.warehouses !== undefined || a.moves !== undefined) {
    // As the output schema says: "Present when segment, warehouses or moves was given" (any segment).
    expect(out.recommendation, 'a recommendation when a need was given').toBeDefined();
    const plan = out.plans.find((p: { id: string }) => p.id === out.recommendation.plan);
    expect(plan, `the recommended plan ${out.recommendation.plan} is one of the plans`).toBeDefined();
    expect(out.recommendation).toMatchObject({ name: plan.name, monthly: plan.monthly, priceFrom: plan.priceFrom });
    expect(out.recommendation.reasons.length, 'a recommendation gives its reasons').toBeGreaterThan(0);
  } else {
    expect(out.recommendation, 'no recommendation without needs').toBeUndefined();
  }
}

// ---------------------------------------------------------------------------------------------------

describe('POST /mcp tools/call', () => {
  it(
    `valid arguments succeed with output fitting the contract; invalid ones fail as a result, never a 5xx (${runs(1)} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(toolCall, id, clientArb, async ([name, args], reqId, hot) => {
          const message = {
            jsonrpc: '2.0',
            id: reqId,
            method: 'tools/call',
            params: { name, ...(args === undefined ? {} : { arguments: args }) },
          };
          const ans = await rpc(message, MCP_HEADERS, pickClient(hot));
          checkAnswer({ method: 'POST', target: '/mcp', headers: MCP_HEADERS }, ans);
          if (ans.status === 429) return void expect(hot).toBeDefined();
          expect(ans.headers['ratelimit-policy'], 'MCP requests are metered').toBe('120;w=60');
          const a = args as { slug?: unknown; part?: unknown; maxChars?: unknown } | undefined;
          let parts: number | undefined;
          if (name === 'get_kartage_page' && inputValid.get(name)!(args) && slugs.includes(a!.slug as string)) {
            if (typeof a!.part === 'number' && a!.part > 1) {
              // How many parts this page has at this maxChars: part 1 says (a fresh client, so no budget spent).
              const first = await rpc(
                {
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'tools/call',
                  params: { name, arguments: { slug: a!.slug, part: 1, maxChars: a!.maxChars } },
                },
                MCP_HEADERS,
                nextClient(),
              );
              parts = single(first, 1).result.structuredContent.parts;
            }
          }
          checkToolCall(name, args, single(ans, reqId), parts);
        }),
        params(1),
      );
    },
    budget(runs(1), 120),
  );
});

describe('POST /mcp resources/read', () => {
  it(
    `listed resources and known pages read; anything else is a JSON-RPC error, never a 5xx (${runs(0.5)} runs)`,
    async () => {
      const uri = fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...['llms.txt', 'sitemap.xml', 'openapi.json', 'pricing.md', 'index.md'])
            .map((p) => `@/${p}`),
        },
        {
          weight: 3,
          arbitrary: fc
            .constantFrom('pricing', 'blog/planning-for-peak-season', 'about', 'customers/keystone-storage', 'index')
            .map((x) => `@/${x}.md`),
        },
        {
          weight: 2,
          arbitrary: fc.stringMatching(/^[a-z0-9-]{1,12}(\/[a-z0-9-]{1,12})?$/).map((x) => `@/nope-${x}.md`),
        },
        { weight: 2, arbitrary: fc.oneof(anyString(30, 300), nastyString).map((x) => `@/${x}.md`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '@/../../etc/passwd.md',
            '@/%2e%2e/x.md',
            '@/.md',
            '@//.md',
            '@/pricing.md?x=1',
            '@/pricing.md#a',
            '@/PRICING.md',
            'file:///etc/passwd',
            'https://kartage.com.au/pricing.md',
            'http://evil.example/pricing.md',
            '',
            'not a uri',
            'javascript:alert(1)',
            'data:text/plain,hi',
          ),
        },
        { weight: 1, arbitrary: anyString(30, 300) },
        { weight: 1, arbitrary: anyJson },
      );
      await fc.assert(
        fc.asyncProperty(uri, id, clientArb, async (u, reqId, hot) => {
          const full = typeof u === 'string' ? u.replace(/^@/, origin) : u;
          const ans = await rpc(
            { jsonrpc: '2.0', id: reqId, method: 'resources/read', params: { uri: full } },
            MCP_HEADERS,
            pickClient(hot),
          );
          checkAnswer({ method: 'POST', target: '/mcp', headers: MCP_HEADERS }, ans);
          if (ans.status === 429) return void expect(hot).toBeDefined();
          if (typeof full !== 'string') return void expect(failed(single(ans, reqId))).toBe(true);
          const r = single(ans, reqId);
          const slug =
            full.startsWith(`${origin}/`) && full.endsWith('.md') ? full.slice(origin.length + 1, -3) : undefined;
          if (resourceUris.includes(full) || (slug !== undefined && slugs.includes(slug))) {
            expect(r.error, `${full} reads`).toBeUndefined();
            expect(r.result.contents[0].uri).toBe(full);
            expect(r.result.contents[0].text.length).toBeGreaterThan(0);
          } else if (slug !== undefined && /^nope-[a-z0-9/-]+$/.test(slug)) {
            expect(r.error, `${full} is not a page`).toBeDefined();
          }
        }),
        params(0.5),
      );
    },
    budget(runs(0.5), 120),
  );
});

describe('POST /mcp envelopes and headers', () => {
  const methods = fc.constantFrom(
    'initialize',
    'ping',
    'tools/list',
    'resources/list',
    'resources/templates/list',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'logging/setLevel',
    'resources/subscribe',
    'sampling/createMessage',
    'notifications/initialized',
    'notifications/cancelled',
    'tools/call',
    'resources/read',
    '',
    'rpc.discover',
    '__proto__',
  );
  const paramsArb = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        { level: 'debug' },
        { ref: { type: 'ref/resource', uri: `@/{+slug}.md` }, argument: { name: 'slug', value: 'bl' } },
        { cursor: 'x' },
        { _meta: { progressToken: 1 } },
        { _meta: 'x' },
      ),
    },
    { weight: 2, arbitrary: fc.dictionary(anyString(6), anyJson, { maxKeys: 3 }) },
    { weight: 1, arbitrary: anyJson },
  );
  const message = fc
    .record(
      {
        jsonrpc: fc.oneof(
          { weight: 8, arbitrary: fc.constant<unknown>('2.0') },
          { weight: 1, arbitrary: fc.constantFrom<unknown>('1.0', 2, null, '2.0 ') },
        ),
        id: fc.oneof(
          { weight: 3, arbitrary: id },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1.5, true, {}, []) },
        ),
        method: fc.oneof({ weight: 6, arbitrary: methods }, { weight: 1, arbitrary: fc.oneof(anyString(20), anyJson) }),
        params: paramsArb,
        extra: anyJson,
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    )
    .map(({ extra, ...m }) =>
      extra !== undefined && typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? { ...m, extra } : m,
    );
  const bodyArb: fc.Arbitrary<{ value: unknown; raw?: string; note: string }> = fc.oneof(
    { weight: 10, arbitrary: message.map((m) => ({ value: m as unknown, note: 'message' })) },
    {
      weight: 2,
      arbitrary: fc.array(message, { minLength: 0, maxLength: 4 }).map((m) => ({ value: m as unknown, note: 'batch' })),
    },
    {
      weight: 1,
      // Around the batch limit, of well-formed messages (one malformed message makes the SDK refuse the lot).
      arbitrary: fc
        .array(
          fc.oneof(
            fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constantFrom('ping', 'tools/list') }),
            fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }),
            message,
          ),
          { minLength: MCP_BATCH_MAX - 1, maxLength: MCP_BATCH_MAX + 3 },
        )
        .map((m) => ({ value: m as unknown, note: `batch of ${m.length}` })),
    },
    { weight: 1, arbitrary: anyJson.map((v) => ({ value: v, note: 'any JSON' })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          '{',
          'null',
          '[{}]',
          '{"jsonrpc":"2.0","id":1,"method":"ping"}x',
          '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
        )
        .map((t) => ({ value: undefined, raw: t, note: 'text' })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 65_000, max: 300_000 }).map((n) => ({
        value: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_kartage_site', arguments: { query: 'storage', pad: 'x'.repeat(n) } },
        },
        note: `large ${n}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 200, max: 2000 }).map((n) => ({
        value: undefined,
        raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_kartage_site","arguments":{"query":"crew","x":${'['.repeat(n)}${']'.repeat(n)}}}}`,
        note: `nested ${n}`,
      })),
    },
  );
  const accept = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/json',
        'text/event-stream',
        '*/*',
        'text/event-stream, application/json;q=0.1',
        '',
        'application/json,text/event-stream',
      ),
    },
    { weight: 1, arbitrary: anyString(20).filter(sendable) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'text/plain',
        'application/jsonx',
        'application/x-www-form-urlencoded',
        '',
      ),
    },
    { weight: 1, arbitrary: anyString(20).filter(sendable) },
  );
  /** Mostly absent (null), sometimes one of the values. */
  const sometimes = <T>(a: fc.Arbitrary<T>, weight = 5) =>
    fc.oneof({ weight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: a });
  const version = sometimes(
    fc.oneof(
      fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05', '2025-11-25', '1999-01-01', 'latest', ''),
      anyString(12).filter(sendable),
    ),
    3,
  );
  const originHdr = sometimes(
    fc.constantFrom(
      'https://agent.example',
      'http://localhost:3000',
      'http://127.0.0.1',
      'http://evil.example',
      'null',
      'file://',
      'not a url',
      'https://',
    ),
  );
  const host = sometimes(
    fc.constantFrom(
      'localhost',
      'LOCALHOST:1',
      '127.0.0.1:9',
      '[::1]',
      'evil.example',
      'kartage.com.au',
      'localhost.evil.example',
      '',
    ),
  );

  it(
    `metering comes first (every request that reaches the operation spends a read), then header refusals with the right status; bodies answer 200, 202 or a 400 JSON-RPC error; never a 5xx (${runs(1)} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyArb,
          accept,
          contentType,
          version,
          originHdr,
          host,
          fc.boolean(),
          clientArb,
          async (b, acc, ct, ver, org, hst, broken, hot) => {
            const headers: Record<string, string> = { 'Content-Type': ct, Accept: acc };
            if (ver !== null) headers['Mcp-Protocol-Version'] = ver;
            if (org !== null) headers.Origin = org;
            if (hst !== null) headers.Host = hst;
            const text = b.raw ?? JSON.stringify(b.value) ?? '';
            const body =
              broken && text.length < 10_000
                ? withInvalidUtf8(text, [[text.length >> 1, text.length]])
                : Buffer.from(text);
            const ans = await rpc(undefined, headers, pickClient(hot), body);
            checkAnswer({ method: 'POST', target: '/mcp', headers }, ans);
            expect(ans.headers['access-control-allow-origin']).toBe('*');

            const hostname = (hst || new URL(s.url).host).toLowerCase().replace(/:\d+$/, '');
            const hostOk = ['localhost', '127.0.0.1', '[::1]', new URL(origin).hostname].includes(hostname);
            let originOk = true;
            if (org !== null) {
              try {
                const u = new URL(org);
                originOk =
                  u.protocol === 'https:' ||
                  (u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname));
              } catch {
                originOk = false;
              }
            }
            // The pipeline meters before anything else: a client past its budget gets 429 whatever it sent.
            if (ans.status === 429) return void expect(hot).toBeDefined();
            if (!hostOk || !originOk) {
              expect(ans.status, `host ${hst} origin ${org}`).toBe(400);
              return expectErrorBody(ans, 400);
            }
            if (!acc.includes('application/json') || !acc.includes('text/event-stream'))
              return void expect(ans.status).toBe(406);
            const mediaType = ct.split(';')[0]!.trim().toLowerCase();
            if (mediaType !== 'application/json') return void expect(ans.status, `content type ${ct}`).toBe(415);
            if (body.length > LIMITS.readBodyBytes) {
              expect(ans.status, 'a body over 64 KB').toBe(413);
              return expectErrorBody(ans, 413);
            }
            let sent: unknown;
            try {
              sent = JSON.parse(new TextDecoder().decode(body));
            } catch {}
            // A batch of more than MCP_BATCH_MAX messages is refused before any work (413, the Error body).
            if (ans.status === 413) {
              expect(Array.isArray(sent) && sent.length > MCP_BATCH_MAX, 'a 413 here is an oversize batch').toBe(true);
              return expectErrorBody(ans, 413);
            }
            expect([200, 202, 400], ans.text.slice(0, 200)).toContain(ans.status);
            if (ans.status === 202) return void expect(ans.body.length).toBe(0);
            const out = ans.json();
            if (ans.status === 400) {
              expect(out.error?.code, 'a 400 here is a JSON-RPC error').toEqual(expect.any(Number));
              return;
            }
            // 200: one response per request, ids echoed; batches only for protocols that had them, and small.
            const batchable = ver === null || BATCH_PROTOCOLS.has(ver.trim());
            if (Array.isArray(sent)) {
              expect(batchable, `a batch under protocol ${ver}`).toBe(true);
              expect(sent.length, 'a batch answered').toBeLessThanOrEqual(MCP_BATCH_MAX);
            }
            const sentIds = (Array.isArray(sent) ? sent : [sent])
              .filter((m: any) => m && typeof m === 'object' && 'id' in m)
              .map((m: any) => m.id);
            for (const r of Array.isArray(out) ? out : [out]) {
              expect(r.jsonrpc).toBe('2.0');
              expect(sentIds).toContainEqual(r.id);
            }
          },
        ),
        params(1),
      );
    },
    budget(runs(1), 150),
  );

  it('GET, DELETE, PUT, PATCH and HEAD on /mcp: 405 with the same Allow; OPTIONS: the CORS preflight', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']) {
      const ans = await request(`${s.url}/mcp`, { method, headers: { Accept: 'application/json, text/event-stream' } });
      checkAnswer({ method, target: '/mcp' }, ans);
      expect(ans.status).toBe(method === 'OPTIONS' ? 204 : 405);
      if (method !== 'OPTIONS') expect(ans.headers.allow, method).toBe('POST, OPTIONS');
    }
  });
});

describe('fixed bugs found by fuzzing (each check failed before its fix)', () => {
  // Fixed: get_kartage_pricing advertises `recommendation` as "Present when segment, warehouses or moves
  // was given", but a segment that needs no module ("Local & interstate", "Mixed") alone gave none. The
  // tools/call fuzz above now checks every segment too.
  it('get_kartage_pricing with a segment alone carries a recommendation, as its output schema says', async () => {
    for (const segment of SEGMENTS) {
      const ans = await timedRequest(`${s.url}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_kartage_pricing', arguments: { segment } },
        }),
      });
      const out = ans.json().result.structuredContent;
      expect(out.recommendation, segment).toBeDefined();
      expect(out.recommendation.reasons.length, segment).toBeGreaterThan(0);
      // Work every plan covers: the smallest plan fits.
      if (segment === 'Local & interstate' || segment === 'Mixed')
        expect(out.recommendation.plan, segment).toBe(out.plans[0].id);
    }
  });
});

describe('afterwards', () => {
  it('the server still answers a simple GET and logged no 5xx or unhandled error', async () => {
    await expectHealthy(s);
  });
});
