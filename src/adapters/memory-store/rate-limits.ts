/** @module The in-process store's rate limits: the read budget's sliding window, the lead budget's sliding log. */
import { slidingWindowAllows, slidingWindowResult } from '../../core/rate-limit.ts';
import type { LimitPolicy, LimitResult, Store } from '../../core/ports.ts';
import type { Expiry } from './expiry.ts';

/** The store's `hit` and `refund`, on maps of `expiry` (swept at each hit). */
export function memoryRateLimits(expiry: Expiry): Pick<Store, 'hit' | 'refund'> {
  const counters = expiry.map<number>();
  const logs = expiry.map<{ at: number; unit: string }[]>();
  let units = 0;

  const windowHit = (policy: LimitPolicy, client: string, now: number): LimitResult => {
    const windowMs = policy.windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const key = (i: number) => `${policy.name}:${client}:${i}`;
    const previous = counters.get(key(index - 1))?.value ?? 0;
    const current = counters.get(key(index))?.value ?? 0;
    const allowed = slidingWindowAllows(policy, previous, current, now);
    if (allowed) counters.set(key(index), { value: current + 1, until: (index + 2) * windowMs });
    const result = slidingWindowResult(policy, previous, allowed ? current + 1 : current, now, allowed);
    return allowed ? { ...result, unit: `${key(index)}` } : result;
  };

  const logHit = (policy: LimitPolicy, client: string, now: number): LimitResult => {
    const windowMs = policy.windowSeconds * 1000;
    const key = `${policy.name}:${client}`;
    const times = (logs.get(key)?.value ?? []).filter((t) => t.at > now - windowMs);
    const allowed = times.length < policy.limit;
    const unit = `m${++units}`;
    if (allowed) times.push({ at: now, unit });
    logs.set(key, { value: times, until: now + windowMs });
    const result = {
      allowed,
      limit: policy.limit,
      remaining: policy.limit - times.length,
      resetAt: times[0]!.at + windowMs,
    };
    return allowed ? { ...result, unit } : result;
  };

  return {
    async hit(policy, client, now) {
      expiry.sweep(now);
      return policy.algorithm === 'sliding-window' ? windowHit(policy, client, now) : logHit(policy, client, now);
    },
    async refund(policy, client, result) {
      if (!result.allowed || !result.unit) return;
      if (policy.algorithm === 'sliding-window') {
        const held = counters.get(result.unit);
        if (held && held.value > 0) held.value--;
        return;
      }
      const held = logs.get(`${policy.name}:${client}`);
      if (held) held.value = held.value.filter((t) => t.unit !== result.unit);
    },
  };
}
