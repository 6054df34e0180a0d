/**
 * Shared pieces of the fuzz suite: the run count and seed, a pool of loopback source addresses (one fresh
 * client per generated request, so budgets rarely run out), a server over a temp dir (leads go to a SQLite file
 * there, never to var/), the request counter, hostile value generators, and the oracle every answer is
 * checked against (SPEC.md "Errors": never a 5xx; every 4xx from /api/* a JSON Error body with the status).
 *
 * FUZZ_RUNS: runs of each property (default 1000: `npm test` sends over 10,000 requests in all).
 * FUZZ_SEED: the seed (default fixed; `random` picks one and prints it). A failure prints its seed and path.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createSqliteSink, createSqliteStore, readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { LeadValidationSchema } from '../../src/contract/schemas.ts';
import { startServer, PROJECT_ROOT, type RunningServer } from '../../server/main.ts';
import { rawExchange, timedRequest, type RawAnswer, type RawOptions, type TimedOptions } from '../helpers/raw-http.ts';

// ---------------------------------------------------------------------------------------------------
// Runs and seed

const DEFAULT_RUNS = 1000;
const DEFAULT_SEED = 20_261_123;

function runsFromEnv(): number {
  const raw = process.env.FUZZ_RUNS;
  if (!raw) return DEFAULT_RUNS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FUZZ_RUNS must be a positive whole number, not "${raw}"`);
  return n;
}

function seedFromEnv(): number {
  const raw = process.env.FUZZ_SEED;
  if (!raw) return DEFAULT_SEED;
  if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be a whole number or "random", not "${raw}"`);
  return n;
}

export const FUZZ_RUNS = runsFromEnv();
export const FUZZ_SEED = seedFromEnv();

/** Runs for a property: `share` of FUZZ_RUNS (at least 1). */
export const runs = (share = 1) => Math.max(1, Math.round(FUZZ_RUNS * share));

/** Cuts long runs out of a report (a counterexample may hold a 64 KB body). */
const shorten = (text: string, max = 6000) =>
  text
    .replace(/(.)\1{60,}/gsu, (m, c: string) => `${c.repeat(8)}…(${[...m].length} times)…`)
    .replace(/((?:%[0-9A-F]{2}){4})\1{15,}/g, (m, c: string) => `${c}…(${m.length / c.length} times)…`)
    .slice(0, max);

/**
 * fast-check parameters: the suite's seed and `share` of FUZZ_RUNS runs. A failure reports the seed and
 * path to replay it, and the counterexample with long runs cut short.
 */
export const params = <T>(share = 1): fc.Parameters<T> => ({
  seed: FUZZ_SEED,
  numRuns: runs(share),
  asyncReporter: async (details) => {
    if (!details.failed) return;
    throw new Error(shorten(fc.defaultReportMessage(details) ?? 'property failed'), { cause: details.errorInstance });
  },
});

/** A vitest timeout for a property sending about `requests` requests (generous: 2 cores, other files running). */
export const budget = (requests: number, msEach = 40) => 60_000 + Math.ceil(requests * msEach);

// ---------------------------------------------------------------------------------------------------
// Clients: a fresh loopback source address per request

