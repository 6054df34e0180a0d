/**
 * The read budget on the Upstash engine is `@upstash/ratelimit`'s `Ratelimit.slidingWindow(120, '60 s')`
 * (src/adapters/upstash-store/rate-limits.ts); the embedded engine decides from its own counters
 * (src/core/rate-limit.ts).
 * Both are asked here through the same seeded sequence of requests (four clients, bursts, minute edges, clients
 * hammering past a refusal) on one injected clock (Date only: the library reads `Date.now()` itself), with a
 * real redis-server behind the Upstash-REST bridge: the library itself, the Upstash store over it and the
 * embedded SQLite store, each through this instance's memory of refusals where the service uses it, decide
 * alike on every request (allowed or refused, and the remaining count). Then why the library's ephemeral cache
 * is off: after a burst, it refuses for a whole minute reads the sliding window allows.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import fc from 'fast-check';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore, readLimiter } from '../../../src/adapters/upstash-store/index.ts';
import { checkRateLimit, READ_POLICY } from '../../../src/core/rate-limit.ts';
import { useEngines } from '../../helpers/engines.ts';

const { bridge } = useEngines();
const W = 60_000;
const START = Date.UTC(2026, 10, 23, 10, 0, 0) - 30_000; // half a minute before a minute boundary
const silent = () => {};
let run = 0;

afterEach(() => {
  vi.useRealTimers();
});

/** The clock (Date only; timers stay real) set to `t`. */
const at = (t: number) => {
  vi.useFakeTimers({ toFake: ['Date'], now: t });
  return t;
};

/** The three deciders, each fresh: the library alone, the Upstash store over it, the embedded store. */
function deciders() {
  const prefix = `lib${process.pid}-${++run}`;
  const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
  const library = readLimiter(redis, `${prefix}-lib`, READ_POLICY, { timeoutMs: 10_000 });
  const upstash = createUpstashStore({ url: bridge().url, token: bridge().token, prefix, timeoutMs: 10_000 });
  const embedded = createSqliteStore({ file: join(mkdtempSync(join(tmpdir(), 'kartage-lib-')), 'kartage.db') });
  const checked = (store: typeof embedded) => async (client: string, now: number) => {
    const r = await checkRateLimit({ store, policy: READ_POLICY, client, log: silent, now });
    return { ok: r.ok, remaining: r.remaining };
  };
  return {
    library: async (client: string) => {
      const r = await library.limit(client);
      return { ok: r.success, remaining: Math.max(0, r.remaining) };
    },
    upstash: checked(upstash),
    embedded: checked(embedded),
  };
}

describe('@upstash/ratelimit and the embedded engine', () => {
  it('decide alike on the same requests: allowed or refused, and what remains', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            client: fc.constantFrom('c0', 'c1', 'c2', 'c3'),
            gap: fc.constantFrom(0, 0, 0, 0, 1, 40, 500, 2_000, 9_000, 31_000),
            burst: fc.constantFrom(1, 1, 1, 5, 60, 130),
          }),
          { minLength: 20, maxLength: 60 },
        ),
        async (steps) => {
          const d = deciders();
          let t = START;
          for (const { client, gap, burst } of steps) {
            t += gap;
            for (let i = 0; i < burst; i++) {
              at(t);
              const [lib, up, emb] = [await d.library(client), await d.upstash(client, t), await d.embedded(client, t)];
              expect({ t: t - START, client, lib, up }).toEqual({ t: t - START, client, lib: emb, up: emb });
            }
          }
        },
      ),
      { numRuns: 6, seed: 37_5 },
    );
  }, 120_000);

  it('at a minute edge: 120 just before it, then the previous minute weighs less and less', async () => {
    const d = deciders();
    const edge = Math.ceil(START / W) * W;
    const outcomes: boolean[] = [];
    for (const t of [edge - 100, edge + 100, edge + 30_000, edge + 59_999]) {
      for (let i = 0; i < 130; i++) {
        at(t);
        const [lib, up, emb] = [await d.library('edge'), await d.upstash('edge', t), await d.embedded('edge', t)];
        expect([lib, up]).toEqual([emb, emb]);
        outcomes.push(emb.ok);
      }
    }
    const allowed = (k: number) => outcomes.slice(k * 130, (k + 1) * 130).filter(Boolean).length;
    expect([allowed(0), allowed(1), allowed(2), allowed(3)]).toEqual([120, 1, 59, 60]);
  });
});

