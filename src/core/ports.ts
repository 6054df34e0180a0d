/**
 * @module The ports the domain needs from the outside: a store (rate limits, idempotency records, the
 * lead outbox and its dead letters, the count of questions the assistant could not answer), lead sinks,
 * the sales notifier and a logger. The embedded defaults and the production engines (Upstash, a CRM, a
 * webhook) implement them in `src/adapters/`.
 */
import type { Lead } from '../contract/schemas.ts';

/** A rate-limit policy: `limit` units per `windowSeconds`. */
export interface LimitPolicy {
  /** Budget name, also part of the store key (`read`, `lead`). */
  name: string;
  limit: number;
  windowSeconds: number;
  /**
   * `sliding-window`: two fixed windows, the previous one weighted by how much of it still overlaps the
   * last `windowSeconds` (reads): no 2x burst at a window edge, one counter update per request.
   * `sliding-log`: each unit comes back `windowSeconds` after it was spent, so the reset is "until a slot
   * frees" (leads, SPEC.md "Limits" rule 1).
   */
  algorithm: 'sliding-window' | 'sliding-log';
}

/** The store's answer for one unit spent (or refused). */
export interface LimitResult {
  allowed: boolean;
  limit: number;
  /** Units left in the window after this one. */
  remaining: number;
  /** Epoch milliseconds when the window resets (sliding window) or the next slot frees (sliding log). */
  resetAt: number;
  /** Names the unit spent, so `refund` can give exactly it back (absent when nothing was spent). */
  unit?: string;
}

/** What an idempotency key holds: a claim in progress, or the finished answer to replay. */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string }
  | { state: 'done'; fingerprint: string; status: number; body: unknown };

/**
 * How many entries a claim of `max` may take on every engine: its whole part, none below 1 (and none for NaN), at most
 * 2^31 - 1 (SQLite's LIMIT takes whole numbers only and reads -1 as "no limit"; Redis's LIMIT reads a negative count
 * the same way).
 */
export const claimCount = (max: number): number => {
  const n = Math.floor(max);
  return n > 0 ? Math.min(n, 2 ** 31 - 1) : 0;
};

/** One outbox entry handed to a flusher: its delivery id, what was pushed, and how often it was claimed. */
export interface OutboxItem {
  /** The delivery id (the lead id): the same on every retry, so a receiver can deduplicate. */
  id: string;
  payload: string;
  /** Times this entry was claimed for delivery, this claim included. */
  attempts: number;
  /** Epoch milliseconds when it was queued (re-queued, for an entry back from the dead letters). */
  queuedAt: number;
}

/** Why a lead leaves the outbox for the dead letters: the last delivery's failure, in words and as answered. */
export interface DeadLetterReason {
  /** For a person: what happened and what to do (a refusal, or still failing after N attempts). */
  reason: string;
  /** The CRM's HTTP status, when it answered. */
  status?: number;
  /** The start of the CRM's answer (at most 500 characters), when it answered. */
  answer?: string;
}

/**
 * A lead the CRM refused for good (a 4xx other than 408 and 429) or that kept failing past the bound of
 * attempts or age: out of the outbox, kept with the CRM's answer until a person re-queues it.
 */
export interface DeadLetter extends DeadLetterReason {
  /** The delivery id (the lead id). */
  id: string;
  /** The outbox entry as it was pushed. */
  payload: string;
  /** Delivery attempts it had, the last one included. */
  attempts: number;
  /** Epoch milliseconds when it was queued, and when it became a dead letter. */
  queuedAt: number;
  at: number;
  /** Whether sales were told of it: its alert landed (until then the alert is retried, with a backoff). */
  announced: boolean;
  /** Alerts attempted so far, the one in flight included. */
  alerts: number;
}

/** A question the assistant could not answer, as the store counted it (src/core/unanswered/index.ts). */
export interface UnansweredQuestion {
  /** The scrubbed question, as it was first asked (no email, phone number, link with a query, long number). */
  text: string;
  /** Times it was asked (every asking with the same normalised text). */
  count: number;
  /** Epoch milliseconds of the last asking, to the second. */
  lastAsked: number;
}

