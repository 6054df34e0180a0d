/**
 * @module The contract's two budgets (SPEC.md "Limits") and the headers that describe them. A store
 * failure never refuses a request: reads and leads fail open and the event is logged (DESIGN.md section 2).
 */
import { LIMITS, policyOf } from '../contract/limits.ts';
import { errorText } from './error-text.ts';
import type { LimitPolicy, LimitResult, Log, Store } from './ports.ts';

export const READ_POLICY: LimitPolicy = { name: 'read', ...LIMITS.read, algorithm: 'sliding-window' };
export const LEAD_POLICY: LimitPolicy = { name: 'lead', ...LIMITS.lead, algorithm: 'sliding-log' };

export type RateLimitOutcome =
  | { ok: true; headers: Record<string, string>; degraded?: true; result?: LimitResult }
  | { ok: false; headers: Record<string, string>; retryAfter: number; error: string };

/** Whole seconds from `now` until `at`, at least 1 (a 0 would invite an immediate retry). */
const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/**
 * The contract's headers. The IETF draft's structured `RateLimit` / `RateLimit-Policy` fields are not
 * sent: the draft reuses the name `RateLimit-Policy` with another syntax (`"read";q=120;w=60`), so both
 * cannot be sent without contradicting the contract's `120;w=60` (README "Rate limits").
 */
export function rateLimitHeaders(policy: LimitPolicy, result: LimitResult, now: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(policy.limit),
    'RateLimit-Remaining': String(Math.max(0, result.remaining)),
    'RateLimit-Reset': String(secondsUntil(result.resetAt, now)),
    'RateLimit-Policy': policyOf(policy),
  };
}

/**
 * The sliding-window decision every engine shares, from the two fixed windows' counts: `previous` (the
 * window before the one `now` is in) and `current` (this one, including the unit just spent when
 * `allowed`). The previous window counts in proportion to how much of it still overlaps the last
 * `windowSeconds`, so 120 reads at the end of one minute leave almost nothing at the start of the next
 * (a fixed window would allow 240 in a second across the edge).
 */
export function slidingWindowResult(
  policy: LimitPolicy,
  previous: number,
  current: number,
  now: number,
  allowed: boolean,
): LimitResult {
  const windowMs = policy.windowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  const weighted = (count: number, at: number) => Math.floor((1 - (at % windowMs) / windowMs) * count);
  const used = weighted(previous, now) + current;
  let resetAt = start + windowMs;
  if (!allowed) {
    // The first moment a unit is free again if nothing more is spent: later in this window, as the
    // previous window's weight falls; or else in the next one, as this window's weight falls.
    if (current < policy.limit && previous > 0) {
      resetAt = start + Math.ceil(windowMs * (1 - (policy.limit - current) / previous)) + 1;
    } else if (current >= policy.limit) {
      resetAt = start + windowMs + Math.ceil(windowMs * (1 - policy.limit / current)) + 1;
    }
  }
  return { allowed, limit: policy.limit, remaining: Math.max(0, policy.limit - used), resetAt };
}

/** True when one more unit fits: the sliding-window rule the Lua and SQL versions also apply. */
export function slidingWindowAllows(policy: LimitPolicy, previous: number, current: number, now: number): boolean {
  const windowMs = policy.windowSeconds * 1000;
  return Math.floor((1 - (now % windowMs) / windowMs) * previous) + current < policy.limit;
}

export interface CheckRateLimitOptions {
  store: Store;
  policy: LimitPolicy;
  client: string;
  log: Log;
  now?: number;
}

/** Spends one unit for `client`; answers the headers to send, or the refusal with its `Retry-After`. */
export async function checkRateLimit({
  store,
  policy,
  client,
  log,
  now = Date.now(),
}: CheckRateLimitOptions): Promise<RateLimitOutcome> {
  let result: LimitResult;
  try {
    result = await store.hit(policy, client, now);
  } catch (e) {
    // Fail open: the request is served uncounted. The headers still state the policy; the window is
    // reported whole because nothing was counted in it.
    log('rate_limit_store_failed', { policy: policy.name, error: errorText(e) });
    return {
      ok: true,
      degraded: true,
      headers: rateLimitHeaders(
        policy,
        { allowed: true, limit: policy.limit, remaining: policy.limit, resetAt: now + policy.windowSeconds * 1000 },
        now,
      ),
    };
  }
  const headers = rateLimitHeaders(policy, result, now);
  if (result.allowed) return { ok: true, headers, result };
  const retryAfter = secondsUntil(result.resetAt, now);
  return {
    ok: false,
    retryAfter,
    headers: { ...headers, 'Retry-After': String(retryAfter) },
    error: refusalText(policy, retryAfter),
  };
}

/** The Error text of a request refused under `policy`, `retryAfter` seconds before a unit frees. */
export function refusalText(policy: Pick<LimitPolicy, 'name' | 'limit'>, retryAfter: number): string {
  const what =
    policy.name === 'lead' ? `${policy.limit} lead submissions per hour` : `${policy.limit} requests per minute`;
  return `Rate limit exceeded: this address may make ${what}. Retry after ${retryAfter} seconds.`;
}
