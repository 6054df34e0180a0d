/**
 * @module Lead submission: validate, replay or claim the Idempotency-Key, spend the lead budget, record
 * the lead (the sink, else the durable outbox) and notify sales. No lead is lost: store failures fail
 * open (a duplicate is better than a lost lead), and a lead no durable place took is `unrecorded`.
 * Returns what happened (`LeadOutcome`); the operation's responder (src/operations/submit-lead.ts) turns it
 * into an answer. Then the outbox flush: each failed delivery classified, retried with a backoff while it may
 * still succeed, else moved to the dead letters; sales are told of each dead letter, the alert retried with a
 * backoff until it lands, so no lead waits in silence.
 */
import { LIMITS } from '../contract/limits.ts';
import { errorText } from './error-text.ts';
import { type LeadProblem, rejectMessage, validateLead } from './lead-validation.ts';
import {
  checkRateLimit,
  LEAD_POLICY,
  type RateLimitRefusal,
  type RateLimitState,
  refundRateLimit,
  rememberedRefusal,
} from './rate-limit.ts';
import type {
  DeadLetter,
  DeadLetterReason,
  LeadRecord,
  LeadSink,
  LimitResult,
  Log,
  Notifier,
  OutboxItem,
  Store,
} from './ports.ts';

/** What submission would make of a payload and its Idempotency-Key (the sandbox); nothing is written. */
export type SandboxOutcome =
  /** The body is not a JSON object: submission refuses it with `message`. */
  | { kind: 'not-an-object'; message: string }
  /** Every problem with the payload and the key; `wouldSubmit` when submission would take it. */
  | { kind: 'checked'; wouldSubmit: boolean; problems: LeadProblem[]; keyProblem?: string };

export interface LeadDeps {
  store: Store;
  sink: LeadSink;
  notifier: Notifier;
  log: Log;
  now(): number;
}

export interface SubmitLeadInput {
  /** The parsed JSON body. */
  body: unknown;
  client: string;
  idempotencyKey: string | null;
  /** Page the form was on (Referer), for the sales team. */
  source?: string;
}

/** What a submission came to. */
export type LeadOutcome =
  /** Recorded; `after` is work that may finish after the answer (the sales notification). */
  | { kind: 'accepted'; limit: RateLimitState; after: Promise<void> }
  /** The key's first submission was accepted: its answer again, nothing created, nothing spent. */
  | { kind: 'replayed'; first: AcceptedRecord }
  /** The payload is refused (`problems` names the fields; none when it is not an object), nothing spent. */
  | { kind: 'rejected'; problems: LeadProblem[]; message: string }
  /** The Idempotency-Key is empty or too long. */
  | { kind: 'key-invalid'; message: string }
  /** The key was used with another payload. */
  | { kind: 'key-reused' }
  /** A request with the key is still running: `retryAfter` seconds. */
  | { kind: 'key-busy'; retryAfter: number }
  /** Past the lead budget. */
  | { kind: 'limited'; limit: RateLimitRefusal }
  /** No durable place took the lead; nothing was spent. */
  | { kind: 'unrecorded' };

/**
 * What an idempotency record keeps of an accepted submission: its body and the lead budget it reported.
 * A record written before outcomes (up to a day old after a deploy) kept the answer's headers instead.
 */
export type AcceptedRecord =
  | { body: unknown; limit: RateLimitState }
  | { body: unknown; headers: Record<string, string> };

/** How long a claim holds a key while its request runs (a crashed request frees it after this). */
const CLAIM_SECONDS = 60;
/** How long a request waits for a concurrent one with the same key before answering 409. */
const WAIT_FOR_FIRST_MS = 10_000;

/** The problem with a body that is not a JSON object. */
const NOT_AN_OBJECT = 'The body must be a JSON object with the lead fields (name and email at least)';

/**
 * The payload with its top-level keys sorted, so the same lead always has the same fingerprint whatever
 * the key order. Values are serialised as sent: a lead is flat, and a nested value (which validation drops
 * anyway) must not cost a recursion per level (a deeply nested body would overflow the stack).
 */
