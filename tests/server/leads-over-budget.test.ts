/**
 * A lead over the budget costs nothing: over real HTTP on the local server, with each store
 * engine as the shared store (the embedded SQLite file, Upstash over a real redis-server behind the REST bridge,
 * the in-process store), a client that spent its five leads sends 100 more, each with its own Idempotency-Key:
 * all 429, and not one call reaches the shared store (no claim, no release, no budget check). The contract's
 * idempotency promises hold meanwhile: the retry of an accepted lead replays, the same key with another payload
 * is 422, and after a restart (a new instance over the same store) a key replays and a refused key was never
 * claimed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import type { Store } from '../../src/core/ports.ts';
import type { RunningServer } from '../../server/main.ts';
import { postJson } from '../helpers/http.ts';
import { useEngines } from '../helpers/engines.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

const { engines } = useEngines();
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

const NOW = Date.UTC(2026, 10, 23, 10, 0, 1);
const good = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' };

/** `store` with every call counted by operation name. */
function counted(store: Store) {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'describe') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

/** A server instance (its own memory) over `shared`, on a fixed clock. */
async function instance(shared: Store) {
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: shared,
    now: () => NOW,
    log: () => {},
    sink: { name: 'test sink', deliver: async () => {} },
    notifier: { name: 'test notifier', notify: async () => {} },
  });
  const server = await startTestServer({ deps });
  servers.push(server);
  const post = (key: string, body: object = good) =>
    postJson(`${server.url}/api/lead`, body, { from: '127.0.9.7', headers: { 'Idempotency-Key': key } });
  return { post };
}

describe.each(engines)('$name store: a lead over the budget', (engine) => {
  it('costs no store call, claims no key, and every idempotency promise still holds', async () => {
    const { store, calls } = counted(engine.create());
    const a = await instance(store);
    for (let i = 0; i < 5; i++) expect((await a.post(`key-${i}`, { ...good, message: `m${i}` })).status).toBe(200);

    calls.length = 0;
    const refused = [];
    for (let i = 0; i < 100; i++) refused.push(await a.post(`over-${i}`, { ...good, message: `over ${i}` }));
    expect(refused.map((r) => r.status)).toEqual(Array(100).fill(429));
    expect(Number(refused[99]!.headers['retry-after'])).toBeGreaterThan(3500);
    expect(calls).toEqual([]); // 200 before: a claim and a release for each

    // The retry of an accepted lead still replays, from this instance's own record; another payload is 422.
    const replay = await a.post('key-4', { ...good, message: 'm4' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect((await a.post('key-4', { ...good, message: 'another' })).status).toBe(422);
    expect(calls).toEqual([]);

    // A restart: a new instance over the same store. An accepted key replays from the store; a refused key was
    // never claimed, so it holds nothing there.
    const b = await instance(store);
    const again = await b.post('key-2', { ...good, message: 'm2' });
    expect(again.status).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    calls.length = 0;
    const late = await b.post('over-7', { ...good, message: 'over 7' });
    expect(late.status).toBe(429);
    expect(late.headers['idempotency-replayed']).toBeUndefined();
    // It found the key free (a claim, then the budget, then the release); the next refusal is from memory.
    expect(calls).toEqual(['claim', 'hit', 'release']);
    calls.length = 0;
    expect((await b.post('over-8', { ...good, message: 'over 8' })).status).toBe(429);
    expect(calls).toEqual([]);
  });
});