let clientN = 0;
/** A fresh client address: 127.1.0.1, 127.1.0.2, … (all of 127.0.0.0/8 is loopback on Linux). */
export function nextClient(): string {
  const n = clientN++;
  return `127.${1 + (Math.floor(n / (256 * 254)) % 250)}.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}
/** A "hot" address, picked for about 1 request in 15: it exhausts its budget, so 429 answers are checked too. */
export const HOT_CLIENT = '127.255.0.1';
export const clientArb = fc.oneof(
  { weight: 14, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant(HOT_CLIENT) },
);
export const pickClient = (hot: string | undefined) => hot ?? nextClient();

// ---------------------------------------------------------------------------------------------------
// The server, the request counter, the server's own error log

export interface FuzzServer {
  server: RunningServer;
  url: string;
  /** Every page's slug, in order. */
  slugs: string[];
  host: string;
  port: number;
  /** Leads recorded since the last call (the file sink's new lines). */
  newLeads(): Promise<any[]>;
  /** Request log lines with a 5xx status (every unhandled error ends as one), seen by a client or not. */
  fiveXX(): string[];
  /** Error-level lines: the server's own (e.g. a request it could not even build) and its dependencies'. */
  errors(): string[];
  /** The request log: one entry per request the app took (a client that left included), in order. */
  requestLog(): { method: string; path: string; status: number }[];
  /** Requests the app took (node:http's 'request' events): each must end in one request log line. */
  taken(): number;
  close(): Promise<void>;
}

export async function startFuzzServer(): Promise<FuzzServer> {
  const dir = await mkdtemp(join(tmpdir(), 'kartage-fuzz-'));
  const dbFile = join(dir, 'kartage.db');
  const errors: string[] = [];
  const fiveXX: string[] = [];
  const requestLog: { method: string; path: string; status: number }[] = [];
  const deps = createDeps({
    env: {},
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createSqliteStore({ file: dbFile }),
    sink: createSqliteSink(dbFile),
    log: (event, fields) => {
      if (fields?.level === 'error') errors.push(`${event} ${JSON.stringify(fields).slice(0, 600)}`);
    },
  });
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    root: PROJECT_ROOT,
    deps,
    log: (line) => {
      if (/"level":"error"/.test(line)) errors.push(line.slice(0, 600));
      else if (/"status":5\d\d/.test(line)) fiveXX.push(line.slice(0, 600));
      const entry = JSON.parse(line);
      if (typeof entry.status === 'number' && entry.event === undefined)
        requestLog.push({ method: entry.method, path: String(entry.path).slice(0, 300), status: entry.status });
    },
  });
  let taken = 0;
  server.server.on('request', () => taken++);
  let offset = 0;
  const url = new URL(server.url);
  return {
    server,
    url: server.url,
    slugs: deps.content.entries().map((p) => p.slug),
    host: url.hostname,
    port: Number(url.port),
    async newLeads() {
      const all = readLeads(dbFile);
      const fresh = all.slice(offset);
      offset = all.length;
      return fresh;
    },
    fiveXX: () => [...fiveXX],
    errors: () => [...errors],
    requestLog: () => [...requestLog],
    taken: () => taken,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check()` holds (polled every 10 ms); rejects with `what` after `ms`. */
export async function until(check: () => boolean, what: string | (() => string), ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline)
      throw new Error(`not within ${ms} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

/**
 * A client that goes away mid-body: a POST to `path` that declares 100 bytes of JSON and sends `partial`,
 * then closes its connection once the app has the request (its 'request' event, not a guessed delay).
 */
export async function leaveMidBody(s: FuzzServer, path: string, partial: string, from = nextClient()): Promise<void> {
  const taken = new Promise((ok) => s.server.server.once('request', ok));
  const sock = connect({ host: s.host, port: s.port, localAddress: from });
  sock.on('error', () => {});
  await new Promise((ok) => sock.once('connect', ok));
  sock.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n${partial}`,
  );
  await taken;
  sock.destroy();
}

let sent = 0;
const statuses = new Map<number, number>();
const started = performance.now();
const counted = async (answer: Promise<RawAnswer>) => {
  sent++;
  const a = await answer;
  statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  return a;
};

/** A request over node:http with a deadline, counted. */
export const request = (url: string, opts: TimedOptions): Promise<RawAnswer> => counted(timedRequest(url, opts));
/** A raw exchange over node:net, counted. */
export const raw = (opts: RawOptions): Promise<RawAnswer> => counted(rawExchange(opts));