function canonical(value: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(value)
      .sort()
      .map((k) => [k, serialised(value[k])]),
  );
}

/**
 * `JSON.stringify` of a parsed JSON value, without recursion (a body within the size limit can nest deeper than
 * `JSON.stringify` can go): the same text, so a difference at any depth changes the fingerprint.
 */
export function serialised(root: unknown): string {
  if (root === undefined) return 'undefined';
  const out: string[] = [];
  type Frame = { items: unknown[]; keys?: string[]; at: number };
  const stack: Frame[] = [];
  const open = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
      return;
    }
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ items: v, at: 0 });
      return;
    }
    const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined);
    out.push('{');
    stack.push({ items: keys.map((k) => (v as Record<string, unknown>)[k]), keys, at: 0 });
  };
  open(root);
  while (stack.length) {
    const frame = stack.at(-1)!;
    if (frame.at === frame.items.length) {
      stack.pop();
      out.push(frame.keys ? '}' : ']');
      continue;
    }
    if (frame.at > 0) out.push(',');
    if (frame.keys) out.push(`${JSON.stringify(frame.keys[frame.at])}:`);
    open(frame.items[frame.at++]);
  }
  return out.join('');
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The outcome of a submission past the lead budget. */
const limited = ({ policy, limit, remaining, reset, retryAfter, error: text }: RateLimitRefusal): LeadOutcome => ({
  kind: 'limited',
  limit: { policy, limit, remaining, reset, retryAfter, error: text },
});

/** Checks the Idempotency-Key header (SPEC.md: at most 200 characters). */
export function checkIdempotencyKey(key: string | null): string | undefined {
  if (key === null) return undefined;
  if (!key.trim()) return 'Idempotency-Key is empty: send 1 to 200 characters, unique per submission (a UUID is ideal)';
  if ([...key].length > LIMITS.idempotencyKeyMax)
    return `Idempotency-Key is ${[...key].length} characters; at most ${LIMITS.idempotencyKeyMax} are allowed`;
  return undefined;
}

/** Records a lead in the sink, or else in the outbox. Returns where it went, or undefined when nowhere. */
export async function recordLead(
  record: LeadRecord,
  d: Pick<LeadDeps, 'sink' | 'store' | 'log'>,
): Promise<'sink' | 'outbox' | undefined> {
  try {
    await d.sink.deliver(record);
    return 'sink';
  } catch (e) {
    d.log('lead_sink_failed', {
      level: 'error',
      id: record.id,
      sink: d.sink.name,
      error: errorText(e),
    });
  }
  try {
    await d.store.outboxPush(record.id, JSON.stringify({ record }));
    d.log('lead_queued', { level: 'warn', id: record.id });
    return 'outbox';
  } catch (e) {
    d.log('lead_outbox_failed', { level: 'error', id: record.id, error: errorText(e) });
    return undefined;
  }
}

/** The key and the payload checked: a refusal, or the lead to record. */
function checkSubmission(input: SubmitLeadInput): LeadOutcome | { lead: LeadRecord['lead'] } {
  const keyProblem = checkIdempotencyKey(input.idempotencyKey);
  if (keyProblem) return { kind: 'key-invalid', message: keyProblem };
  if (!input.body || typeof input.body !== 'object' || Array.isArray(input.body))
    return { kind: 'rejected', problems: [], message: NOT_AN_OBJECT };
  const check = validateLead(input.body as Record<string, unknown>);
  if (!check.wouldSubmit) return { kind: 'rejected', problems: check.problems, message: rejectMessage(check.problems) };
  return { lead: check.lead! };
}

/** The idempotency record's key (key + client scope) and the payload's fingerprint; none without a key. */
async function idempotencyOf(input: SubmitLeadInput): Promise<{ key?: string; fingerprint: string }> {
  if (input.idempotencyKey === null) return { fingerprint: '' };
  return {
    key: `idem:${input.client}:${await sha256(input.idempotencyKey)}`,
    fingerprint: await sha256(canonical(input.body as Record<string, unknown>)),
  };
}

