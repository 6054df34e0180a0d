/**
 * @module The Upstash store's rate limits: the read budget is `@upstash/ratelimit`'s sliding window; the lead
 * budget a sliding log of our own (the library has no exact log, and the lead reset is "until a slot frees").
 */
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { slidingWindowResult } from '../../core/rate-limit.ts';
import type { LimitPolicy, LimitResult, Store } from '../../core/ports.ts';
import { LATE, type UpstashContext } from './context.ts';

/** `@upstash/ratelimit`'s sliding window for `policy` on `redis`, on the keys the store always used. */
export function readLimiter(
  redis: Redis,
  prefix: string,
  policy: LimitPolicy,
  opts: { timeoutMs: number; analytics?: boolean },
): Ratelimit {
  return new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(policy.limit, `${policy.windowSeconds} s`),
    prefix: `${prefix}:rl:${policy.name}`,
    // Off: after a burst it would hold a refusal through the whole next window (the spent window still weighs
    // fully at its start), past the moment a unit frees. This instance's memory of refusals (core/rate-limit.ts)
    // does its job instead, on every engine alike.
    ephemeralCache: false,
    timeout: opts.timeoutMs,
    analytics: opts.analytics ?? false,
    enableTelemetry: false,
  });
}

// KEYS: the window a read unit was spent in. Gives it back (never below zero).
const WINDOW_REFUND = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

// Drops the log entries that left the window, adds this one when there is room, and reports the oldest
// entry (the next slot to free). ARGV: deadline, now (ms), window (ms), limit, unique member.
const SLIDING_LOG = `${LATE}
local key, now, window, limit = KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
local allowed = 0
if used < limit then
  redis.call('ZADD', key, now, ARGV[5])
  used = used + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, used, tonumber(oldest[2] or now)}`;

/** The error of a read-budget check the library gave up on after `ms` (the caller falls back to its own count). */
const timedOut = (ms: number) =>
  Object.assign(new Error(`the read budget got no answer from Upstash within ${ms} ms`), { name: 'TimeoutError' });

/** Options of the read budget's library: its analytics, and where the analytics write is kept alive. */
export interface ReadBudgetOptions {
  analytics?: boolean;
  defer: (work: Promise<unknown>) => void;
}

/** The store's `hit` and `refund`. */
export function upstashRateLimits(
  { reads, leads, timeoutMs, prefix, key, deadline }: UpstashContext,
  { analytics, defer }: ReadBudgetOptions,
): Pick<Store, 'hit' | 'refund'> {
  const windowRefund = leads.createScript<number>(WINDOW_REFUND);
  const slidingLog = leads.createScript<[number, number, number]>(SLIDING_LOG);
  const windowKey = (name: string, client: string, idx: number) => key(`rl:${name}:${client}:${idx}`);
  /** One limiter per sliding-window policy (in production, the read budget alone). */
  const limiters = new Map<string, Ratelimit>();
  const limiter = (policy: LimitPolicy) => {
    const id = `${policy.name}:${policy.limit}:${policy.windowSeconds}`;
    let l = limiters.get(id);
    if (!l) limiters.set(id, (l = readLimiter(reads, prefix, policy, { timeoutMs, analytics })));
    return l;
  };

  const windowHit = async (policy: LimitPolicy, client: string): Promise<LimitResult> => {
    const windowMs = policy.windowSeconds * 1000;
    // The library's clock, not the caller's `now`: the same instant in production, where `now` is Date.now().
    const r = await limiter(policy).limit(client);
    if (r.reason === 'timeout') throw timedOut(timeoutMs);
    defer(r.pending);
    const idx = r.reset / windowMs - 1; // the window it decided in: the one `reset` ends
    if (r.success)
      return {
        allowed: true,
        limit: policy.limit,
        remaining: Math.max(0, r.remaining),
        resetAt: r.reset,
        unit: String(idx),
      };
    // The library names the window's end, not when a unit frees: the two windows' counts say that (one more
    // round trip, once per refused client: the caller remembers the refusal until then).
    const [current, previous] = await reads.mget<[string | null, string | null]>(
      windowKey(policy.name, client, idx),
      windowKey(policy.name, client, idx - 1),
    );
    const at = Math.min(Math.max(Date.now(), r.reset - windowMs), r.reset - 1);
    return slidingWindowResult(policy, Number(previous ?? 0), Number(current ?? 0), at, false);
  };

  const logHit = async (policy: LimitPolicy, client: string, now: number): Promise<LimitResult> => {
    const windowMs = policy.windowSeconds * 1000;
    const member = `${now}:${Math.random().toString(36).slice(2)}`;
    const [allowed, used, oldest] = await slidingLog.exec(
      [key(`rl:${policy.name}:${client}`)],
      [deadline(), String(now), String(windowMs), String(policy.limit), member],
    );
    const result = {
      allowed: Number(allowed) === 1,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - Number(used)),
      resetAt: Number(oldest) + windowMs,
    };
    return result.allowed ? { ...result, unit: member } : result;
  };

  return {
    async hit(policy, client, now) {
      return policy.algorithm === 'sliding-window' ? windowHit(policy, client) : logHit(policy, client, now);
    },
    async refund(policy, client, result) {
      if (!result.allowed || !result.unit) return;
      if (policy.algorithm === 'sliding-window') {
        await windowRefund.exec([windowKey(policy.name, client, Number(result.unit))], []);
        return;
      }
      await leads.zrem(key(`rl:${policy.name}:${client}`), result.unit);
    },
  };
}
