/**
 * The rate limits of the `Store` port on every engine (the embedded SQLite store, Upstash over a real redis-server
 * through the REST bridge, the in-process store): the read budget's sliding window, the lead budget's sliding log,
 * and a refund giving back exactly the unit spent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LimitPolicy, Store } from '../../../src/core/ports.ts';
import { useEngines } from '../../helpers/engines.ts';

const { engines } = useEngines();
const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
const WINDOW_START = Date.UTC(2026, 10, 23, 10, 0, 0); // a minute boundary
const T0 = WINDOW_START + 1_000;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Sets the clock to `t` (Date only; timers stay real) and returns it: the Upstash engine's read budget is
 * `@upstash/ratelimit`'s, which reads `Date.now()` itself where the other engines take the caller's `now`.
 */
const at = (t: number) => {
  vi.useFakeTimers({ toFake: ['Date'], now: t });
  return t;
};

/** How many of `tries` hits `store` allows `client` at `now`. */
const allowedHits = async (store: Store, policy: LimitPolicy, client: string, now: number, tries: number) => {
  let allowed = 0;
  for (let i = 0; i < tries; i++) if ((await store.hit(policy, client, now)).allowed) allowed++;
  return allowed;
};

describe.each(engines)('$name store: the read budget (sliding window)', (engine) => {
  it('120 pass with decreasing remaining, the 121st is refused, another client is apart', async () => {
    const store = engine.create();
    const t = at(WINDOW_START + 5_000);
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const r = await store.hit(read, '203.0.113.7', t);
      expect(r.allowed).toBe(true);
      remaining.push(r.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    const refused = await store.hit(read, '203.0.113.7', t);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetAt).toBeGreaterThan(t);
    expect(await store.hit(read, '203.0.113.8', t)).toMatchObject({ allowed: true, remaining: 119 });
    // Half a window later the previous window weighs half: 60 more.
    let later = 0;
    // Bounded: a store that never refuses fails here at once instead of looping.
    while (later < 200 && (await store.hit(read, '203.0.113.7', at(WINDOW_START + 90_000))).allowed) later++;
    expect(later).toBe(60);
  });

  it('130 hits at once (one batch, one transaction where the engine batches) allow exactly 120', async () => {
    const store = engine.create();
    const t = WINDOW_START + 1_000;
    const all = await Promise.all(Array.from({ length: 130 }, () => store.hit(read, 'burst', t)));
    expect(all.filter((r) => r.allowed)).toHaveLength(120);
    expect(
      all
        .filter((r) => r.allowed)
        .map((r) => r.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(await store.hit(read, 'other', t)).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('no 2x burst at a window edge (120 just before it, then nearly nothing just after)', async () => {
    const store = engine.create();
    let before = 0;
    for (let i = 0; i < 130; i++) if ((await store.hit(read, 'edge', at(WINDOW_START + 59_900))).allowed) before++;
    let after = 0;
    for (let i = 0; i < 130; i++) if ((await store.hit(read, 'edge', at(WINDOW_START + 60_100))).allowed) after++;
    expect(before).toBe(120);
    expect(after).toBeLessThanOrEqual(1); // a fixed window would allow 120 more here
    const refused = await store.hit(read, 'edge', WINDOW_START + 60_100);
    expect(refused.allowed).toBe(false);
    // The reset it names is when a unit is free again, and not a millisecond sooner.
    expect((await store.hit(read, 'edge', at(refused.resetAt - 1))).allowed).toBe(false);
    expect((await store.hit(read, 'edge', at(refused.resetAt))).allowed).toBe(true);
  });

  it('two policies count apart for the same client, each to its own limit', async () => {
    const store = engine.create();
    const two: LimitPolicy = { ...read, name: 'two-a-minute', limit: 2 };
    const three: LimitPolicy = { ...read, name: 'three-a-minute', limit: 3 };
    const t = at(WINDOW_START + 5_000);
    expect(await allowedHits(store, two, 'both', t, 3)).toBe(2);
    expect(await allowedHits(store, three, 'both', t, 4)).toBe(3);
    expect((await store.hit(two, 'both', t)).allowed).toBe(false);
  });
});

describe.each(engines)('$name store: the lead budget (sliding log)', (engine) => {
  it('5 per hour, the reset is when the oldest submission frees its slot', async () => {
    const store = engine.create();
    const t0 = WINDOW_START;
    const times = [0, 60_000, 120_000, 600_000, 1_200_000].map((d) => t0 + d);
    for (const [i, t] of times.entries())
      expect(await store.hit(lead, 'c1', t)).toMatchObject({
        allowed: true,
        remaining: 4 - i,
        resetAt: t0 + 3_600_000,
      });
    const refused = await store.hit(lead, 'c1', t0 + 1_800_000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetAt: t0 + 3_600_000 });
    const freed = await store.hit(lead, 'c1', t0 + 3_600_001);
    expect(freed).toMatchObject({ allowed: true, remaining: 0, resetAt: t0 + 60_000 + 3_600_000 });
    expect((await store.hit(lead, 'c1', t0 + 3_600_002)).allowed).toBe(false);
    expect((await store.hit(lead, 'c2', t0 + 3_600_002)).allowed).toBe(true);
  });

  it('lets a client in again exactly one window after its first request, not a millisecond before', async () => {
    const store = engine.create();
    const two: LimitPolicy = { ...lead, name: 'edge-lead', limit: 2 };
    expect(await allowedHits(store, two, 'edge', T0, 2)).toBe(2);
    const W = two.windowSeconds * 1000;
    expect((await store.hit(two, 'edge', T0 + W - 1)).allowed).toBe(false);
    expect((await store.hit(two, 'edge', T0 + W)).allowed).toBe(true);
  });
});

describe.each(engines)('$name store: refunds', (engine) => {
  it('give back exactly the unit spent (a 502 spends nothing), in both algorithms', async () => {
    const store = engine.create();
    const now = Date.now();
    const units = [];
    for (let i = 0; i < 5; i++) units.push(await store.hit(lead, 'r1', now + i));
    expect((await store.hit(lead, 'r1', now + 10)).allowed).toBe(false);
    await store.refund(lead, 'r1', units[2]!);
    expect(await store.hit(lead, 'r1', now + 11)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await store.hit(lead, 'r1', now + 12)).allowed).toBe(false);
    const r = await store.hit(read, 'r1', now);
    await store.refund(read, 'r1', r);
    expect((await store.hit(read, 'r1', now)).remaining).toBe(119);
  });

  it('a unit refunded twice is given back once', async () => {
    const store = engine.create();
    const three: LimitPolicy = { ...read, name: 'edge-read', limit: 3 };
    const first = await store.hit(three, 'twice', T0);
    await store.refund(three, 'twice', first);
    await store.refund(three, 'twice', first);
    expect(await allowedHits(store, three, 'twice', T0, 5)).toBe(three.limit);
  });

  it('a refund for a client this store never counted changes nothing and does not fail', async () => {
    const other = engine.create();
    const store = engine.create();
    for (const policy of [
      { ...read, name: 'edge-read', limit: 3 },
      { ...lead, name: 'edge-lead', limit: 2 },
    ]) {
      const result = await other.hit(policy, 'stranger', T0);
      await expect(store.refund(policy, 'stranger', result)).resolves.toBeUndefined();
      expect(await allowedHits(store, policy, 'stranger', T0, policy.limit + 1)).toBe(policy.limit);
    }
  });
});
