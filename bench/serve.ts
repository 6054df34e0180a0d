/**
 * @module The local server in a child process for the load test and the throughput benchmark, so the
 * load generator does not share the server's event loop. It is `startServer` from server/main.ts over a
 * build (default: the project's dist/ and build/), with the embedded store unless UPSTASH_* is set, the
 * request log written to stdout as `node server/main.ts` does (the parent discards it), and the lead sink
 * and outbox in a throwaway folder. It talks to its parent over IPC:
 *
 *   -> { type: 'ready', url, pid }                 once listening
 *   <- { type: 'memory', gc?: true }  -> { type: 'memory', usage }   process.memoryUsage(), after a GC when asked
 *   <- { type: 'stop' }                            closes and exits
 *
 * Settings (env): BENCH_DIST_DIR, BENCH_DATA_DIR, BENCH_TRUST_PROXY=1 (client from X-Forwarded-For),
 * BENCH_QUIET=1 (no request log).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, PROJECT_ROOT } from '../server/main.ts';
import { createDeps } from '../src/adapters/composition-root.ts';
import { createSqliteSink, createSqliteStore } from '../src/adapters/sqlite-store/index.ts';

const env = process.env;
const dataDir = env.BENCH_DATA_DIR || join(PROJECT_ROOT, 'build');
const distDir = env.BENCH_DIST_DIR || join(PROJECT_ROOT, 'dist');
const varDir = mkdtempSync(join(tmpdir(), 'kartage-bench-var-'));
const upstash = env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN;
const deps = createDeps({
  env,
  dataDir,
  ...(upstash ? {} : { store: createSqliteStore({ file: join(varDir, 'kartage.db') }) }),
  sink: createSqliteSink(join(varDir, 'kartage.db')),
  log: () => {},
});
const quiet = env.BENCH_QUIET === '1';
const running = await startServer({
  host: '127.0.0.1',
  port: 0,
  root: PROJECT_ROOT,
  distDir,
  deps,
  trustProxy: env.BENCH_TRUST_PROXY === '1',
  log: quiet ? () => {} : (line) => process.stdout.write(`${line}\n`),
});
deps.content.searchIndex(); // load the index now, as a warm instance has it

process.on('message', async (msg: { type: string; gc?: boolean }) => {
  if (msg.type === 'memory') {
    if (msg.gc) {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
    }
    process.send!({ type: 'memory', usage: process.memoryUsage() });
  } else if (msg.type === 'stop') {
    await running.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
process.on('exit', () => rmSync(varDir, { recursive: true, force: true }));
process.send!({ type: 'ready', url: running.url, pid: process.pid });
