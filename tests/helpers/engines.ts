/**
 * The store engines every store test runs on: the embedded SQLite store (a fresh file each), the Upstash
 * store over a real `redis-server` behind the Upstash-REST bridge, and the in-process store the other two
 * fall back to. Redis and the bridge start once per test file.
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import type { Store } from '../../src/core/ports.ts';
import { startRedis, type RunningRedis } from './redis-server.ts';
import { startUpstashBridge } from './upstash-bridge.ts';

export interface Engine {
  name: 'embedded' | 'upstash' | 'in-process';
  /** A fresh store with its own keys (a new SQLite file, a new key prefix on the shared Redis). */
  create(opts?: { timeoutMs?: number; leadTimeoutMs?: number }): Store;
}

type Bridge = Awaited<ReturnType<typeof startUpstashBridge>>;

/** Registers start/stop hooks for Redis and the bridge, and returns both engines. */
export function useEngines(): {
  engines: Engine[];
  bridge: () => Bridge;
  redis: () => RunningRedis;
  env: () => Record<string, string>;
} {
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let bridge: Bridge | undefined;
  let n = 0;
  beforeAll(async () => {
    redis = await startRedis(); // throws a clear message when redis-server is not installed
    bridge = await startUpstashBridge({ redisPort: redis.port });
  }, 20_000);
  afterAll(async () => {
    await bridge?.stop();
    await redis?.stop();
  });
  const ready = () => {
    if (!bridge) throw new Error('the Upstash bridge did not start (see the beforeAll error above)');
    return bridge;
  };
  return {
    engines: [
      {
        name: 'embedded',
        create: () => createSqliteStore({ file: join(mkdtempSync(join(tmpdir(), 'kartage-store-')), 'kartage.db') }),
      },
      {
        name: 'upstash',
        create: (opts = {}) =>
          createUpstashStore({ url: ready().url, token: ready().token, prefix: `test${process.pid}-${++n}`, ...opts }),
      },
      { name: 'in-process', create: () => createMemoryStore() },
    ],
    bridge: ready,
    redis: () => redis!,
    env: () => ({ UPSTASH_REDIS_REST_URL: ready().url, UPSTASH_REDIS_REST_TOKEN: ready().token }),
  };
}
