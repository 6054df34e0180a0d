/**
 * @module The ports the domain needs from the outside: a store (rate limits, idempotency records, the
 * lead outbox), lead sinks, the sales notifier and a logger. The embedded defaults and the production
 * engines (Upstash, a CRM, a webhook) implement them in `src/adapters/`.
 */
import type { Lead } from '../contract/schemas.ts';

/** A rate-limit policy: `limit` units per `windowSeconds`. */
export interface LimitPolicy {
  /** Budget name, also part of the store key (`read`, `lead`). */
  name: string;
  limit: number;
  windowSeconds: number;
  /**
   * `fixed-window`: counts reset together when the window ends (reads).
   * `sliding-log`: each unit comes back `windowSeconds` after it was spent, so the reset is "until a slot
   * frees" (leads, SPEC.md "Limits" rule 1).
   */
  algorithm: 'fixed-window' | 'sliding-log';
}

/** The store's answer for one unit spent (or refused). */
export interface LimitResult {
  allowed: boolean;
  limit: number;
  /** Units left in the window after this one. */
  remaining: number;
  /** Epoch milliseconds when the window resets (fixed window) or the next slot frees (sliding log). */
  resetAt: number;
}

/** What an idempotency key holds: a claim in progress, or the finished answer to replay. */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string }
  | { state: 'done'; fingerprint: string; status: number; body: unknown };

/** The narrow key-value surface the domain needs; the embedded store and Upstash both satisfy it. */
export interface Store {
  /** Spends one unit of `policy` for `client`, unless the budget is spent. */
  hit(policy: LimitPolicy, client: string, now: number): Promise<LimitResult>;
  /**
   * Claims `key` for a first request (returns `undefined`), or returns what the key already holds.
   * A claim expires after `claimSeconds` so a crashed request cannot block the key for a day.
   */
  claim(key: string, fingerprint: string, claimSeconds: number): Promise<IdempotencyRecord | undefined>;
  /** Stores the finished answer for `key`, kept `ttlSeconds`. */
  complete(key: string, record: Extract<IdempotencyRecord, { state: 'done' }>, ttlSeconds: number): Promise<void>;
  /** Drops a claim whose request ended without an answer worth replaying (a 429, a 502). */
  release(key: string): Promise<void>;
  /** Appends one entry to the durable lead outbox. */
  outboxPush(entry: string): Promise<void>;
  /** Up to `max` outbox entries, oldest first, left in place. */
  outboxPeek(max: number): Promise<string[]>;
  /** Removes one entry (after it was delivered). */
  outboxRemove(entry: string): Promise<void>;
  /** Number of entries waiting in the outbox. */
  outboxSize(): Promise<number>;
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
  /** Resolves when the sink durably accepted the lead; rejects otherwise. */
  deliver(record: LeadRecord): Promise<void>;
}

/** Tells the sales team about a new lead. */
export interface Notifier {
  name: string;
  notify(record: LeadRecord): Promise<void>;
}

/** Structured log line: an event name plus fields. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;