/**
 * Claims the key for this request, waiting for a concurrent one with it: the claimed key, or the outcome the
 * key already decides. A store failure skips idempotency (logged): no claimed key.
 */
async function claimKey(
  key: string,
  fingerprint: string,
  d: LeadDeps,
): Promise<{ outcome: LeadOutcome } | { claimed?: string }> {
  const started = d.now();
  try {
    for (;;) {
      const held = await d.store.claim(key, fingerprint, CLAIM_SECONDS);
      if (!held) return { claimed: key };
      if (held.fingerprint !== fingerprint) return { outcome: { kind: 'key-reused' } };
      // Only accepted submissions are completed (a refusal or a 502 releases the key).
      if (held.state === 'done') return { outcome: { kind: 'replayed', first: held.body as AcceptedRecord } };
      if (d.now() - started > WAIT_FOR_FIRST_MS) return { outcome: { kind: 'key-busy', retryAfter: 2 } };
      await sleep(100);
    }
  } catch (e) {
    d.log('idempotency_store_failed', { level: 'warn', error: errorText(e) });
    return {};
  }
}

async function releaseKey(d: LeadDeps, claimed: string | undefined): Promise<void> {
  if (claimed)
    await d.store
      .release(claimed)
      .catch((e) => d.log('idempotency_store_failed', { level: 'warn', error: errorText(e) }));
}

// A 502 spends nothing: the unit taken for this request is given back (and the key released), so the
// same request can succeed once things recover.
async function refundUnit(d: LeadDeps, client: string, result: LimitResult | undefined): Promise<void> {
  if (!result) return;
  await refundRateLimit(d.store, LEAD_POLICY, client, result).catch((e) =>
    d.log('rate_limit_refund_failed', { level: 'warn', error: errorText(e) }),
  );
}

/** Marks the claimed key done with the accepted answer, so a retry replays it. */
async function completeKey(d: LeadDeps, claimed: string, fingerprint: string, accepted: AcceptedRecord) {
  // `status` stays in the record for the stores' sake; only accepted submissions are recorded.
  await d.store
    .complete(claimed, { state: 'done', fingerprint, status: 200, body: accepted }, LIMITS.idempotencyWindowSeconds)
    .catch((e) => d.log('idempotency_store_failed', { level: 'warn', error: errorText(e) }));
}

/** Tells sales of the lead; a failure is logged (the lead is already recorded). */
function notifySales(d: LeadDeps, record: LeadRecord): Promise<void> {
  return d.notifier.notify(record).catch((e) =>
    d.log('lead_notify_failed', {
      level: 'warn',
      id: record.id,
      notifier: d.notifier.name,
      error: errorText(e),
    }),
  );
}

/** Submits a lead: check it, claim its key, spend the budget, record it, then complete the key and tell sales. */
export async function submitLead(input: SubmitLeadInput, d: LeadDeps): Promise<LeadOutcome> {
  const checked = checkSubmission(input);
  if ('kind' in checked) return checked;

  // Idempotency (DESIGN.md section 2): key + client scope for the idempotency window.
  const { key, fingerprint } = await idempotencyOf(input);
  // A client this instance saw spend its budget is refused from memory before its key is claimed: no store call,
  // and the key stays free. A key this instance holds (a retry of an accepted lead) is still answered from it.
  const known = rememberedRefusal({ store: d.store, policy: LEAD_POLICY, client: input.client, now: d.now() });
  if (known && !(key && d.store.recall?.(key))) return limited(known);
  const claim = key ? await claimKey(key, fingerprint, d) : {};
  if ('outcome' in claim) return claim.outcome;
  const { claimed } = claim;

  const limit = await checkRateLimit({
    store: d.store,
    policy: LEAD_POLICY,
    client: input.client,
    log: d.log,
    now: d.now(),
  });
  if (!limit.ok) {
    await releaseKey(d, claimed);
    return limited(limit);
  }

  const record: LeadRecord = {
    id: crypto.randomUUID(),
    receivedAt: new Date(d.now()).toISOString(),
    lead: checked.lead,
    ...(input.source ? { source: input.source } : {}),
  };
  const where = await recordLead(record, d);
  if (!where) {
    await Promise.all([releaseKey(d, claimed), refundUnit(d, input.client, limit.result)]);
    return { kind: 'unrecorded' };
  }
  d.log('lead_recorded', { level: 'info', id: record.id, where, intent: record.lead.intent });

  const { policy, limit: most, remaining, reset } = limit;
  const accepted = { body: { ok: true }, limit: { policy, limit: most, remaining, reset } };
  if (claimed) await completeKey(d, claimed, fingerprint, accepted);
  return { kind: 'accepted', limit: accepted.limit, after: notifySales(d, record) };
}