/** One line for the end of a file's run: requests, time, statuses seen, runs and seed. */
export function report(file: string): string {
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const seen = [...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}x${v}`)
    .join(' ');
  return `[fuzz] ${file}: ${sent} requests in ${seconds} s; statuses ${seen} (FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED})`;
}

/**
 * The end-of-file checks: the server still answers a simple GET, logged every request it took (none left
 * hanging), and logged no error and no 5xx, not even one no client saw (a client that went away included).
 */
export async function expectHealthy(s: FuzzServer): Promise<void> {
  const r = await request(`${s.url}/api/v1/pages?limit=1`, { from: nextClient(), timeoutMs: 10_000 });
  expect(r.status).toBe(200);
  expect(r.json().count).toBe(1);
  const home = await request(`${s.url}/`, { from: nextClient(), timeoutMs: 10_000 });
  expect(home.status).toBe(200);
  await until(
    () => s.requestLog().length >= s.taken(),
    () => `a log line for each request taken (${s.requestLog().length} of ${s.taken()})`,
  );
  expect(s.requestLog()).toHaveLength(s.taken());
  expect(s.errors()).toEqual([]);
  expect(s.fiveXX()).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------
// Hostile values

/** Strings that have broken parsers, routers and validators before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '  \t ',
  '\u0000',
  '\u0000abc',
  'a\u0000b',
  '\r\n',
  '\n',
  'line\nbreak',
  '\u2028',
  '\u2029',
  '\u0085',
  '\ufeff',
  '\ufeffpricing',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u202egnicirp',
  '\ud800',
  '\udfff',
  '\ud83d',
  'a\udc00b',
  '😀',
  '👩‍👩‍👧‍👦',
  'ﷺ',
  'ǆ',
  'İ',
  'ß',
  'ﬃ',
  'Å',
  'e\u0301',
  'Ω',
  '١٢٣',
  '１２',
  '²',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '0',
  '-0',
  '1',
  '-1',
  '00',
  '01',
  '1.0',
  '1e2',
  '0x10',
  '0b1',
  '0o7',
  '+5',
  ' 5',
  '5 ',
  '99999999999999999999',
  '9007199254740993',
  '%',
  '%%',
  '%00',
  '%2e%2e',
  '%2f',
  '%ff',
  '%c0%af',
  '%u0041',
  '..',
  '../',
  '..\\',
  '/..',
  './',
  '//',
  '\\',
  '/',
  '<script>alert(1)</script>',
  '"><img src=x>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
  '#{7*7}',
  '`id`',
  '$(id)',
  'a'.repeat(201),
  'x'.repeat(4001),
  'é'.repeat(121),
  '😀'.repeat(121),
];

export const nastyString = fc.constantFrom(...NASTY_STRINGS);

/** Any string: ASCII, graphemes, any code point (lone surrogates too), the nasty ones, and long runs. */
export const anyString = (maxLength = 40, longest = 3000): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 3, arbitrary: nastyString },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('a', 'é', '😀', ' ', '/', '\u0000', '%'),
          fc.integer({ min: Math.min(100, longest), max: longest }),
        )
        .map(([c, n]) => c.repeat(n)),
    },
  );

/** A JSON value of any shape, with nasty strings and keys. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 2, 5e-324),
    anyString(20),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(anyString(8), nastyString), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON text nested `depth` levels deep (arrays or objects). */
export const deepJson = (depth: number, kind: 'array' | 'object' | 'mixed' = 'array'): string => {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return `${'[{"a":'.repeat(Math.floor(depth / 2))}null${'}]'.repeat(Math.floor(depth / 2))}`;
};

/**
 * JSON text of an object with these [key, JSON text] members, keys written verbatim (so `__proto__` stays an own
 * key).
 */
export const objectText = (members: [string, string][]) =>
  `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** Invalid UTF-8 sequences: stray continuation bytes, overlongs, surrogates, truncated sequences, 0xFF. */
export const INVALID_UTF8 = [
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0xff, 0xfe],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
].map((b) => Buffer.from(b));

/** Splices invalid UTF-8 into `text` at the given places (inside strings, keys or structure alike). */
export const withInvalidUtf8 = (text: string, cuts: [number, number][]): Buffer => {
  const bytes = Buffer.from(text, 'utf8');
  const sorted = [...cuts]
    .map(([at, which]) => [at % (bytes.length + 1), which % INVALID_UTF8.length] as const)
    .sort((a, b) => a[0] - b[0]);
  const parts: Buffer[] = [];
  let last = 0;
  for (const [at, which] of sorted) {
    parts.push(bytes.subarray(last, at), INVALID_UTF8[which]!);
    last = at;
  }
  parts.push(bytes.subarray(last));
  return Buffer.concat(parts);
};

/** How a body goes on the wire: whole (Content-Length) or in chunks (Transfer-Encoding: chunked). */
export const framingArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant<number[] | undefined>(undefined) },
  { weight: 1, arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }) },
);
/** The body for `request`: whole, or cut at the given places into chunks. */
export const frame = (body: Buffer, cuts: number[] | undefined): Buffer | Buffer[] => {
  if (!cuts) return body;
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let last = 0;
  for (const c of at) {
    out.push(body.subarray(last, c));
    last = c;
  }
  out.push(body.subarray(last));
  return out.filter((b) => b.length);
};

