/**
 * The read budget over real HTTP on the local server, with the embedded store and with Upstash over a
 * real redis-server; and two server processes sharing one Redis budget.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { PROJECT_ROOT, type RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';
import { useEngines } from '../helpers/engines.ts';
import { postJson, send, type HttpAnswer } from '../helpers/http.ts';

const { engines, bridge, env } = useEngines();
const WINDOW_START = Date.UTC(2026, 10, 23, 10, 0, 0);

/** The metered reads, in turn: listPages, getPage (JSON and markdown), search, batch, the sandbox, MCP. */
const reads = [
  (base: string, from?: string) => send(`${base}/api/v1/pages?limit=2`, { from }),
  (base: string, from?: string) => send(`${base}/api/v1/pages/pricing`, { from }),
  (base: string, from?: string) => send(`${base}/api/v1/pages/pricing`, { from, headers: { Accept: 'text/markdown' } }),
  (base: string, from?: string) => send(`${base}/api/v1/search?q=storage`, { from }),
  (base: string, from?: string) => postJson(`${base}/api/v1/pages/batch`, { slugs: ['index'] }, { from }),
  (base: string, from?: string) =>
    postJson(`${base}/api/v1/lead/validate`, { name: 'Sam', email: 'sam@example.com' }, { from }),
  (base: string, from?: string) =>
    postJson(
      `${base}/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { from, headers: { Accept: 'application/json, text/event-stream' } },
    ),
];

function expectRateLimitHeaders(r: HttpAnswer, remaining: number) {
  expect(r.headers['ratelimit-limit']).toBe('120');
  expect(r.headers['ratelimit-policy']).toBe('120;w=60');
  expect(r.headers['ratelimit-remaining']).toBe(String(remaining));
  expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(r.headers['cache-control']).not.toMatch(/public/); // counters of one client in a shared cache: never
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(engines)('read limit over HTTP ($name store)', (engine) => {
  let server: RunningServer;
  const events: string[] = [];
  beforeAll(async () => {
    const deps = createDeps({
      env: process.env,
      dataDir: join(PROJECT_ROOT, 'build'),
      store: engine.create(),
      log: (e) => events.push(e),
    });
    server = await startTestServer({ deps });
  });
  afterAll(() => server?.close());

  it('120 reads pass with decreasing RateLimit-Remaining; the 121st is 429 with Retry-After; the window slides', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: WINDOW_START + 1_000 });
    for (let i = 0; i < 120; i++) {
      const r = await reads[i % reads.length]!(server.url);
      expect(r.status, `read ${i + 1}`).toBe(200);
      expectRateLimitHeaders(r, 119 - i);
    }
    const refused = await send(`${server.url}/api/v1/search?q=storage`);
    expect(refused.status).toBe(429);
    // 120 spent in this window: the first unit frees as the window slides past the minute's start.
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-reset']).toBe('60');
    expectRateLimitHeaders(refused, 0);
    expect(refused.json()).toEqual({
      status: 429,
      error: expect.stringMatching(/120 requests per minute.*60 seconds/),
    });

    // Every metered operation is refused, getPage included; a spoofed forwarding header buys nothing.
    for (const read of reads) expect((await read(server.url)).status).toBe(429);
    const spoofed = await send(`${server.url}/api/v1/pages`, {
      headers: { 'X-Forwarded-For': '198.51.100.77', 'X-Real-IP': '198.51.100.78', Forwarded: 'for=198.51.100.79' },
    });
    expect(spoofed.status).toBe(429);

    // The site and the markdown twins are not metered.
    expect((await send(`${server.url}/pricing`)).status).toBe(200);
    const twin = await send(`${server.url}/pricing.md`);
    expect(twin.status).toBe(200);
    expect(twin.headers['ratelimit-limit']).toBeUndefined();

    // A different client (another loopback address) has its own budget.
    const other = await send(`${server.url}/api/v1/pages?limit=1`, { from: '127.0.0.2' });
    expect(other.status).toBe(200);
    expectRateLimitHeaders(other, 119);

    // Just past the minute, the last minute's 120 still weigh all but nothing: one more, not 120 (no
    // 2x burst at the edge). Half a minute on, they weigh half.
    vi.setSystemTime(WINDOW_START + 60_001);
    const edge = await send(`${server.url}/api/v1/pages?limit=1`);
    expect(edge.status).toBe(200);
    expectRateLimitHeaders(edge, 0);
    expect((await send(`${server.url}/api/v1/pages?limit=1`)).status).toBe(429);
    vi.setSystemTime(WINDOW_START + 90_000);
    const recovered = await send(`${server.url}/api/v1/pages?limit=1`);
    expect(recovered.status).toBe(200);
    expectRateLimitHeaders(recovered, 58);
    expect(events).toEqual([]);
  });
});

describe('store failures over HTTP (Upstash store, Redis unreachable)', () => {
  it('reads are served, counted by this instance instead (never unlimited), and the fallback is logged', async () => {
    const events: string[] = [];
    const store = engines.find((e) => e.name === 'upstash')!.create({ timeoutMs: 150 });
    // One instant for every read, a second into a minute: a slow run cannot straddle a window edge and
    // shift the sliding count.
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    const log = (e: string) => void events.push(e);
    const deps = createDeps({ env: process.env, dataDir: join(PROJECT_ROOT, 'build'), store, log, now: () => t0 });
    const server = await startTestServer({ deps });
    try {
      for (const fault of ['down', { delayMs: 3_000 }] as const) {
        bridge().setFault(fault);
        for (const read of reads) {
          const r = await read(server.url);
          expect(r.status).toBe(200);
          expect(r.headers['ratelimit-policy']).toBe('120;w=60');
        }
      }
      expect(events.length).toBe(reads.length * 2);
      expect(new Set(events)).toEqual(new Set(['store_fallback']));
      // Still down: this instance's own budget refuses the 121st read from one client.
      bridge().setFault('down');
      const statuses = [];
      for (let i = 0; i < 125 - reads.length * 2; i++)
        statuses.push((await send(`${server.url}/api/v1/pages?limit=1`)).status);
      // 120 a minute in all.
      expect(statuses.filter((x) => x === 200).length).toBe(120 - reads.length * 2);
      expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
    } finally {
      bridge().setFault('none');
      await server.close();
    }
  });
});

/**
 * Node's `--import` of a module that stops the clock of a child process at `at` (`Date.now`, which the
 * server's default clock and the rate limiter read): its read window then cannot roll over mid-test.
 */
const fixedClockImport = (at: number) => [
  '--import',
  `data:text/javascript,${encodeURIComponent(`Date.now = () => ${at};`)}`,
];

/** Starts `node server/main.ts` as its own process and resolves with its URL. */
function spawnServer(
  extraEnv: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, join(PROJECT_ROOT, 'server/main.ts')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

describe('two server processes on one Redis', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM');
  });

  it('share one read budget', async () => {
    const prefixEnv = { ...env() };
    // Both processes on one stopped clock a second into a minute: the run cannot straddle two minutes (the
    // previous one would then weigh in), whatever second of the real minute it starts at. No waiting.
    const clock = fixedClockImport(WINDOW_START + 1_000);
    const [a, b] = await Promise.all([spawnServer(prefixEnv, clock), spawnServer(prefixEnv, clock)]);
    children.push(a.child, b.child);
    const seen: number[] = [];
    for (let i = 0; i < 120; i++) {
      const r = await send(`${(i % 2 ? b : a).url}/api/v1/pages?limit=1`, { from: '127.0.0.3' });
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-reset']).toBe('59'); // both clocks stopped a second into the minute
      seen.push(Number(r.headers['ratelimit-remaining']));
    }
    // One counter: the two processes' answers interleave into one countdown.
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    expect((await send(`${a.url}/api/v1/pages?limit=1`, { from: '127.0.0.3' })).status).toBe(429);
    expect((await send(`${b.url}/api/v1/pages?limit=1`, { from: '127.0.0.3' })).status).toBe(429);
  }, 120_000);
});