export interface FlushResult {
  delivered: number;
  /** Deliveries that failed for now (no answer, 5xx, 408, 429): still queued, retried after a backoff. */
  failed: number;
  /**
   * Entries moved to the dead letters, each with a sales notification: refused for good by the CRM (another
   * 4xx), or still failing past the bound of attempts or age.
   */
  deadLettered: number;
  /** Entries that could not be read, moved to quarantine (and logged) instead of being retried. */
  quarantined: number;
  /** Entries still waiting (leased ones included). */
  remaining: number;
  /** Dead letters (of this run or earlier ones) whose sales alert landed in this run. */
  announced: number;
  /** Dead letters whose alert failed in this run: tried again at a later flush, after a backoff. */
  alertsFailed: number;
}

/**
 * How long a flusher holds the entries it claimed. A batch of `FLUSH_BATCH` at the sink's bound (5 s)
 * fits well inside it; a flusher that dies leaves its entries to the next one after this.
 */
export const FLUSH_LEASE_SECONDS = 300;
export const FLUSH_BATCH = 20;

/** When a lead that keeps failing for now stops being retried, and how long each retry waits. */
export interface RetryPolicy {
  /** Attempts after which a lead still failing goes to the dead letters. */
  maxAttempts: number;
  /** Time since it was queued after which a lead still failing goes to the dead letters. */
  maxAgeMs: number;
  /** The wait before the next attempt, after `attempts` failed ones. */
  delayMs(attempts: number): number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The first two retries are free at once (a blip, or a flush run by hand once the CRM is back); then the wait
 * doubles from a minute up to an hour. With the cron every ten minutes, 25 attempts take about a day; a lead
 * still failing then, or queued two days ago, goes to the dead letters and a person hears of it.
 */
export const RETRY_POLICY: RetryPolicy = {
  maxAttempts: 25,
  maxAgeMs: 48 * HOUR_MS,
  delayMs: (attempts) => (attempts < 3 ? 0 : Math.min(MINUTE_MS * 2 ** (attempts - 3), HOUR_MS)),
};

/** A failed delivery, classified: worth retrying (`transient`) or refused for good. */
export interface DeliveryFailure {
  transient: boolean;
  /** The error, for a log line or a reason (at most 300 characters). */
  message: string;
  /** The sink's HTTP status and the start of its answer, when it answered. */
  status?: number;
  answer?: string;
}

/**
 * What a sink's rejection means for the lead. No answer (a timeout, the network), a 5xx, 408 (Request Timeout)
 * and 429 (Too Many Requests) are transient; any other 4xx is the CRM refusing this lead for good (HubSpot
 * answers 400 for a field missing from the form definition, 401 for a revoked token, 404 for a deleted form):
 * retrying cannot help until a person fixes the cause.
 */
export function classifyFailure(e: unknown): DeliveryFailure {
  const message = errorText(e).slice(0, 300);
  const { status, body } = (e ?? {}) as { status?: unknown; body?: unknown };
  if (typeof status !== 'number' || !Number.isInteger(status)) return { transient: true, message };
  const answer = typeof body === 'string' ? body.slice(0, 500) : undefined;
  const refused = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { transient: !refused, message, status, ...(answer !== undefined ? { answer } : {}) };
}

/** A span of time for a person: minutes under two hours, else hours. */
const spell = (ms: number) =>
  ms < 2 * HOUR_MS ? `${Math.max(0, Math.round(ms / MINUTE_MS))} min` : `${Math.round(ms / HOUR_MS)} h`;

/** The lead inside an outbox payload, or undefined when the payload is not a whole, readable entry. */
export function recordOf(payload: string, id: string): LeadRecord | undefined {
  try {
    const v = JSON.parse(payload) as { record?: LeadRecord };
    const r = v?.record;
    if (!r || typeof r !== 'object' || r.id !== id || typeof r.receivedAt !== 'string') return undefined;
    if (!r.lead || typeof r.lead.name !== 'string' || typeof r.lead.email !== 'string') return undefined;
    return r;
  } catch {
    return undefined;
  }
}

/**
 * The longest one delivery may take: the sinks' own bound (`LEAD_SINK_TIMEOUT_MS`, 5 s by default). A flush
 * with a time limit claims and delivers only what this leaves room for.
 */
export const DELIVERY_BOUND_MS = 5_000;

/** A flush's time limit: its clock, the instant it must be done by, and how long one delivery may take. */
export interface FlushTime {
  now(): number;
  deadline: number;
  boundMs: number;
}

/**
 * What a flush needs. Without a notifier, the `lead_dead_lettered` error line is the only alert of a dead
 * letter (and its letter stays unannounced); the clock (for the age bound) defaults to the system's.
 */
export type FlushDeps = Pick<LeadDeps, 'sink' | 'store' | 'log'> & Partial<Pick<LeadDeps, 'notifier' | 'now'>>;

/** How many deliveries still fit before the deadline. */
const fits = (t: FlushTime | undefined, max: number) =>
  t ? Math.min(max, Math.floor((t.deadline - t.now()) / t.boundMs)) : max;

/** `work`, or a rejection once `ms` have passed (the work may still finish later: delivery is at least once). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A failed delivery's entry: back to the queue after its backoff when the failure is transient and within the
 * bounds; else to the dead letters (its sales alert due at once), logged as an error. Returns what became of it
 * (`gone`: another flusher settled it meanwhile).
 */
async function settleFailure(
  d: FlushDeps,
  item: OutboxItem,
  e: unknown,
  policy: RetryPolicy,
): Promise<'retrying' | 'dead-lettered' | 'gone'> {
  const failure = classifyFailure(e);
  const age = (d.now ?? Date.now)() - item.queuedAt;
  const spent = item.attempts >= policy.maxAttempts || age >= policy.maxAgeMs;
  if (failure.transient && !spent) {
    await d.store.outboxRetry(item.id, failure.message, policy.delayMs(item.attempts));
    d.log('lead_flush_failed', { level: 'warn', id: item.id, attempts: item.attempts, error: failure.message });
    return 'retrying';
  }
  const why: DeadLetterReason = {
    // The CRM's own words are in `answer` when it answered; the error text otherwise (a timeout, the network).
    reason: failure.transient
      ? `still failing after ${item.attempts} attempt(s) in ${spell(age)} ` +
        `(last: ${failure.status !== undefined ? `HTTP ${failure.status}` : failure.message})`
      : `the CRM refused it for good (HTTP ${failure.status})`,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.answer !== undefined ? { answer: failure.answer } : {}),
  };
  // Another flusher may have settled it meanwhile (a lease outlived): one dead letter, one alert.
  if (!(await d.store.outboxDeadLetter(item.id, why))) return 'gone';
  d.log('lead_dead_lettered', {
    level: 'error',
    id: item.id,
    attempts: item.attempts,
    status: failure.status,
    reason: why.reason,
    note: 'a lead could not be delivered to the CRM; it is in the dead letters (docs/operations.md) until re-queued',
  });
  return 'dead-lettered';
}

