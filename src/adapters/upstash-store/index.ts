/**
 * @module The production store: the `Store` port on Upstash Redis over its REST API, shared by every function
 * instance; every operation one round trip (one Lua script), cut off after a bound.
 */
import { UNANSWERED_LIMIT } from '../../core/unanswered/index.ts';
import type { Store } from '../../core/ports.ts';
import { contextOf } from './context.ts';
import { upstashDeadLetters } from './dead-letters.ts';
import { upstashIdempotency } from './idempotency.ts';
import { upstashOutbox } from './outbox.ts';
import { upstashQuestions } from './questions.ts';
import { upstashRateLimits } from './rate-limits.ts';

export { readLimiter } from './rate-limits.ts';

/** The Upstash database, its bounds and key prefix, and the read budget's analytics. */
export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Upper bound for one read-budget round trip, retries included. @default 300 */
  timeoutMs?: number;
  /**
   * Upper bound for one lead-path round trip (lead budget, idempotency, outbox), retries included: longer, as leads
   * are rare and a Redis catching up after a stall is worth the wait. @default 1500
   */
  leadTimeoutMs?: number;
  /** Prefix of every key. @default 'kartage' */
  prefix?: string;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT */
  questionLimit?: number;
  /**
   * `@upstash/ratelimit`'s analytics for the read budget (shown in the Upstash console), at one more Redis command
   * per read. @default false (KARTAGE_RATELIMIT_ANALYTICS)
   */
  analytics?: boolean;
  /** Keeps work alive after the answer is sent (the analytics write; Vercel's `waitUntil`). */
  defer?: (work: Promise<unknown>) => void;
}

/** The store on the Upstash database at `opts.url`; nothing is sent until the first operation. */
export function createUpstashStore(opts: UpstashStoreOptions): Store {
  const context = contextOf({
    url: opts.url,
    token: opts.token,
    timeoutMs: opts.timeoutMs ?? 300,
    leadTimeoutMs: opts.leadTimeoutMs ?? 1500,
    prefix: opts.prefix ?? 'kartage',
  });
  const defer = opts.defer ?? ((work: Promise<unknown>) => void work.catch(() => {}));
  return {
    ...upstashRateLimits(context, { analytics: opts.analytics, defer }),
    ...upstashIdempotency(context),
    ...upstashOutbox(context),
    ...upstashDeadLetters(context),
    ...upstashQuestions(context, opts.questionLimit ?? UNANSWERED_LIMIT),
    describe: () => `Upstash Redis at ${new URL(opts.url).host}`,
  };
}
