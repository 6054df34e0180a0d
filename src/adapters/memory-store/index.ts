/**
 * @module The in-process store: the rate limits, idempotency records, lead outbox with its dead letters, and
 * unanswered questions of `Store` in this process's memory. The fallback store (`fallback-store.ts`) turns to it
 * for one request when the shared store is slow or down, so limits degrade to per-instance, never to none; tests
 * that need nothing durable use it too. Nothing here survives the process: the local default is the SQLite store.
 */
import { UNANSWERED_LIMIT } from '../../core/ask/unanswered.ts';
import type { Store } from '../../core/ports.ts';
import { memoryDeadLetters } from './dead-letters.ts';
import { expiring } from './expiry.ts';
import { memoryIdempotency } from './idempotency.ts';
import { createQueue, memoryOutbox } from './outbox.ts';
import { memoryQuestions } from './questions.ts';
import { memoryRateLimits } from './rate-limits.ts';

export interface MemoryStoreOptions {
  /** Clock for expiry of idempotency records and outbox leases. @default Date.now */
  now?: () => number;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT */
  questionLimit?: number;
}

/** A store in this process's memory, empty. */
export function createMemoryStore(opts: MemoryStoreOptions = {}): Store {
  const clock = opts.now ?? (() => Date.now());
  const expiry = expiring();
  const queue = createQueue();
  return {
    ...memoryRateLimits(expiry),
    ...memoryIdempotency(expiry, clock),
    ...memoryOutbox(queue, clock),
    ...memoryDeadLetters(queue, clock),
    ...memoryQuestions(opts.questionLimit ?? UNANSWERED_LIMIT),
    describe: () => 'in-process store (memory)',
  };
}
