/**
 * The fallback store's promises (src/adapters/fallback-store.ts): never more than the budget on this instance, a
 * unit given back in the store that spent it, keys claimed here first, and what it logs when the shared store
 * fails. First one operation at a time, the shared store being the real in-process store behind a switch that
 * makes every call fail (an outage); then over Upstash on a real redis-server with Redis down.
 */
import { describe, expect, it } from 'vitest';
import { createFallbackStore } from '../../src/adapters/fallback-store.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { LimitPolicy, Store } from '../../src/core/ports.ts';
import { useEngines } from '../helpers/engines.ts';

const { engines, bridge } = useEngines();
const lead: LimitPolicy = { name: 'lead', limit: 2, windowSeconds: 3600, algorithm: 'sliding-log' };
const T = Date.UTC(2026, 10, 23, 10, 0, 0);

/** A real in-process store whose every call fails while `down` is set (with `message`, when given). */
function switchable() {
  const real = createMemoryStore();
  const state = { down: false, message: 'shared store unreachable' };
  const failing = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'describe') return value;
      return (...args: unknown[]) =>
        state.down ? Promise.reject(new Error(state.message)) : (value as (...a: unknown[]) => unknown)(...args);
    },
  });
  return { real, state, shared: failing as Store };
}

function setup() {
  const { real, state, shared } = switchable();
  const local = createMemoryStore();
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const store = createFallbackStore(shared, (event, fields) => events.push({ event, fields }), local);
  return { real, state, local, store, events };
}

/** How many of `lead`'s units `store` would still allow `client` at time `at` (spends them; counts to 10 at most,
 * so a store that never refuses fails the test at once instead of looping). */
async function left(store: Store, client: string, at = T) {
  let n = 0;
  while (n < 10 && (await store.hit(lead, client, at)).allowed) n++;
  return n;
}

describe('the fallback store: limits', () => {
  it('spends one unit in each store and names both, and a refund gives both back', async () => {
    const { real, local, store } = setup();
    const r = await store.hit(lead, 'c', T);
    expect(r).toMatchObject({ allowed: true, remaining: 1 });
    expect(Object.keys(JSON.parse(r.unit!)).sort()).toEqual(['local', 'shared']);
    await store.refund(lead, 'c', r);
    expect(await left(real, 'c')).toBe(2);
    expect(await left(local, 'c')).toBe(2);
  });

  it('a refusal by the shared store gives this instance its unit back and answers as the shared store did', async () => {
    const { real, local, store } = setup();
    await left(real, 'c'); // the shared budget is spent (another instance)
    const r = await store.hit(lead, 'c', T);
    expect(r).toMatchObject({ allowed: false, remaining: 0 });
    expect(r.unit).toBeUndefined();
    expect(await left(local, 'c')).toBe(2);
  });

  it("a refusal here gives the shared store its unit back and answers with this instance's refusal", async () => {
    const { real, local, store, events } = setup();
    await left(local, 'c'); // this instance spent its budget while the shared store did not count it
    const r = await store.hit(lead, 'c', T);
    expect(r).toMatchObject({ allowed: false, remaining: 0 });
    expect(await left(real, 'c')).toBe(2);
    expect(events).toEqual([]);
  });

  it('a failing shared store: the local unit alone, named as local, logged with the policy and count', async () => {
    const { state, local, store, events } = setup();
    state.down = true;
    const r = await store.hit(lead, 'c', T);
    expect(r).toMatchObject({ allowed: true, remaining: 1 });
    expect(JSON.parse(r.unit!)).toEqual({ local: expect.any(String) });
    expect(events).toEqual([
      {
        event: 'store_fallback',
        fields: { level: 'warn', op: 'hit', policy: 'lead', fallbacks: 1, error: 'shared store unreachable' },
      },
    ]);
    expect(store.fallbacks()).toBe(1);
    await store.refund(lead, 'c', r); // the shared store is not asked: it spent nothing
    expect(store.fallbacks()).toBe(1);
    state.down = false;
    expect(await left(local, 'c')).toBe(2);
  });

  it('a refusal here whose unit the failing shared store cannot take back is logged, still refused', async () => {
    const local = createMemoryStore();
    await left(local, 'c');
    const shared = createMemoryStore();
    const events: { event: string; fields?: Record<string, unknown> }[] = [];
    const store = createFallbackStore(
      { ...shared, refund: () => Promise.reject(new Error('refund lost')) },
      (event, fields) => events.push({ event, fields }),
      local,
    );
    expect(await store.hit(lead, 'c', T)).toMatchObject({ allowed: false });
    expect(events).toEqual([
      { event: 'store_fallback', fields: { level: 'warn', op: 'refund', fallbacks: 1, error: 'refund lost' } },
    ]);
    expect(store.fallbacks()).toBe(1);
  });

  it('a refused or unit-less result refunds nothing', async () => {
    const { real, local, store } = setup();
    const spent = await store.hit(lead, 'c', T);
    await store.refund(lead, 'c', { ...spent, allowed: false });
    await store.refund(lead, 'c', { ...spent, unit: undefined });
    expect(await left(real, 'c')).toBe(1);
    expect(await left(local, 'c')).toBe(1);
  });

  it('the logged error is the first 300 characters of what the shared store said', async () => {
    const { state, store, events } = setup();
    state.down = true;
    state.message = 'x'.repeat(400);
    await store.hit(lead, 'c', T);
    expect(events[0]!.fields!.error).toBe('x'.repeat(300));
  });
});

