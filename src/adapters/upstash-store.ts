/**
 * @module The production store: Upstash Redis over its REST API (`@upstash/redis`), shared by every
 * function instance. Reads are limited by `@upstash/ratelimit`'s fixed window; the lead budget is a
 * sliding log (one sorted set per client) because the contract's lead reset is "seconds until a slot
 * frees", which none of the library's algorithms reports. Every operation is one round trip and is cut
 * off after `timeoutMs`, so a slow or unreachable Redis costs a request at most that long.
 */
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { IdempotencyRecord, LimitPolicy, LimitResult, Store } from '../core/ports.ts';

export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Upper bound for one Redis round trip, retries included. @default 300 */
  timeoutMs?: number;
  /**
   * Bound for writes to the lead outbox, the last place a lead can go: worth waiting longer for than a
   * rate-limit check (a Redis catching up after a stall still takes the lead). @default 1500
   */
  outboxTimeoutMs?: number;
  /** Prefix of every key. @default 'kartage' */
  prefix?: string;
}

// Drops the log entries that left the window, adds this one when there is room, and reports the oldest
// entry (the next slot to free). ARGV: now (ms), window (ms), limit, unique member.
const SLIDING_LOG = `
local key, now, window, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
local allowed = 0
if used < limit then
  redis.call('ZADD', key, now, ARGV[4])
  used = used + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, used, tonumber(oldest[2] or now)}`;

// Returns what the key holds, or claims it (nil) when it holds nothing.
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

// Deletes the key only while it is still a pending claim (never a finished answer).
const RELEASE = `
local held = redis.call('GET', KEYS[1])
if held and string.find(held, '"state":"pending"', 1, true) then return redis.call('DEL', KEYS[1]) end
return 0`;

export function createUpstashStore(opts: UpstashStoreOptions): Store {
  const timeoutMs = opts.timeoutMs ?? 300;
  const prefix = opts.prefix ?? 'kartage';
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    automaticDeserialization: false,
    enableTelemetry: false,
    retry: { retries: 1, backoff: () => 10 },
    // A fresh signal per request: the bound covers the request and its retry.
    signal: () => AbortSignal.timeout(timeoutMs),
  });
  const outboxRedis = new Redis({
    url: opts.url,
    token: opts.token,
    automaticDeserialization: false,
    enableTelemetry: false,
    retry: { retries: 2, backoff: (n) => 50 * (n + 1) },
    signal: () => AbortSignal.timeout(opts.outboxTimeoutMs ?? 1500),
  });
  const slidingLog = redis.createScript<[number, number, number]>(SLIDING_LOG);
  const claimScript = redis.createScript<string | null>(CLAIM);
  const releaseScript = redis.createScript<number>(RELEASE);
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = (p: LimitPolicy) => {
    let l = limiters.get(p.name);
    if (!l) {
      // timeout 0: our own signal bounds the call and a timeout must surface as a failure (fail open,
      // logged), not as the library's silent "success" with zero limits.
      l = new Ratelimit({ redis, limiter: Ratelimit.fixedWindow(p.limit, `${p.windowSeconds} s`), prefix: `${prefix}:rl:${p.name}`, timeout: 0, analytics: false });
      limiters.set(p.name, l);
    }
    return l;
  };
  const key = (k: string) => `${prefix}:${k}`;
  const outbox = key('outbox');

  return {
    async hit(policy, client, now): Promise<LimitResult> {
      if (policy.algorithm === 'fixed-window') {
        // The library reads the clock itself (Date.now); `now` is the same clock in production.
        const r = await limiterFor(policy).limit(client);
        return { allowed: r.success, limit: policy.limit, remaining: Math.max(0, r.remaining), resetAt: r.reset };
      }
      const windowMs = policy.windowSeconds * 1000;
      const member = `${now}:${Math.random().toString(36).slice(2)}`;
      const [allowed, used, oldest] = await slidingLog.exec([key(`rl:${policy.name}:${client}`)], [String(now), String(windowMs), String(policy.limit), member]);
      return { allowed: Number(allowed) === 1, limit: policy.limit, remaining: Math.max(0, policy.limit - Number(used)), resetAt: Number(oldest) + windowMs };
    },

    async claim(k, fingerprint, claimSeconds) {
      const pending: IdempotencyRecord = { state: 'pending', fingerprint };
      const held = await claimScript.exec([key(k)], [JSON.stringify(pending), String(claimSeconds * 1000)]);
      return held == null ? undefined : (JSON.parse(held) as IdempotencyRecord);
    },
    async complete(k, record, ttlSeconds) {
      await redis.set(key(k), JSON.stringify(record), { px: ttlSeconds * 1000 });
    },
    async release(k) {
      await releaseScript.exec([key(k)], []);
    },

    async outboxPush(entry) {
      await outboxRedis.rpush(outbox, entry);
    },
    async outboxPeek(max) {
      return (await redis.lrange(outbox, 0, max - 1)).map(String);
    },
    async outboxRemove(entry) {
      await redis.lrem(outbox, 1, entry);
    },
    async outboxSize() {
      return Number(await redis.llen(outbox));
    },
    describe: () => `Upstash Redis at ${new URL(opts.url).host}`,
  };
}
