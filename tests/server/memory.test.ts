/**
 * Bounded memory of the local server: 50,000 requests for unique paths that name no
 * file, over real HTTP with keep-alive and bounded concurrency, leave every path cache within its limit and
 * the process's RSS growth under a generous bound. The site's own files stay cached meanwhile. No timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createSqliteSink, createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { MATCHER_CACHE_LIMIT } from '../../server/app.ts';
import { PROJECT_ROOT, startServer, type RunningServer } from '../../server/main.ts';
import { CACHE_LIMITS } from '../../server/static-files.ts';

/** A full garbage collection (the flag is set at run time, so the test needs no `--expose-gc`). */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The heap in use after a full collection, in MB: what the process keeps, garbage aside. */
const liveHeapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const REQUESTS = 50_000;
const CONCURRENCY = 16;

let server: RunningServer;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kartage-memory-'));
  const file = join(dir, 'kartage.db');
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createSqliteStore({ file }),
    sink: createSqliteSink(file),
    log: () => {},
  });
  // The server itself, without the test helper's contract checker and log, which keep a record per request.
  server = await startServer({ host: '127.0.0.1', port: 0, root: PROJECT_ROOT, deps, log: () => {} });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

/** GETs `path` over the keep-alive agent; resolves with the status once the body is read. */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Unique paths of the kinds a scanner sends (pages, `.html` names, twins and assets that do not exist), long
 * as scanners' often are, so what a cache keeps per path shows in the heap.
 */
const pad = 'x'.repeat(400);
const pathOf = (i: number) =>
  [`/no-such-page-${i}-${pad}`, `/blog/missing-${i}-${pad}.html`, `/nope/${i}-${pad}.md`, `/_astro/${i}-${pad}.js`][
    i % 4
  ]!;

describe('the local server under 50,000 unique 404 paths', () => {
  it('keeps every path cache within its limit, its own files cached, and RSS growth bounded', async () => {
    expect(await get('/pricing')).toBe(200);
    const heapBefore = liveHeapMb();
    const rssBefore = process.memoryUsage().rss;
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (next < REQUESTS) {
        const status = await get(pathOf(next++));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect([...statuses.keys()]).toEqual([404]);
    expect([...statuses.values()].reduce((a, b) => a + b)).toBe(REQUESTS);

    const size = server.app.cacheSize();
    expect(size.missing).toBeLessThanOrEqual(CACHE_LIMITS.missing);
    expect(size.found).toBeLessThanOrEqual(CACHE_LIMITS.found);
    expect(size.headerSets).toBeLessThanOrEqual(CACHE_LIMITS.headerSets);
    expect(size.matcher).toBeLessThanOrEqual(MATCHER_CACHE_LIMIT);
    // The flood did not push the site's pages out: they are still among the paths that name a file.
    expect(size.found).toBeGreaterThan(0);
    expect(await get('/pricing')).toBe(200);
    expect(server.app.cacheSize().found).toBe(size.found);

    const heapGrowthMb = liveHeapMb() - heapBefore;
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    // Unbounded, the caches kept about 29 MB more here (9 MB bounded: at most 10,000 paths of each).
    expect(heapGrowthMb).toBeLessThan(20);
    // RSS also counts garbage not yet returned to the system: a generous bound.
    expect(rssGrowthMb).toBeLessThan(300);
  }, 300_000);
});
