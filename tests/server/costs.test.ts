/**
 * A client over its budget costs almost nothing, over real HTTP: every way to reach an
 * instance without a real read (a preflight, a method an operation does not take, an API path no operation
 * answers, the cron path without its secret) spends a read unit and is refused past the budget; and once a
 * client has been refused, its further requests are refused from memory until the reset, with no store call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { Store } from '../../src/core/ports.ts';
import type { RunningServer } from '../../server/main.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

// A clock the test moves: the read window cannot roll over by itself mid-test.
const clock = { t: Date.parse('2026-11-25T02:00:05Z') };
let hits = 0;
let server: RunningServer;

beforeAll(async () => {
  const inner = createMemoryStore({ now: () => clock.t });
  // The store as the instance sees it, counting the budget look-ups it makes.
  const store: Store = {
    ...inner,
    hit: (policy, client, now) => {
      hits++;
      return inner.hit(policy, client, now);
    },
  };
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store,
    now: () => clock.t,
    log: () => {},
  });
  server = await startTestServer({ deps, trustProxy: true });
});
afterAll(async () => {
  await server?.close();
});

const call = async (path: string, init: RequestInit, from: string) => {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-For': from },
  });
  await res.arrayBuffer();
  return res;
};
const remaining = async (from: string) =>
  Number((await call('/api/v1/pages?limit=1', {}, from)).headers.get('ratelimit-remaining'));

const WAYS: [string, string, RequestInit][] = [
  ['a preflight', '/api/v1/search', { method: 'OPTIONS', headers: { Origin: 'https://agent.example' } }],
  ['a 405', '/api/v1/search?q=storage', { method: 'DELETE' }],
  ['an unknown API path', '/api/v1/nothing-here', {}],
  ['the cron path without its secret', '/api/cron/leads-flush', {}],
];

describe('requests that read nothing still cost a read unit', () => {
  it.each(WAYS)('%s spends one unit of the read budget', async (_, path, init) => {
    const from = `198.51.100.${10 + WAYS.findIndex((w) => w[1] === path)}`;
    const before = await remaining(from);
    await call(path, init, from);
    expect(await remaining(from)).toBe(before - 2);
  });

  it.each(WAYS)('%s is refused (429) past the budget', async (_, path, init) => {
    const from = `198.51.100.${30 + WAYS.findIndex((w) => w[1] === path)}`;
    for (let left = await remaining(from); left > 0; left--) await remaining(from);
    const res = await call(path, init, from);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a client over its budget', () => {
  it('is refused from memory until its reset, with no store call; then counted again', async () => {
    const from = '203.0.113.99';
    for (let left = await remaining(from); left > 0; left--) await remaining(from);
    const first = await call('/api/v1/pages?limit=1', {}, from);
    expect(first.status).toBe(429);
    const reset = Number(first.headers.get('ratelimit-reset'));
    const before = hits;
    for (let i = 0; i < 50; i++) {
      const res = await call(i % 2 ? '/api/v1/search?q=storage' : '/api/v1/nothing', {}, from);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(reset);
    }
    expect(hits).toBe(before);
    // Another client is counted as before.
    expect((await call('/api/v1/pages?limit=1', {}, '203.0.113.100')).status).toBe(200);
    expect(hits).toBe(before + 1);
    // Past the reset, the client is counted (and served) again.
    clock.t += (reset + 1) * 1000;
    expect((await call('/api/v1/pages?limit=1', {}, from)).status).toBe(200);
    expect(hits).toBe(before + 2);
  });
});
