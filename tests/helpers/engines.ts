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

/** What a test may set on a fresh store: Upstash's bounds, the bound of unanswered questions, a clock. */
export interface EngineOptions {
  timeoutMs?: number;
  leadTimeoutMs?: number;
  questionLimit?: number;
  /** The clock of idempotency claims and outbox leases (Upstash reads Redis's and this process's own instead). */
  now?: () => number;
}

export interface Engine {
  name: 'embedded' | 'upstash' | 'in-process';
  /** A fresh store with its own keys (a new SQLite file, a new key prefix on the shared Redis). */
  create(opts?: EngineOptions): Store;
}

type Bridge = Awaited<ReturnType<typeof startUpstashBridge>>;

/** An outbox entry as the lead path pushes it: the lead record of delivery id `id`. */
export const entry = (id: string) =>
  JSON.stringify({
    record: { id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@example.com' } },
  });

/** Registers start/stop hooks for Redis and the bridge, and returns the three engines. */
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
        create: ({ questionLimit, now } = {}) =>
          createSqliteStore({
            file: join(mkdtempSync(join(tmpdir(), 'kartage-store-')), 'kartage.db'),
            questionLimit,
            now,
          }),
      },
      {
        name: 'upstash',
        create: ({ now: _, ...opts } = {}) =>
          createUpstashStore({ url: ready().url, token: ready().token, prefix: `test${process.pid}-${++n}`, ...opts }),
      },
      { name: 'in-process', create: ({ questionLimit, now } = {}) => createMemoryStore({ questionLimit, now }) },
    ],
    bridge: ready,
    redis: () => redis!,
    env: () => ({ UPSTASH_REDIS_REST_URL: ready().url, UPSTASH_REDIS_REST_TOKEN: ready().token }),
  };
}
