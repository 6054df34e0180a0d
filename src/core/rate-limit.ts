/**
 * @module The contract's two budgets (SPEC.md "Limits"), spent and answered in plain numbers. A store
 * failure never refuses a request: reads and leads fail open and the event is logged (DESIGN.md section 2).
 */
import { LIMITS } from '../contract/limits.ts';
import { errorText } from './error-text.ts';
import type { LimitPolicy, LimitResult, Log, Store } from './ports.ts';

export const READ_POLICY: LimitPolicy = { name: 'read', ...LIMITS.read, algorithm: 'sliding-window' };
export const LEAD_POLICY: LimitPolicy = { name: 'lead', ...LIMITS.lead, algorithm: 'sliding-log' };

/** One unit spent (or refused) under `policy`, in plain numbers (upstash's `{limit, remaining, reset}`). */
export interface RateLimitState {
  policy: LimitPolicy;
  limit: number;
  /** Units left in the window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (sliding window) or the next unit frees (sliding log), at least 1. */
  reset: number;
}

/** A refusal: `retryAfter` seconds before a unit frees, and the Error text that says so. */
export interface RateLimitRefusal extends RateLimitState {
  retryAfter: number;
  error: string;
}

/** What spending a unit came to: the numbers after it (`degraded` when the store failed open), or the refusal. */
export type RateLimitOutcome =
  | (RateLimitState & { ok: true; degraded?: true; result?: LimitResult })
  | (RateLimitRefusal & { ok: false });

/** Whole seconds from `now` until `at`, at least 1 (a 0 would invite an immediate retry). */
const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/** The state of `policy` after `result`, at `now`. */
function stateOf(policy: LimitPolicy, result: LimitResult, now: number): RateLimitState {
  return {
    policy,
    limit: policy.limit,
    remaining: Math.max(0, result.remaining),
    reset: secondsUntil(result.resetAt, now),
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

/** Most refused clients an instance remembers per store (the oldest are forgotten first). */
export const REFUSED_MEMORY = 10_000;
/**
 * Refusals this instance remembers, per store and budget, until their reset (as @upstash/ratelimit's ephemeral
 * cache does): a client over its budget is refused from memory, with no store call, until a unit frees. Exact
 * across instances: nothing is spent meanwhile, so the store's count cannot free a unit sooner than it said
 * (but for a unit a 502 gives back on another instance, which this one sees at the reset).
 */
const refused = new WeakMap<Store, Map<string, number>>();

/** The refusal of `policy` for a client whose budget frees at `resetAt`. */
function refusalAt(policy: LimitPolicy, resetAt: number, now: number): RateLimitRefusal & { ok: false } {
  const reset = secondsUntil(resetAt, now);
  return {
    ok: false,
    policy,
    limit: policy.limit,
    remaining: 0,
    reset,
    retryAfter: reset,
    error: refusalText(policy, reset),
  };
}

/** Where this instance remembers `policy`'s refusals for the clients of `store`. */
function memoryOf(store: Store, policy: LimitPolicy): { memory: Map<string, number>; key: (client: string) => string } {
  let memory = refused.get(store);
  if (!memory) refused.set(store, (memory = new Map()));
  return { memory, key: (client) => `${policy.name}\n${client}` };
}

/**
 * The refusal this instance remembers for `client` under `policy` (its reset not yet come), or undefined: no
 * store call either way. The lead path asks it before claiming an Idempotency-Key, so a client over its budget
 * costs nothing.
 */
export function rememberedRefusal({
  store,
  policy,
  client,
  now = Date.now(),
}: Omit<CheckRateLimitOptions, 'log'>): (RateLimitRefusal & { ok: false }) | undefined {
  const { memory, key } = memoryOf(store, policy);
  const k = key(client);
  const until = memory.get(k);
  // Stryker disable next-line ConditionalExpression: a client not remembered would reach the delete, a no-op
  if (until === undefined) return undefined;
  if (until > now) return refusalAt(policy, until, now);
  memory.delete(k);
  return undefined;
}

/** Remembers that `client` is refused under `policy` until `until` (the oldest remembered are forgotten first). */
function remember(store: Store, policy: LimitPolicy, client: string, until: number): void {
  const { memory, key } = memoryOf(store, policy);
  memory.delete(key(client));
  memory.set(key(client), until);
  if (memory.size > REFUSED_MEMORY) memory.delete(memory.keys().next().value!);
}

/**
 * Spends one unit for `client`: the numbers after it, or the refusal with its `retryAfter`. A refusal is
 * remembered until its reset; so is the unit that spends a sliding log's last one (its reset is when the oldest
 * unit frees, and nothing frees one sooner), so the next request is refused with no store call at all.
 */
export async function checkRateLimit({
  store,
  policy,
  client,
  log,
  now = Date.now(),
}: CheckRateLimitOptions): Promise<RateLimitOutcome> {
  const known = rememberedRefusal({ store, policy, client, now });
  if (known) return known;
  let result: LimitResult;
  try {
    result = await store.hit(policy, client, now);
  } catch (e) {
    // Fail open: the request is served uncounted. The numbers still state the policy; the window is
    // reported whole because nothing was counted in it.
    log('rate_limit_store_failed', { policy: policy.name, error: errorText(e) });
    const state = { policy, limit: policy.limit, remaining: policy.limit, reset: policy.windowSeconds };
    return { ok: true, degraded: true, ...state };
  }
  const state = stateOf(policy, result, now);
  if (result.allowed) {
    if (policy.algorithm === 'sliding-log' && result.remaining <= 0) remember(store, policy, client, result.resetAt);
    return { ok: true, ...state, result };
  }
  remember(store, policy, client, result.resetAt);
  return { ok: false, ...state, retryAfter: state.reset, error: refusalText(policy, state.reset) };
}

/**
 * Gives back the unit `result` spent for `client` (a request that ended in 502 spends nothing), and forgets any
 * refusal this instance remembers for it: a unit is free again.
 */
export async function refundRateLimit(
  store: Store,
  policy: LimitPolicy,
  client: string,
  result: LimitResult,
): Promise<void> {
  const { memory, key } = memoryOf(store, policy);
  memory.delete(key(client));
  await store.refund(policy, client, result);
}

/** The Error text of a request refused under `policy`, `retryAfter` seconds before a unit frees. */
export function refusalText(policy: Pick<LimitPolicy, 'name' | 'limit'>, retryAfter: number): string {
  const what =
    policy.name === 'lead' ? `${policy.limit} lead submissions per hour` : `${policy.limit} requests per minute`;
  return `Rate limit exceeded: this address may make ${what}. Retry after ${retryAfter} seconds.`;
}

/**
 * A `Retry-After` (seconds, or an HTTP date) in whole minutes, at least one, for a person to read; null when
 * it says neither. The lead form's pages and scripts and the chat all put it this way.
 */
export function retryMinutes(retryAfter: number | string | null | undefined, now = Date.now()): number | null {
  if (retryAfter === null || retryAfter === undefined || retryAfter === '') return null;
  let seconds = Number(retryAfter);
  if (!Number.isFinite(seconds)) seconds = (Date.parse(String(retryAfter)) - now) / 1000;
  return Number.isNaN(seconds) ? null : Math.max(1, Math.ceil(seconds / 60));
}
