/** @module The in-process store's idempotency records, each kept until its claim or answer expires. */
import type { IdempotencyRecord, Store } from '../../core/ports.ts';
import type { Expiry } from './expiry.ts';

/** The store's `claim`, `complete`, `recall` and `release`, on a map of `expiry`. */
export function memoryIdempotency(
  expiry: Expiry,
  clock: () => number,
): Pick<Store, 'claim' | 'complete' | 'recall' | 'release'> {
  const keys = expiry.map<IdempotencyRecord>();
  return {
    async claim(key, fingerprint, claimSeconds) {
      const now = clock();
      const held = keys.get(key);
      if (held && held.until > now) return held.value;
      keys.set(key, { value: { state: 'pending', fingerprint }, until: now + claimSeconds * 1000 });
      return undefined;
    },
    async complete(key, record, ttlSeconds) {
      keys.set(key, { value: record, until: clock() + ttlSeconds * 1000 });
    },
    recall(key) {
      const held = keys.get(key);
      return held && held.until > clock() ? held.value : undefined;
    },
    async release(key) {
      if (keys.get(key)?.value.state === 'pending') keys.delete(key);
    },
  };
}