/**
 * Claims up to `max` outbox entries (leased, so a concurrent flusher in another process gets others) and
 * delivers each with its own delivery id, the same on every retry: at least once, never lost. A delivered
 * entry is removed; one whose delivery failed for now goes to the back of the queue after its backoff; one the
 * CRM refused for good (or still failing past `policy`'s bounds) goes to the dead letters; an unreadable one to
 * quarantine. Then sales are told of each dead letter not yet announced (`announce`).
 *
 * With a time limit (`time`), it claims only as many entries as the time left covers at one delivery bound
 * each, cuts every delivery off at that bound whatever the sink does, and hands back at once (lease ended,
 * for another flush to take) any claimed entry it no longer has the time to deliver. The alerts get at most one
 * more bound at the end.
 */
export async function flushOutbox(
  d: FlushDeps,
  max = FLUSH_BATCH,
  time?: FlushTime,
  policy: RetryPolicy = RETRY_POLICY,
): Promise<FlushResult> {
  const result = await flushBatch(d, max, time, policy);
  return { ...result, ...(await announce(d, time, policy)) };
}

/** Dead letters whose alerts one flush sends at once (the rest wait for the next batch, or the next run). */
export const ALERT_BATCH = 50;

/** Tells sales of one dead letter; resolves when the alert landed. */
async function alert(notifier: Notifier, letter: DeadLetter, time: FlushTime | undefined): Promise<void> {
  const record = recordOf(letter.payload, letter.id);
  if (!record) throw new Error('the dead letter holds no readable lead');
  const { reason, status, answer, attempts } = letter;
  const work = notifier.notify(record, {
    reason,
    attempts,
    ...(status !== undefined ? { status } : {}),
    ...(answer !== undefined ? { answer } : {}),
  });
  await (time ? within(work, time.boundMs) : work);
}