describe('the fallback store: idempotency keys', () => {
  it('a key the shared store holds is not kept here; one claimed anew stays pending here', async () => {
    const { real, local, store } = setup();
    await real.claim('k-held', 'fp', 60); // claimed by another instance
    expect(await store.claim('k-held', 'fp', 60)).toEqual({ state: 'pending', fingerprint: 'fp' });
    expect(await local.claim('k-held', 'other', 60)).toBeUndefined();
    expect(await store.claim('k-new', 'fp', 60)).toBeUndefined();
    expect(await local.claim('k-new', 'other', 60)).toEqual({ state: 'pending', fingerprint: 'fp' });
  });

  it('a failing shared store: claimed here, logged; the answer is kept here and the key released in both', async () => {
    const { state, real, local, store, events } = setup();
    state.down = true;
    expect(await store.claim('k', 'fp', 60)).toBeUndefined();
    expect(await store.claim('k', 'fp', 60)).toEqual({ state: 'pending', fingerprint: 'fp' });
    await store.complete('k', { state: 'done', fingerprint: 'fp', status: 200, body: { ok: true } }, 60);
    expect(await store.claim('k', 'fp', 60)).toMatchObject({ state: 'done', status: 200 });
    await store.release('k2');
    expect(events.map((e) => e.fields!.op)).toEqual(['claim', 'complete', 'release']);
    expect(events.map((e) => e.fields!.fallbacks)).toEqual([1, 2, 3]);
    state.down = false;
    await store.claim('k3', 'fp', 60);
    await store.release('k3');
    expect(await real.claim('k3', 'fp2', 60)).toBeUndefined();
    expect(await local.claim('k3', 'fp2', 60)).toBeUndefined();
  });

  it('recalls at once what this instance holds of a key; nothing over a local store that keeps no copy', async () => {
    const { state, store } = setup();
    state.down = true;
    const done = { state: 'done', fingerprint: 'fp', status: 201, body: { ok: true } } as const;
    await store.claim('k', 'fp', 60);
    expect(store.recall!('k')).toEqual({ state: 'pending', fingerprint: 'fp' });
    await store.complete('k', done, 60);
    expect(store.recall!('k')).toEqual(done);
    expect(store.recall!('never')).toBeUndefined();
    const { recall: _, ...noCopy } = createMemoryStore();
    const over = createFallbackStore(createMemoryStore(), () => {}, noCopy);
    await over.claim('k', 'fp', 60);
    expect(over.recall!('k')).toBeUndefined();
  });
});

