/**
 * @module Redis round trips per operation: the local server in this process with the production store
 * (src/adapters/upstash-store/: `@upstash/redis`, one Lua script per operation) pointed at the Upstash-REST
 * bridge over a real `redis-server` (tests/helpers). Every HTTP request the Upstash client sends is one
 * round trip; they are counted by wrapping the global `fetch` (the client's transport), per operation,
 * with the Redis commands they carried. Each operation runs twice from fresh client addresses: "first"
 * (this process has not used the script yet: `EVALSHA` answers NOSCRIPT, the client retries with `EVAL`)
 * and "steady" (what every later request costs).
 *
 *   node bench/redis-trips.ts   # prints one JSON line (needs redis-server on PATH)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, PROJECT_ROOT } from '../server/main.ts';
import { createDeps } from '../src/adapters/composition-root.ts';
import { createSqliteSink } from '../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../src/adapters/upstash-store/index.ts';
import { startRedis } from '../tests/helpers/redis-server.ts';
import { startUpstashBridge } from '../tests/helpers/upstash-bridge.ts';
import { loopbackAddress, send, sleep } from './lib.ts';

export interface TripRow {
  operation: string;
  request: string;
  status: number[];
  first: number;
  steady: number;
  /** Redis commands of the steady run, in order (`EVALSHA` = a Lua script by hash). */
  commands: string[];
  firstCommands: string[];
  steadyMs: number;
}

interface Op {
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Runs before each measured request, from the same client (not counted). */
  setup?: (from: string, url: string) => Promise<void>;
  /**
   * The status the measured request must get; otherwise the run is repeated (a minute boundary can reset the read
   * window during setup).
   */
  expect?: number;
}