/**
 * Tells sales of each dead letter not yet announced whose alert is due: a new one at once, one whose alert
 * failed after a backoff (`policy.delayMs` of the alerts tried, as for a delivery), until one lands. Each alert
 * is claimed under a lease first, so two flushes never send the same one at once; a landed alert marks its
 * letter announced. With a time limit, one batch, cut off after one delivery bound; without, batch after batch
 * while every alert lands. Without a notifier nothing is sent (the `lead_dead_lettered` error line is the alert).
 */
async function announce(
  d: FlushDeps,
  time: FlushTime | undefined,
  policy: RetryPolicy,
): Promise<Pick<FlushResult, 'announced' | 'alertsFailed'>> {
  const told = { announced: 0, alertsFailed: 0 };
  const notifier = d.notifier;
  if (!notifier) return told;
  for (;;) {
    const letters = await d.store.deadLetterAlertClaim(ALERT_BATCH, FLUSH_LEASE_SECONDS);
    const landed = await Promise.all(
      letters.map(async (letter) => {
        try {
          await alert(notifier, letter, time);
        } catch (e) {
          d.log('lead_notify_failed', {
            level: 'error',
            id: letter.id,
            notifier: notifier.name,
            undelivered: true,
            alerts: letter.alerts,
            error: errorText(e),
            note: 'this dead letter is not yet announced: its alert is tried again at a later flush, after a backoff',
          });
          await d.store.deadLetterAlertRetry(letter.id, policy.delayMs(letter.alerts));
          return false;
        }
        await d.store.deadLetterAnnounced(letter.id);
        return true;
      }),
    );
    const ok = landed.filter(Boolean).length;
    told.announced += ok;
    told.alertsFailed += landed.length - ok;
    if (time || letters.length < ALERT_BATCH || ok < landed.length) return told;
  }
}