describe('the fallback store: unanswered questions and its description', () => {
  it('the not-counted line keeps the first 300 characters of the error', async () => {
    const { state, store, events } = setup();
    state.down = true;
    state.message = 'y'.repeat(400);
    await store.countQuestion('q', 'q', T);
    expect(events[0]!.fields!.error).toBe('y'.repeat(300));
  });

  it('logs the first dropped count with why, and the count dropped once the shared store answers', async () => {
    const { state, store, events } = setup();
    state.down = true;
    await store.countQuestion('q', 'q', T);
    await store.countQuestion('q', 'q', T);
    state.down = false;
    await store.countQuestion('q', 'q', T);
    await store.countQuestion('q', 'q', T);
    expect(events).toEqual([
      {
        event: 'unanswered_not_counted',
        fields: {
          level: 'warn',
          op: 'countQuestion',
          error: 'shared store unreachable',
          note: 'the shared store failed; questions are not counted (logged once) until it answers again',
        },
      },
      { event: 'unanswered_counting_resumed', fields: { level: 'info', op: 'countQuestion', dropped: 2 } },
    ]);
    expect(await store.topQuestions(5)).toMatchObject([{ text: 'q', count: 2 }]);
  });

  it('describes itself as the shared store with its fallback', () => {
    const { store } = setup();
    expect(store.describe()).toBe('in-process store (memory), falling back to per-instance limits when it fails');
  });
});

describe('the fallback store over Upstash with Redis down', () => {
  const upstash = engines.find((e) => e.name === 'upstash')!;

  it('keeps limits and keys per instance while Redis is down, and counts it', async () => {
    const events: string[] = [];
    const store = createFallbackStore(upstash.create({ timeoutMs: 100, leadTimeoutMs: 150 }), (e) => events.push(e));
    const five: LimitPolicy = { ...lead, limit: 5 };
    bridge().setFault('down');
    try {
      const now = Date.now();
      const leads = [];
      for (let i = 0; i < 8; i++) leads.push((await store.hit(five, 'fb', now)).allowed);
      expect(leads.filter(Boolean)).toHaveLength(5);
      expect(await store.claim('idem:fb', 'fp', 60)).toBeUndefined();
      expect(await store.claim('idem:fb', 'fp', 60)).toEqual({ state: 'pending', fingerprint: 'fp' });
      await store.complete('idem:fb', { state: 'done', fingerprint: 'fp', status: 200, body: { ok: true } }, 86_400);
      expect(await store.claim('idem:fb', 'fp', 60)).toMatchObject({ state: 'done', status: 200 });
      expect(store.fallbacks()).toBeGreaterThanOrEqual(10);
      expect(events).toContain('store_fallback');
    } finally {
      bridge().setFault('none');
    }
  });

  it('drops unanswered questions while Redis is down, logged once, never an error', async () => {
    const events: { event: string; fields?: Record<string, unknown> }[] = [];
    const store = createFallbackStore(upstash.create({ timeoutMs: 100, leadTimeoutMs: 150 }), (event, fields) =>
      events.push({ event, fields }),
    );
    await store.countQuestion('before', 'before', T);
    bridge().setFault('down');
    try {
      for (let i = 0; i < 5; i++) await expect(store.countQuestion('q', 'q', T)).resolves.toBeUndefined();
      expect(events.map((e) => e.event)).toEqual(['unanswered_not_counted']);
      await expect(store.topQuestions(10)).rejects.toBeTruthy(); // the report says the store is down
    } finally {
      bridge().setFault('none');
    }
    await store.countQuestion('after', 'after', T + 1_000);
    expect(events.map((e) => e.event)).toEqual(['unanswered_not_counted', 'unanswered_counting_resumed']);
    expect(events[1]!.fields).toMatchObject({ dropped: 5 });
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['after', 'before']);
    expect(store.fallbacks()).toBe(0); // dropping a count is not a limit falling back
  });
});