describe("the library's ephemeral cache (off in the store)", () => {
  it('after a burst it refuses, for the whole next minute, the reads the sliding window allows', async () => {
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    const cached = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(120, '60 s'),
      prefix: `cache${process.pid}`,
      ephemeralCache: new Map(),
      enableTelemetry: false,
    });
    const d = deciders();
    const minute = Math.ceil(START / W) * W;
    // 120 in the first millisecond of a minute; then, through the next minute, four reads a second.
    const served = { cached: 0, store: 0 };
    for (let i = 0; i < 120; i++) {
      at(minute + 1);
      await cached.limit('burst');
      await d.upstash('burst', minute + 1);
    }
    for (let q = 1; q < 240; q++) {
      const t = at(minute + W + q * 250);
      if ((await cached.limit('burst')).success) served.cached++;
      if ((await d.upstash('burst', t)).ok) served.store++;
    }
    // The sliding window frees two units a second as the burst's minute weighs less: half the reads are served.
    // The cache holds its first refusal (half a second in) to the end of that minute: one read is served.
    expect(served.store).toBeGreaterThanOrEqual(115);
    expect(served.cached).toBeLessThanOrEqual(2);
  });
});

describe("the library's analytics (KARTAGE_RATELIMIT_ANALYTICS)", () => {
  it('write the read budget to Upstash only when set (not by default), off the answer (handed to defer)', async () => {
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    for (const analytics of [undefined, false, true]) {
      const prefix = `analytics${process.pid}-${analytics}`;
      const deferred: Promise<unknown>[] = [];
      const store = createUpstashStore({
        url: bridge().url,
        token: bridge().token,
        prefix,
        analytics,
        defer: (work) => void deferred.push(work),
      });
      expect((await store.hit(READ_POLICY, 'c1', Date.now())).allowed).toBe(true);
      expect(deferred).toHaveLength(1);
      await Promise.all(deferred);
      const events = (await redis.keys(`${prefix}:*`)).filter((k) => k.startsWith(`${prefix}:rl:read:events:`));
      expect(events.length > 0).toBe(analytics === true);
    }
  });
});

describe('a read budget check Upstash does not answer in time', () => {
  it('rejects with a TimeoutError that names the bound it waited', async () => {
    const store = createUpstashStore({
      url: bridge().url,
      token: bridge().token,
      prefix: `slow${process.pid}`,
      timeoutMs: 200,
    });
    bridge().setFault({ delayMs: 5_000 });
    try {
      await expect(store.hit(READ_POLICY, 'c', Date.now())).rejects.toMatchObject({
        name: 'TimeoutError',
        message: expect.stringContaining('200 ms'),
      });
    } finally {
      bridge().setFault('none');
    }
  });
});

describe('a refusal whose answer arrives once the clock has left the window it was decided in', () => {
  const three = { ...READ_POLICY, name: 'in-flight', limit: 3 };
  const minute = Math.ceil(START / W) * W;

  /** The refusal of a 4th read at half past `minute`, the clock moved by `shift` while its answer is in flight. */
  async function refusal(shift: number) {
    let inFlight = false;
    const store = createUpstashStore({
      url: bridge().url,
      token: bridge().token,
      prefix: `flight${process.pid}-${++run}`,
      // Handed the library's answer before the store reads the two windows' counts: the clock moves here.
      defer: () => void (inFlight && at(minute + 30_000 + shift)),
    });
    for (let i = 0; i < 3; i++) expect((await store.hit(three, 'c', at(minute + 30_000))).allowed).toBe(true);
    inFlight = true;
    return store.hit(three, 'c', minute + 30_000);
  }

  it('names when a unit frees in that window, the clock gone past its end or back before its start', async () => {
    const still = await refusal(0);
    expect(still).toMatchObject({ allowed: false, remaining: 0 });
    expect(still.resetAt).toBeGreaterThan(minute + 30_000);
    expect(await refusal(40_000)).toEqual(still);
    expect(await refusal(-40_000)).toEqual(still);
  });
});