const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals', intent: 'demo' };
const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export async function runRedisTrips(): Promise<{ rows: TripRow[]; note: string }> {
  const redis = await startRedis();
  const bridge = await startUpstashBridge({ redisPort: redis.port });
  const realFetch = globalThis.fetch;
  let log: string[][] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(bridge.url)) {
      let commands: string[] = [];
      try {
        const body = JSON.parse(String(init?.body ?? '[]')) as unknown[];
        commands = (Array.isArray(body[0]) ? (body as string[][]) : [body as string[]]).map((c) =>
          String(c[0]).toUpperCase(),
        );
      } catch {
        commands = ['?'];
      }
      const path = new URL(url).pathname;
      log.push(path === '/' ? commands : [`${path.slice(1)}(${commands.join(',')})`]);
    }
    return realFetch(input, init);
  }) as typeof fetch;

  const dir = await mkdtemp(join(tmpdir(), 'kartage-trips-'));
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createUpstashStore({ url: bridge.url, token: bridge.token, prefix: `bench${process.pid}`, timeoutMs: 2000 }),
    sink: createSqliteSink(join(dir, 'kartage.db')),
    log: () => {},
  });
  const server = await startServer({ host: '127.0.0.1', port: 0, root: PROJECT_ROOT, deps, log: () => {} });
  let client = 0;
  const nextClient = () => loopbackAddress(77, client++);
  const call = (from: string, op: Pick<Op, 'method' | 'path' | 'body' | 'headers'>) =>
    send(new URL(server.url + op.path), {
      method: op.method,
      localAddress: from,
      headers: op.headers,
      body: op.body === undefined ? undefined : JSON.stringify(op.body),
    });

  const ops: Op[] = [
    { operation: 'HTML page or markdown twin (not metered)', method: 'GET', path: '/pricing.md' },
    { operation: 'getPage (metered read)', method: 'GET', path: '/api/v1/pages/pricing' },
    { operation: 'listPages (metered read)', method: 'GET', path: '/api/v1/pages?limit=10' },
    { operation: 'search (metered read)', method: 'GET', path: '/api/v1/search?q=storage%20billing' },
    {
      operation: 'batch (metered read)',
      method: 'POST',
      path: '/api/v1/pages/batch',
      body: { slugs: ['pricing', 'index', 'faq'] },
    },
    { operation: 'sandbox (metered read)', method: 'POST', path: '/api/v1/lead/validate', body: LEAD },
    {
      operation: 'MCP tools/call (metered read)',
      method: 'POST',
      path: '/mcp',
      headers: MCP,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_kartage_site', arguments: { query: 'storage billing', limit: 3 } },
      },
    },
    {
      operation: 'read refused first (429, the 121st in a minute)',
      method: 'GET',
      path: '/api/v1/pages/pricing',
      expect: 429,
      setup: async (from, url) => {
        for (let i = 0; i < 120; i++) await send(new URL(`${url}/api/v1/pages/pricing`), { localAddress: from });
      },
    },
    {
      operation: 'read refused again (429, budget spent)',
      method: 'GET',
      path: '/api/v1/pages/pricing',
      expect: 429,
      setup: async (from, url) => {
        for (let i = 0; i < 250; i++)
          if ((await send(new URL(`${url}/api/v1/pages/pricing`), { localAddress: from })).status === 429) break;
      },
    },
    { operation: 'lead submission, no Idempotency-Key', method: 'POST', path: '/api/lead', body: LEAD },
    {
      operation: 'lead submission with Idempotency-Key',
      method: 'POST',
      path: '/api/lead',
      body: LEAD,
      headers: { 'idempotency-key': 'bench-key-1' },
    },
    {
      operation: 'lead replay (same key and payload)',
      method: 'POST',
      path: '/api/lead',
      body: LEAD,
      headers: { 'idempotency-key': 'bench-key-replay' },
      setup: async (from, url) => {
        await send(new URL(`${url}/api/lead`), {
          method: 'POST',
          localAddress: from,
          headers: { 'idempotency-key': 'bench-key-replay' },
          body: JSON.stringify(LEAD),
        });
      },
    },
    {
      operation: 'lead refused (429, 5 per hour spent)',
      method: 'POST',
      path: '/api/lead',
      body: LEAD,
      expect: 429,
      setup: async (from, url) => {
        for (let i = 0; i < 5; i++)
          await send(new URL(`${url}/api/lead`), { method: 'POST', localAddress: from, body: JSON.stringify(LEAD) });
      },
    },
  ];

  const rows: TripRow[] = [];
  try {
    for (const op of ops) {
      const runs: { trips: string[][]; status: number; ms: number }[] = [];
      for (let i = 0; i < 2; i++) {
        for (let attempt = 1; ; attempt++) {
          const from = nextClient();
          if (op.setup) await op.setup(from, server.url);
          await sleep(50);
          log = [];
          const t = performance.now();
          const answer = await call(from, op);
          const ms = performance.now() - t;
          await sleep(100); // anything the request still sends after its answer counts too
          const trips = log;
          log = []; // the next setup's trips must not land in this run's list
          if (op.expect && answer.status !== op.expect && attempt < 3) continue;
          runs.push({ trips, status: answer.status, ms });
          break;
        }
      }
      rows.push({
        operation: op.operation,
        request: `${op.method} ${op.path}${op.headers?.['idempotency-key'] ? ' + Idempotency-Key' : ''}`,
        status: runs.map((r) => r.status),
        first: runs[0]!.trips.length,
        steady: runs[1]!.trips.length,
        firstCommands: runs[0]!.trips.map((c) => c.join('+')),
        commands: runs[1]!.trips.map((c) => c.join('+')),
        steadyMs: runs[1]!.ms,
      });
    }
  } finally {
    globalThis.fetch = realFetch;
    await server.close();
    await bridge.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    rows,
    note: 'Counted: HTTP requests from @upstash/redis to the Upstash REST API (each is one network round trip; the client sends even single commands as a one-command pipeline). Redis runs behind a local bridge, so the milliseconds are loopback, not a real Upstash region. Reads go through @upstash/ratelimit (slidingWindow, its Lua script: one round trip). "read refused first": the read the library refuses, plus one round trip to read the two windows\' counts, so the refusal names when a unit frees (the library names the window\'s end); "read refused again": answered from the instance\'s memory of the refusal, no round trip. "lead replay": answered from the instance\'s own idempotency record when the first request came through the same instance.',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await runRedisTrips()));
  process.exit(0);
}
