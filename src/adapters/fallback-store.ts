/**
 * @module Never unlimited: wraps the shared store (Upstash, or the SQLite file) so that when it is slow or
 * down, each request falls back to this process's own limiter and idempotency records (the in-process
 * store). A Redis outage then degrades the limits to per-instance, never to none, and a key used twice on
 * one instance still makes one lead. Every fallback is logged (`store_fallback`, with the running count)
 * and counted (`fallbacks()`). The outbox has no fallback: a lead is acknowledged only once the CRM or the
 * shared outbox holds it (a memory queue would be lost with the instance).
 *
 * Idempotency keys are claimed in this process first: a key this process has seen (pending or answered)
 * is answered from here without asking the shared store, so a retry during an outage finds the first
 * answer even when the shared store never recorded it.
 */
import type { Log, Store } from '../core/ports.ts';
import { createMemoryStore } from './memory-store.ts';

export interface FallbackStore extends Store {
  /** How many operations fell back to the in-process store since start. */
  fallbacks(): number;
}

const LOCAL = 'local:';

export function createFallbackStore(shared: Store, log: Log, local: Store = createMemoryStore()): FallbackStore {
  let count = 0;
  const fellBack = (op: string, e: unknown, fields: Record<string, unknown> = {}) => {
    count++;
    log('store_fallback', { level: 'warn', op, ...fields, fallbacks: count, error: String((e as Error)?.message ?? e).slice(0, 300) });
  };

  return {
    ...shared,
    fallbacks: () => count,
    async hit(policy, client, now) {
      try {
        return await shared.hit(policy, client, now);
      } catch (e) {
        fellBack('hit', e, { policy: policy.name });
        const r = await local.hit(policy, client, now);
        return r.unit ? { ...r, unit: LOCAL + r.unit } : r;
      }
    },
    async refund(policy, client, result) {
      if (result.unit?.startsWith(LOCAL)) return local.refund(policy, client, { ...result, unit: result.unit.slice(LOCAL.length) });
      await shared.refund(policy, client, result);
    },
    async claim(key, fingerprint, claimSeconds) {
      const here = await local.claim(key, fingerprint, claimSeconds);
      if (here) return here;
      try {
        const held = await shared.claim(key, fingerprint, claimSeconds);
        if (held) await local.release(key);
        return held;
      } catch (e) {
        fellBack('claim', e);
        return undefined; // claimed in this process
      }
    },
    async complete(key, record, ttlSeconds) {
      await local.complete(key, record, ttlSeconds);
      try {
        await shared.complete(key, record, ttlSeconds);
      } catch (e) {
        fellBack('complete', e);
      }
    },
    async release(key) {
      await local.release(key);
      try {
        await shared.release(key);
      } catch (e) {
        fellBack('release', e);
      }
    },
    describe: () => `${shared.describe()}, falling back to per-instance limits when it fails`,
  };
}
