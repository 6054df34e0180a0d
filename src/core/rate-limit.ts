/**
 * @module The contract's two budgets (SPEC.md "Limits") and the headers that describe them. A store
 * failure never refuses a request: reads and leads fail open and the event is logged (DESIGN.md section 2).
 */
import { LIMITS, policyOf } from '../contract/limits.ts';
import type { LimitPolicy, LimitResult, Log, Store } from './ports.ts';

export const READ_POLICY: LimitPolicy = { name: 'read', ...LIMITS.read, algorithm: 'fixed-window' };
export const LEAD_POLICY: LimitPolicy = { name: 'lead', ...LIMITS.lead, algorithm: 'sliding-log' };

export type RateLimitOutcome =
  | { ok: true; headers: Record<string, string>; degraded?: true }
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

export interface CheckRateLimitOptions {
  store: Store;
  policy: LimitPolicy;
  client: string;
  log: Log;
  now?: number;
}

/** Spends one unit for `client`; answers the headers to send, or the refusal with its `Retry-After`. */
export async function checkRateLimit({ store, policy, client, log, now = Date.now() }: CheckRateLimitOptions): Promise<RateLimitOutcome> {
  let result: LimitResult;
  try {
    result = await store.hit(policy, client, now);
  } catch (e) {
    // Fail open: the request is served uncounted. The headers still state the policy; the window is
    // reported whole because nothing was counted in it.
    log('rate_limit_store_failed', { policy: policy.name, error: String((e as Error)?.message ?? e) });
    return { ok: true, degraded: true, headers: rateLimitHeaders(policy, { allowed: true, limit: policy.limit, remaining: policy.limit, resetAt: now + policy.windowSeconds * 1000 }, now) };
  }
  const headers = rateLimitHeaders(policy, result, now);
  if (result.allowed) return { ok: true, headers };
  const retryAfter = secondsUntil(result.resetAt, now);
  const what = policy.name === 'lead' ? `${policy.limit} lead submissions per hour` : `${policy.limit} requests per minute`;
  return {
    ok: false,
    retryAfter,
    headers: { ...headers, 'Retry-After': String(retryAfter) },
    error: `Rate limit exceeded: this address may make ${what}. Retry after ${retryAfter} seconds.`,
  };
}