/** The narrow surface the domain needs; the SQLite store, Upstash and the in-process store satisfy it. */
export interface Store {
  /** Spends one unit of `policy` for `client`, unless the budget is spent. */
  hit(policy: LimitPolicy, client: string, now: number): Promise<LimitResult>;
  /** Gives back the unit `result` spent (a request that ended in 502 spends nothing). */
  refund(policy: LimitPolicy, client: string, result: LimitResult): Promise<void>;
  /**
   * Claims `key` for a first request (returns `undefined`), or returns what the key already holds.
   * A claim expires after `claimSeconds` so a crashed request cannot block the key for a day.
   */
  claim(key: string, fingerprint: string, claimSeconds: number): Promise<IdempotencyRecord | undefined>;
  /** Stores the finished answer for `key`, kept `ttlSeconds`. */
  complete(key: string, record: Extract<IdempotencyRecord, { state: 'done' }>, ttlSeconds: number): Promise<void>;
  /**
   * What this process alone holds for `key`, known without a round trip to a shared store; undefined when it
   * holds nothing (or keeps nothing of its own: an engine without a copy in the process leaves it out).
   */
  recall?(key: string): IdempotencyRecord | undefined;
  /** Drops a claim whose request ended without an answer worth replaying (a 429, a 502). */
  release(key: string): Promise<void>;
  /**
   * Adds one entry to the durable lead outbox under its delivery id; resolves only once the entry is
   * durable. Pushing an id already queued changes nothing. A push that did not resolve never lands later.
   */
  outboxPush(id: string, payload: string): Promise<void>;
  /**
   * Claims up to `max` (as `claimCount` reads it) entries whose lease is free, oldest first, leasing them for
   * `leaseSeconds`: a second flusher does not get them until the lease ends (a crashed flusher's entries come back
   * then).
   */
  outboxClaim(max: number, leaseSeconds: number): Promise<OutboxItem[]>;
  /** Removes a delivered entry. */
  outboxAck(id: string): Promise<void>;
  /**
   * Ends the lease of an entry whose delivery failed; it goes to the back of the queue, claimable again
   * after `delayMs` (the backoff; 0 or absent: at once).
   */
  outboxRetry(id: string, error: string, delayMs?: number): Promise<void>;
  /**
   * Ends the lease of a claimed entry its flusher did not try (out of time): free at once for another
   * flusher, at the front of the queue, and this claim does not count as an attempt.
   */
  outboxRelease(id: string): Promise<void>;
  /** Moves an unreadable entry out of the queue, kept for a person to look at. */
  outboxQuarantine(id: string, reason: string): Promise<void>;
  /** Entries waiting in the outbox (leased ones included), and entries in quarantine. */
  outboxSize(): Promise<number>;
  quarantineSize(): Promise<number>;
  /**
   * Moves an entry from the outbox to the dead letters (one step: never in both, never in neither), with its
   * payload, attempts and queue time, not yet announced and its alert due at once. False when the outbox no longer
   * holds it (nothing changes).
   */
  outboxDeadLetter(id: string, why: DeadLetterReason): Promise<boolean>;
  /** Every dead letter, oldest first. */
  deadLetters(): Promise<DeadLetter[]>;
  /**
   * Claims up to `max` (as `claimCount` reads it) dead letters sales were not yet told of and whose alert's backoff
   * has ended, oldest first, counting one more alert each and leasing them for `leaseSeconds`: a second flusher does
   * not get them until the lease ends (a crashed flusher's alerts come back then), so each alert goes out once at a
   * time.
   */
  deadLetterAlertClaim(max: number, leaseSeconds: number): Promise<DeadLetter[]>;
  /** Records that the alert of dead letter `id` landed: announced, never claimed again. */
  deadLetterAnnounced(id: string): Promise<void>;
  /** Ends the lease of an alert that failed: claimable again after `delayMs` (the backoff; 0: at once). */
  deadLetterAlertRetry(id: string, delayMs: number): Promise<void>;
  deadLetterSize(): Promise<number>;
  /**
   * Moves a dead letter back into the outbox (one step), at the back of the queue, free at once, with no
   * attempts and queued now. True only for the call that moved it: a second or concurrent call for the same
   * id finds nothing and returns false, so each dead letter is re-queued exactly once.
   */
  deadLetterRequeue(id: string): Promise<boolean>;
  /**
   * Counts one more asking of a question the assistant could not answer. `key` is its normalised text (one
   * counter per key), `text` its scrubbed form, kept from the first asking only; `at` (epoch ms, kept to the
   * second) becomes its last-asked time. Both are already free of personal data (the caller scrubs).
   *
   * `asker`, when given, is who asked, as a name good for one day only (a hash of the day and the client's
   * address, src/core/unanswered/index.ts `askerId`; the address never reaches the store). A question counts once
   * per asker. An asker counting more than ASKER_DAILY_QUESTIONS distinct questions in its day is a flood: it
   * counts for none of them (those it counted are withdrawn, a question only it asked is gone). A question first
   * counted past an asker's first ASKER_TRUSTED_QUESTIONS of the day is flood-shaped (suspect) until an asker
   * counts it among its first. What the store keeps of an asker (the keys it counted) goes when its day ends.
   *
   * Bounded: past the engine's limit of distinct questions (UNANSWERED_LIMIT, 5,000), a new question takes the
   * place of stale ones first (not asked for QUESTION_STALE_MS; the longest unasked first), then of flood-shaped
   * ones (the least asked, then the longest unasked, first); when every other question is fresh and not
   * flood-shaped, the new one is not kept: a flood cannot push out what visitors asked.
   */
  countQuestion(key: string, text: string, at: number, asker?: string): Promise<void>;
  /** The `limit` most asked unanswered questions, most first (equal counts: the last asked first). */
  topQuestions(limit: number): Promise<UnansweredQuestion[]>;
  /** One line naming the engine, for the start-up message. */
  describe(): string;
}