/** One batch of `flushOutbox`: deliveries only (the dead letters it makes are told of after). */
async function flushBatch(
  d: FlushDeps,
  max: number,
  time: FlushTime | undefined,
  policy: RetryPolicy,
): Promise<Omit<FlushResult, 'announced' | 'alertsFailed'>> {
  let delivered = 0;
  let failed = 0;
  let deadLettered = 0;
  let quarantined = 0;
  const take = fits(time, max);
  const items = take > 0 ? await d.store.outboxClaim(take, FLUSH_LEASE_SECONDS) : [];
  for (const [i, item] of items.entries()) {
    if (fits(time, 1) < 1) {
      const unsent = items.slice(i);
      // Not attempted: free at once, in its place and with its attempts as they were, not leased for minutes.
      for (const u of unsent) await d.store.outboxRelease(u.id);
      d.log('lead_flush_out_of_time', { level: 'warn', returned: unsent.length });
      break;
    }
    const record = recordOf(item.payload, item.id);
    if (!record) {
      await d.store.outboxQuarantine(item.id, 'unreadable outbox entry');
      d.log('lead_outbox_quarantined', { level: 'error', id: item.id, entry: item.payload.slice(0, 500) });
      quarantined++;
      continue;
    }
    try {
      await (time ? within(d.sink.deliver(record), time.boundMs) : d.sink.deliver(record));
    } catch (e) {
      const became = await settleFailure(d, item, e, policy);
      if (became === 'retrying') failed++;
      else if (became === 'dead-lettered') deadLettered++;
      continue;
    }
    await d.store.outboxAck(item.id);
    delivered++;
    d.log('lead_flushed', { level: 'info', id: item.id, attempts: item.attempts });
  }
  return { delivered, failed, deadLettered, quarantined, remaining: await d.store.outboxSize() };
}

/**
 * Flushes batch after batch until the outbox is empty, a batch moves nothing out of it (the sink is still
 * down), or the time left (`budgetMs` from the start, on `d.now`) cannot cover one more delivery of `boundMs`:
 * a cron run has a time limit, and a hanging CRM must not stretch the flush past it. Then sales are told of
 * the dead letters not yet announced, once, at the end (at most one more bound with a time limit): a hanging
 * sales webhook costs the run one bound, not one per batch.
 */
export async function flushAll(
  d: FlushDeps & Pick<LeadDeps, 'now'>,
  budgetMs = Infinity,
  boundMs = DELIVERY_BOUND_MS,
  policy: RetryPolicy = RETRY_POLICY,
): Promise<FlushResult> {
  const time: FlushTime | undefined =
    budgetMs === Infinity ? undefined : { now: () => d.now(), deadline: d.now() + budgetMs, boundMs };
  const total = { delivered: 0, failed: 0, deadLettered: 0, quarantined: 0, remaining: 0 };
  for (;;) {
    const r = await flushBatch(d, FLUSH_BATCH, time, policy);
    total.delivered += r.delivered;
    total.failed += r.failed;
    total.deadLettered += r.deadLettered;
    total.quarantined += r.quarantined;
    total.remaining = r.remaining;
    if (!r.remaining || (!r.delivered && !r.deadLettered && !r.quarantined) || fits(time, 1) < 1) break;
  }
  return { ...total, ...(await announce(d, time, policy)) };
}

/** What submission would do with `body` and `idempotencyKey`, writing nothing (the sandbox). */
export function sandboxLead(body: unknown, idempotencyKey: string | null): SandboxOutcome {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { kind: 'not-an-object', message: NOT_AN_OBJECT };
  const check = validateLead(body as Record<string, unknown>);
  const keyProblem = checkIdempotencyKey(idempotencyKey);
  return {
    kind: 'checked',
    wouldSubmit: check.wouldSubmit && !keyProblem,
    problems: check.problems,
    ...(keyProblem ? { keyProblem } : {}),
  };
}

/**
 * The Idempotency-Key of a form posted without JavaScript: the site is static HTML, so no per-visitor
 * value can be rendered into the form, and without JavaScript none can be made on the page. The key is
 * the form's own content: posting the same form twice (a double click, a reload that resends it) makes
 * one lead, and a changed form is a new submission. Keys are scoped to the client, so two visitors never
 * share one; with JavaScript the script sends a random key per submission instead.
 */
export async function formIdempotencyKey(form: Record<string, unknown>): Promise<string> {
  return `form:${await sha256(canonical(form))}`;
}
