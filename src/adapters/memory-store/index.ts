/**
 * @module The in-process store: the `Store` port in this process's memory, gone with the process. What the fallback
 * store turns to while the shared store fails, and the store of tests that need nothing durable.
 */
import { UNANSWERED_LIMIT } from '../../core/unanswered/index.ts';
import type { Store } from '../../core/ports.ts';
import { memoryDeadLetters } from './dead-letters.ts';
import { expiring } from './expiry.ts';
import { memoryIdempotency } from './idempotency.ts';
import { createQueue, memoryOutbox } from './outbox.ts';
import { memoryQuestions } from './questions.ts';
import { memoryRateLimits } from './rate-limits.ts';

/** The in-process store's clock, and how many unanswered questions it keeps. */
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