/** A lead as recorded: the cleaned payload plus when and from where it came. */
export interface LeadRecord {
  id: string;
  receivedAt: string;
  lead: Lead;
  /** Page or client that sent it, when known (Referer), for the sales team. */
  source?: string;
}

/** A place a lead is recorded (a CRM, a webhook, a local file). */
export interface LeadSink {
  name: string;
  /**
   * Resolves when the sink durably accepted the lead; rejects otherwise. When the sink answered, the error
   * carries its HTTP `status` and the answer's text as `body`: a 4xx other than 408 and 429 is a refusal for
   * good (the lead goes to the dead letters), anything else (no answer, 5xx, 408, 429) is worth retrying.
   */
  deliver(record: LeadRecord): Promise<void>;
}

/** Tells the sales team about a new lead. */
export interface Notifier {
  name: string;
  /**
   * A new lead; with `undelivered`, that this lead could not be delivered to the CRM and why (it is in the
   * dead letters, for a person to act on the same day).
   */
  notify(record: LeadRecord, undelivered?: DeadLetterReason & { attempts: number }): Promise<void>;
}

/** Structured log line: an event name plus fields. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

/** The outbox's operations of the `Store` port. */
export type OutboxPart = Pick<
  Store,
  | 'outboxPush'
  | 'outboxClaim'
  | 'outboxAck'
  | 'outboxRetry'
  | 'outboxRelease'
  | 'outboxQuarantine'
  | 'outboxSize'
  | 'quarantineSize'
>;

/** The dead letters' operations of the `Store` port. */
export type DeadLetterPart = Pick<
  Store,
  | 'outboxDeadLetter'
  | 'deadLetters'
  | 'deadLetterAlertClaim'
  | 'deadLetterAnnounced'
  | 'deadLetterAlertRetry'
  | 'deadLetterSize'
  | 'deadLetterRequeue'
>;
