/**
 * The Upstash store's bounds (src/adapters/upstash-store/context.ts): every round trip is cut off after its bound,
 * and a lead-path script carries a deadline before the caller's bound, never less than half of it, after which
 * Redis runs it for nothing, so a 502 never lands later. Over a real redis-server behind the Upstash-REST bridge;
 * the deadlines are read off the requests handed to `fetch` (a stub answering as Upstash's REST API does).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';
import type { LimitPolicy } from '../../../src/core/ports.ts';
import { entry, useEngines } from '../../helpers/engines.ts';

const { engines, bridge, redis } = useEngines();
const upstash = engines.find((e) => e.name === 'upstash')!;
const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
const lead: LimitPolicy = { name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' };
const T0 = Date.parse('2026-03-02T01:00:00Z');

/** Stubs the global `fetch` Upstash's client calls; returns the commands sent (the JSON bodies). */
function upstashStub() {
  const sent: unknown[][] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as unknown[];
    // The client batches commands (auto-pipelining): a pipeline is a list of commands, answered in a list.
    const commands = (Array.isArray(body[0]) ? body : [body]) as unknown[][];
    sent.push(...commands);
    // Every script answers nil: the claim finds the key free; the push's answer is not read.
    const results = commands.map(() => ({ result: null }));
    return new Response(JSON.stringify(Array.isArray(body[0]) ? results : results[0]), { status: 200 });
  });
  return sent;
}

/** The deadline (ARGV[1]) of an EVALSHA command: after the script's sha, the key count, the keys. */
const deadlineOf = (command: unknown[]) => Number(command[3 + Number(command[2])]);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the bounds', () => {
  it('an unreachable Redis rejects; a slow one is cut off by the timeout instead of hanging', async () => {
    const store = upstash.create({ timeoutMs: 200, leadTimeoutMs: 300 });
    bridge().setFault('down');
    await expect(store.hit(read, 'c', Date.now())).rejects.toBeTruthy();
    await expect(store.outboxPush('x', entry('x'))).rejects.toBeTruthy();
    bridge().setFault({ delayMs: 5_000 });
    // The abort comes from the store's own bound (AbortSignal.timeout), not from a test timeout.
    await expect(store.hit(read, 'c', Date.now())).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect(store.claim('k', 'fp', 60)).rejects.toMatchObject({ name: 'TimeoutError' });
    bridge().setFault('none');
    expect((await store.hit(read, 'c', Date.now())).allowed).toBe(true);
  });
});

describe('the deadline of a lead-path script', () => {
  it('a write Redis reaches after its deadline does nothing (a 502 never lands later)', async () => {
    const store = upstash.create({ leadTimeoutMs: 300 });
    // Scripts loaded first (a first use that fails would only leave an unknown EVALSHA behind).
    await store.outboxPush('warm', entry('warm'));
    await store.outboxAck('warm');
    await store.claim('idem:warm', 'fp', 60);
    await store.hit(lead, 'warm', Date.now());
    // A stalled Redis: the commands wait in its socket, past the caller's bound, and run when it resumes.
    redis().process.kill('SIGSTOP');
    try {
      await Promise.all([
        expect(store.outboxPush('late', entry('late'))).rejects.toBeTruthy(),
        expect(store.claim('idem:late', 'fp', 60)).rejects.toBeTruthy(),
        expect(store.hit(lead, 'late', Date.now())).rejects.toBeTruthy(),
      ]);
    } finally {
      redis().process.kill('SIGCONT');
    }
    // No sleep: the bridge sends every command on one Redis connection, in order, so these reads run
    // after the late writes have run (Redis answers one connection's commands in the order sent).
    expect(await store.outboxSize()).toBe(0);
    expect(await store.claim('idem:late', 'fp2', 60)).toBeUndefined();
    expect((await store.hit(lead, 'late', Date.now())).remaining).toBe(4);
  });

  it.each([1_500, 150])('is before the caller gives up and no sooner than half its bound (%i ms)', async (bound) => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const sent = upstashStub();
    const store = createUpstashStore({ url: 'https://upstash.test', token: 't', prefix: 'p', leadTimeoutMs: bound });
    await store.outboxPush('q0', '{}');
    expect(await store.claim('k', 'fp', 60)).toBeUndefined();
    expect(sent.map((c) => c[0])).toEqual(['evalsha', 'evalsha']);
    for (const deadline of sent.map(deadlineOf)) {
      expect(deadline).toBeLessThan(T0 + bound);
      expect(deadline).toBeGreaterThanOrEqual(T0 + bound / 2);
    }
  });
});