/** Header values node:http can send (it refuses control characters and anything above U+00FF). */
export const sendable = (value: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(value);

// ---------------------------------------------------------------------------------------------------
// The oracle

export interface Sent {
  method: string;
  /** The request target as sent, e.g. `/api/v1/search?q=ab`. */
  target: string;
  headers?: Record<string, string | string[] | undefined>;
}

const header = (sent: Sent, name: string): string | undefined => {
  for (const [k, v] of Object.entries(sent.headers ?? {}))
    if (k.toLowerCase() === name && v !== undefined) return Array.isArray(v) ? v.join(', ') : v;
  return undefined;
};

/** The path the server routes on: leading slashes folded, dot segments resolved, percent-decoded. */
export function routedPath(target: string): string {
  const t = target.startsWith('/') ? target : `/${target}`;
  let pathname: string;
  try {
    pathname = new URL(t.replace(/^\/+/, '/'), 'http://fuzz.invalid').pathname;
  } catch {
    pathname = '/';
  }
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** Every status the contract and DESIGN.md allow (502 only when the sink and outbox fail: not here). */
export const ALLOWED_STATUSES = new Set([200, 202, 204, 304, 308, 400, 404, 405, 406, 409, 413, 415, 422, 429]);

const isJsonRpcError = (b: any) =>
  b &&
  typeof b === 'object' &&
  !Array.isArray(b) &&
  b.jsonrpc === '2.0' &&
  b.error &&
  typeof b.error.code === 'number' &&
  typeof b.error.message === 'string';

/** The contract's Error body: `{error: non-empty string, status: the HTTP status}` as JSON. */
export function expectErrorBody(ans: RawAnswer, status = ans.status, what = ''): void {
  expect(ans.headers['content-type'], `${what} content type of a ${ans.status}`).toMatch(/^application\/json/);
  let body: any;
  expect(() => (body = ans.json()), `${what} body is JSON: ${ans.text.slice(0, 200)}`).not.toThrow();
  expect(
    body && typeof body === 'object' && !Array.isArray(body),
    `${what} Error body is an object: ${ans.text.slice(0, 200)}`,
  ).toBe(true);
  expect(
    typeof body.error === 'string' && body.error.length > 0,
    `${what} Error body has a non-empty error: ${ans.text.slice(0, 200)}`,
  ).toBe(true);
  expect(body.status, `${what} Error body repeats the status`).toBe(status);
}

/**
 * `Vary` names the request header `name` as one of its comma-separated tokens (RFC 9110 section 12.5.5),
 * case-insensitively: `Accept-Encoding` does not name `Accept` (nor does `*`: the contract names it).
 */
export function expectVaryOn(ans: RawAnswer, name: string, what = ''): void {
  const tokens = (ans.headers.vary ?? '').split(',').map((t) => t.trim().toLowerCase());
  expect(
    tokens.includes(name.toLowerCase()),
    `${what} Vary names ${name}: ${JSON.stringify(ans.headers.vary ?? null)}`,
  ).toBe(true);
}

/**
 * The q-value `accept` gives `type` by name (its own range, not a wildcard), as RFC 9110 section 12.4.2
 * writes a qvalue; undefined when the type is not named, named twice, or its q is malformed.
 */
export function namedQuality(accept: string, type: string): number | undefined {
  const named = accept
    .split(',')
    .map((part) => part.split(';').map((x) => x.trim()))
    .filter(([range]) => range?.toLowerCase() === type);
  if (named.length !== 1) return undefined;
  const q = named[0]!.slice(1).find((p) => /^q\s*=/i.test(p));
  if (q === undefined) return 1;
  const value = q.replace(/^q\s*=\s*/i, '');
  return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : undefined;
}

/**
 * The client does not want markdown from a negotiated URL: it gives application/json a higher q than
 * text/markdown, or gives text/markdown q=0. Ties and malformed or repeated ranges settle nothing here,
 * nor does a header that also names text/x-markdown (a name the contract does not use).
 */
export function markdownNotWanted(accept: string): boolean {
  if (/text\/x-markdown/i.test(accept)) return false;
  const md = namedQuality(accept, 'text/markdown');
  const json = namedQuality(accept, 'application/json');
  return md === 0 || (md !== undefined && json !== undefined && json > md);
}

/**
 * The generic contract every answer of the app meets, whatever was asked: an allowed status and never a
 * 5xx; Retry-After on 429, Allow on 405, Location on 308; no body on HEAD, 204 and 304; and every 4xx
 * under /api/ a JSON Error body with the status repeated, except a markdown 404 (markdown asked for, JSON
 * not preferred to it), the SDK's JSON-RPC protocol errors on /mcp, the sandbox's 422 LeadValidation and
 * the no-JavaScript lead form's HTML answers. Outside /api/ a 4xx is a JSON Error body, HTML (the 404 page)
 * or markdown.
 */
export function checkAnswer(sent: Sent, ans: RawAnswer): void {
  const what = `${sent.method} ${sent.target.slice(0, 200)} ->`;
  const path = routedPath(sent.target);
  const api = path.startsWith('/api/');
  const mcp = path === '/mcp' || path === '/api/mcp';
  const accept = header(sent, 'accept') ?? '';
  const formPost =
    path === '/api/lead' &&
    sent.method === 'POST' &&
    /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(header(sent, 'content-type') ?? '');
  const s = ans.status;
  const ct = ans.headers['content-type'] ?? '';

  expect(s, `${what} never a 5xx: ${ans.text.slice(0, 200)}`).toBeLessThan(500);
  expect(ALLOWED_STATUSES.has(s), `${what} status ${s} is one the contract allows: ${ans.text.slice(0, 200)}`).toBe(
    true,
  );
  expect(ans.headers['x-request-id'], `${what} carries X-Request-Id`).toMatch(/^[0-9a-f-]{36}$/);
  if (s === 429)
    expect(Number(ans.headers['retry-after']), `${what} 429 carries Retry-After >= 1`).toBeGreaterThanOrEqual(1);
  if (s === 405) expect(ans.headers.allow, `${what} 405 carries Allow`).toBeTruthy();
  if (s === 308) expect(ans.headers.location, `${what} 308 carries Location`).toMatch(/^\//);
  if (sent.method === 'HEAD' || s === 204 || s === 304) expect(ans.body.length, `${what} ${s} has no body`).toBe(0);
  if (s < 400) {
    if (s === 200 && sent.method !== 'HEAD' && /^application\/json/.test(ct))
      expect(() => ans.json(), `${what} 200 JSON parses`).not.toThrow();
    return;
  }
  if (sent.method === 'HEAD') return;

  if (/^text\/markdown/.test(ct)) {
    expect(s, `${what} only a 404 is markdown`).toBe(404);
    expect(accept, `${what} markdown only when asked for`).toMatch(/markdown/i);
    expect(markdownNotWanted(accept), `${what} no markdown when JSON is preferred or markdown refused`).toBe(false);
    expect(ans.text, `${what} markdown 404`).toContain('# Not found');
    return;
  }
  if (/^text\/html/.test(ct)) {
    if (formPost) {
      expect([200, 400, 413, 429], `${what} form post answers`).toContain(s);
      return;
    }
    expect(api || mcp, `${what} HTML error under /api/ (must be JSON)`).toBe(false);
    expect(s, `${what} only the 404 page is HTML`).toBe(404);
    expect(ans.text).toMatch(/<html/i);
    return;
  }
  expect(ct, `${what} a ${s} is JSON`).toMatch(/^application\/json/);
  let body: any;
  expect(() => (body = ans.json()), `${what} body is JSON: ${ans.text.slice(0, 200)}`).not.toThrow();
  if (mcp && isJsonRpcError(body) && [400, 404, 406, 413, 415].includes(s)) return; // the SDK's protocol errors
  if (s === 422 && path === '/api/v1/lead/validate') {
    LeadValidationSchema.parse(body);
    return;
  }
  expectErrorBody(ans, s, what);
}

/**
 * For answers read over raw sockets: the app's answers (they carry X-Request-Id) meet `checkAnswer`; the
 * rest are Node's own refusals of malformed HTTP before any routing (400, 417, 431), or a closed
 * connection for CONNECT. Never a 5xx either way.
 */
export function checkRawAnswer(sent: Sent, ans: RawAnswer): void {
  const what = `${sent.method} ${JSON.stringify(sent.target.slice(0, 200))} ->`;
  expect(ans.status, `${what} never a 5xx`).toBeLessThan(500);
  if (ans.headers['x-request-id']) {
    checkAnswer(sent, ans);
    return;
  }
  if (ans.status === 0) {
    expect(sent.method, `${what} the connection closed without an answer`).toBe('CONNECT');
    return;
  }
  expect([400, 413, 417, 431], `${what} Node's own refusal`).toContain(ans.status);
}
