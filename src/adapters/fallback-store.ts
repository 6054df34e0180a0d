/**
 * @module Never unlimited: the shared store, with this process's own limits and keys while it is slow or down. The
 * outbox has no fallback: a lead is acknowledged only once the CRM or the shared outbox holds it (a memory queue
 * would be lost with the instance).
 */
import { errorText } from '../core/error-text.ts';
import type { LimitResult, Log, Store } from '../core/ports.ts';
import { createMemoryStore } from './memory-store/index.ts';

/** A store that falls back to this process's own for limits and keys, counting each time it did. */
export interface FallbackStore extends Store {
  /** How many operations fell back to the in-process store since start. */
  fallbacks(): number;
}

/** Records that operation `op` fell back (logged as `store_fallback`, with the running count). */
type FellBack = (op: string, e: unknown, fields?: Record<string, unknown>) => void;

/** The units one request spent in each store, as one string (`LimitResult.unit`). */
const unitOf = (units: { shared?: string; local?: string }) => JSON.stringify(units);

/**
 * Limits counted in both stores: this instance's own count runs alongside the shared one, so a request is never
 * allowed more than the budget by this instance, whether the shared store answered it or not (a Redis that answers
 * some requests in time and not others must not add the two budgets up).
 */
function fallbackLimits(shared: Store, local: Store, fellBack: FellBack): Pick<Store, 'hit' | 'refund'> {
  return {
    async hit(policy, client, now) {
      const here = await local.hit(policy, client, now);
      let there: LimitResult;
      try {
        there = await shared.hit(policy, client, now);
      } catch (e) {
        fellBack('hit', e, { policy: policy.name });
        return here.unit ? { ...here, unit: unitOf({ local: here.unit }) } : here;
      }
      if (!there.allowed) {
        if (here.unit) await local.refund(policy, client, here);
        return there;
      }
      if (!here.allowed) {
        await shared.refund(policy, client, there).catch((e) => fellBack('refund', e));
        return here;
      }
      return { ...there, unit: unitOf({ shared: there.unit, local: here.unit }) };
    },
    async refund(policy, client, result) {
      if (!result.allowed || !result.unit) return;
      const units = JSON.parse(result.unit) as { shared?: string; local?: string };
      if (units.local) await local.refund(policy, client, { ...result, unit: units.local });
      if (units.shared) await shared.refund(policy, client, { ...result, unit: units.shared });
    },
  };
}

/**
 * Idempotency keys claimed in this process first: a key this process has seen (pending or answered) is answered
 * from here without asking the shared store, so a retry during an outage finds the first answer even when the
 * shared store never recorded it.
 */
function fallbackKeys(
  shared: Store,
  local: Store,
  fellBack: FellBack,
): Pick<Store, 'claim' | 'recall' | 'complete' | 'release'> {
  return {
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
    recall: (key) => local.recall?.(key),
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
  };
}

/**
 * Unanswered questions counted by the shared store alone: while it fails, counting is dropped, never an error,
 * logged once (`unanswered_not_counted`, then `unanswered_counting_resumed` with how many were dropped).
 */
function fallbackQuestions(shared: Store, log: Log): Pick<Store, 'countQuestion' | 'topQuestions'> {
  /** Unanswered questions not counted since the shared store last counted one. */
  let dropped = 0;
  return {
    async countQuestion(key, text, at, asker) {
      try {
        await shared.countQuestion(key, text, at, asker);
      } catch (e) {
        if (dropped++ === 0)
          log('unanswered_not_counted', {
            level: 'warn',
            op: 'countQuestion',
            error: errorText(e).slice(0, 300),
            note: 'the shared store failed; questions are not counted (logged once) until it answers again',
          });
        return;
      }
      if (dropped) {
        log('unanswered_counting_resumed', { level: 'info', op: 'countQuestion', dropped });
        dropped = 0;
      }
    },
    topQuestions: (limit) => shared.topQuestions(limit),
  };
}

/** `shared`, falling back to `local` (this process's own store) for limits and keys when it fails. */
export function createFallbackStore(shared: Store, log: Log, local: Store = createMemoryStore()): FallbackStore {
  let count = 0;
  const fellBack: FellBack = (op, e, fields = {}) => {
    count++;
    log('store_fallback', { level: 'warn', op, ...fields, fallbacks: count, error: errorText(e).slice(0, 300) });
  };
  return {
    ...shared,
    fallbacks: () => count,
    ...fallbackLimits(shared, local, fellBack),
    ...fallbackKeys(shared, local, fellBack),
    ...fallbackQuestions(shared, log),
    describe: () => `${shared.describe()}, falling back to per-instance limits when it fails`,
  };
}
