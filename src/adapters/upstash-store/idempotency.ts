/** @module The Upstash store's idempotency records: one string key each, expiring with its claim or answer. */
import type { IdempotencyRecord, Store } from '../../core/ports.ts';
import { LATE, type UpstashContext } from './context.ts';

// Returns what the key holds, or claims it (nil) when it holds nothing. ARGV: deadline, record, ttl (ms).
const CLAIM = `${LATE}
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return false`;

// ARGV: deadline, record, ttl (ms).
const COMPLETE = `${LATE}
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

// Deletes the key only while it is still a pending claim (never a finished answer).
const RELEASE = `
local held = redis.call('GET', KEYS[1])
if held and string.find(held, '"state":"pending"', 1, true) then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The store's `claim`, `complete` and `release`. */
export function upstashIdempotency({
  leads,
  key,
  deadline,
}: UpstashContext): Pick<Store, 'claim' | 'complete' | 'release'> {
  const claimScript = leads.createScript<string | null>(CLAIM);
  const completeScript = leads.createScript<number>(COMPLETE);
  const releaseScript = leads.createScript<number>(RELEASE);
  return {
    async claim(k, fingerprint, claimSeconds) {
      const pending: IdempotencyRecord = { state: 'pending', fingerprint };
      const held = await claimScript.exec([key(k)], [deadline(), JSON.stringify(pending), String(claimSeconds * 1000)]);
      return held == null ? undefined : (JSON.parse(held) as IdempotencyRecord);
    },
    async complete(k, record, ttlSeconds) {
      await completeScript.exec([key(k)], [deadline(), JSON.stringify(record), String(ttlSeconds * 1000)]);
    },
    async release(k) {
      await releaseScript.exec([key(k)], []);
    },
  };
}
