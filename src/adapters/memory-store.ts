/**
 * @module The in-process store: rate limits, idempotency records, an outbox with its dead letters and the
 * count of unanswered questions in this process's memory.
 * It is the fallback the resilient store (`fallback-store.ts`) turns to for one request when the shared
 * store is slow or down, so limits degrade to per-instance, never to none; and the store of tests that
 * need nothing durable. Nothing here survives the process: the local default is the SQLite store.
 */
import { slidingWindowAllows, slidingWindowResult } from '../core/rate-limit.ts';
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
  UNANSWERED_LIMIT,
} from '../core/ask/unanswered.ts';
import type { DeadLetter, IdempotencyRecord, LimitPolicy, LimitResult, OutboxItem, Store } from '../core/ports.ts';

export interface MemoryStoreOptions {
  /** Clock for expiry of idempotency records and outbox leases. @default Date.now */
  now?: () => number;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT (5,000) */
  questionLimit?: number;
}

interface Entry<T> {
  value: T;
  until: number;
}

/** The end of the UTC day of `at` (epoch ms), when an asker's record of that day goes. */
const dayEnd = (at: number) => (Math.floor(at / DAY_MS) + 1) * DAY_MS;

export function createMemoryStore(opts: MemoryStoreOptions = {}): Store {
  const clock = opts.now ?? (() => Date.now());
  const counters = new Map<string, Entry<number>>();
  const logs = new Map<string, Entry<{ at: number; unit: string }[]>>();
  const keys = new Map<string, Entry<IdempotencyRecord>>();
  const outbox = new Map<
    string,
    { payload: string; attempts: number; leaseUntil: number; seq: number; queuedAt: number }
  >();
  const quarantine = new Map<string, string>();
  /** Dead letters in the order they came (a Map keeps insertion order). */
  const dead = new Map<string, DeadLetter & { alertAfter: number }>();
  const questions = new Map<string, { text: string; count: number; lastAsked: number; suspect: boolean }>();
  /** What each asker counted on its day (or that it flooded), until the day ends. */
  const askers = new Map<string, { keys: Set<string>; flood: boolean; until: number }>();
  const questionLimit = opts.questionLimit ?? UNANSWERED_LIMIT;
  type Counted = [key: string, { count: number; lastAsked: number }];
  const byKey = (a: Counted, b: Counted) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  /** The order flood-shaped questions make room in: least asked first, then the longest unasked. */
  const leastAsked = (a: Counted, b: Counted) =>
    a[1].count - b[1].count || a[1].lastAsked - b[1].lastAsked || byKey(a, b);
  /** The longest unasked first. */
  const longestUnasked = (a: Counted, b: Counted) => a[1].lastAsked - b[1].lastAsked || byKey(a, b);
  /** The order of the report: most asked first, then the last asked. */
  const mostAsked = (a: Counted, b: Counted) =>
    b[1].count - a[1].count || b[1].lastAsked - a[1].lastAsked || byKey(a, b);
  let seq = 0;
  let units = 0;
  let lastSweep = 0;
  let lastAskerSweep = 0;

  const sweep = (now: number) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const map of [counters, logs, keys] as Map<string, Entry<unknown>>[]) {
      for (const [k, e] of map) if (e.until <= now) map.delete(k);
    }
  };

  return {
    async hit(policy: LimitPolicy, client: string, now: number): Promise<LimitResult> {
      sweep(now);
      const windowMs = policy.windowSeconds * 1000;
      if (policy.algorithm === 'sliding-window') {
        const index = Math.floor(now / windowMs);
        const key = (i: number) => `${policy.name}:${client}:${i}`;
        const previous = counters.get(key(index - 1))?.value ?? 0;
        const current = counters.get(key(index))?.value ?? 0;
        const allowed = slidingWindowAllows(policy, previous, current, now);
        if (allowed) counters.set(key(index), { value: current + 1, until: (index + 2) * windowMs });
        const result = slidingWindowResult(policy, previous, allowed ? current + 1 : current, now, allowed);
        return allowed ? { ...result, unit: `${key(index)}` } : result;
      }
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

    async claim(key, fingerprint, claimSeconds) {
      const now = clock();
      const held = keys.get(key);
      if (held && held.until > now) return held.value;
      keys.set(key, { value: { state: 'pending', fingerprint }, until: now + claimSeconds * 1000 });
      return undefined;
    },
    async complete(key, record, ttlSeconds) {
      keys.set(key, { value: record, until: clock() + ttlSeconds * 1000 });
    },
    recall(key) {
      const held = keys.get(key);
      return held && held.until > clock() ? held.value : undefined;
    },
    async release(key) {
      if (keys.get(key)?.value.state === 'pending') keys.delete(key);
    },

    async outboxPush(id, payload) {
      if (!outbox.has(id)) outbox.set(id, { payload, attempts: 0, leaseUntil: 0, seq: ++seq, queuedAt: clock() });
    },
    async outboxClaim(max, leaseSeconds) {
      const now = clock();
      const free = [...outbox.entries()]
        .filter(([, e]) => e.leaseUntil <= now)
        .sort((a, b) => a[1].seq - b[1].seq)
        .slice(0, max);
      return free.map(([id, e]): OutboxItem => {
        e.leaseUntil = now + leaseSeconds * 1000;
        e.attempts++;
        return { id, payload: e.payload, attempts: e.attempts, queuedAt: e.queuedAt };
      });
    },
    async outboxAck(id) {
      outbox.delete(id);
    },
    async outboxRetry(id, _error, delayMs = 0) {
      const e = outbox.get(id);
      if (e) Object.assign(e, { leaseUntil: delayMs > 0 ? clock() + delayMs : 0, seq: ++seq });
    },
    async outboxRelease(id) {
      const e = outbox.get(id);
      if (e) Object.assign(e, { leaseUntil: 0, attempts: Math.max(0, e.attempts - 1) });
    },
    async outboxQuarantine(id, reason) {
      const e = outbox.get(id);
      if (!e) return;
      outbox.delete(id);
      quarantine.set(id, `${reason}: ${e.payload}`);
    },
    outboxSize: async () => outbox.size,
    quarantineSize: async () => quarantine.size,
    async outboxDeadLetter(id, why) {
      const e = outbox.get(id);
      if (!e) return false;
      outbox.delete(id);
      dead.delete(id);
      const letter = { ...why, id, payload: e.payload, attempts: e.attempts, queuedAt: e.queuedAt, at: clock() };
      dead.set(id, { ...letter, announced: false, alerts: 0, alertAfter: 0 });
      return true;
    },
    deadLetters: async () => [...dead.values()].map(({ alertAfter: _, ...l }) => l),
    async deadLetterAlertClaim(max, leaseSeconds) {
      const now = clock();
      const due = [...dead.values()].filter((l) => !l.announced && l.alertAfter <= now).slice(0, Math.max(0, max));
      return due.map(({ alertAfter: _, ...l }) => {
        Object.assign(dead.get(l.id)!, { alerts: l.alerts + 1, alertAfter: now + leaseSeconds * 1000 });
        return { ...l, alerts: l.alerts + 1 };
      });
    },
    async deadLetterAnnounced(id) {
      const l = dead.get(id);
      if (l) l.announced = true;
    },
    async deadLetterAlertRetry(id, delayMs) {
      const l = dead.get(id);
      if (l && !l.announced) l.alertAfter = clock() + Math.max(0, delayMs);
    },
    deadLetterSize: async () => dead.size,
    async deadLetterRequeue(id) {
      const l = dead.get(id);
      if (!l) return false;
      dead.delete(id);
      if (!outbox.has(id))
        outbox.set(id, { payload: l.payload, attempts: 0, leaseUntil: 0, seq: ++seq, queuedAt: clock() });
      return true;
    },

    async countQuestion(key, text, at, asker) {
      if (at - lastAskerSweep >= 60_000) {
        lastAskerSweep = at;
        for (const [k, a] of askers) if (a.until <= at) askers.delete(k);
      }
      const second = Math.floor(at / 1000) * 1000;
      let trusted = true;
      let mine: Set<string> | undefined;
      if (asker !== undefined) {
        let a = askers.get(asker);
        if (!a || a.until <= at) askers.set(asker, (a = { keys: new Set(), flood: false, until: dayEnd(at) }));
        if (a.flood || a.keys.has(key)) return;
        if (a.keys.size >= ASKER_DAILY_QUESTIONS) {
          // A flood: what it counted is withdrawn, and nothing more of its day counts.
          for (const k of a.keys) {
            const q = questions.get(k);
            if (q && --q.count <= 0) questions.delete(k);
          }
          Object.assign(a, { keys: new Set(), flood: true });
          return;
        }
        trusted = a.keys.size < ASKER_TRUSTED_QUESTIONS;
        a.keys.add(key);
        mine = a.keys;
      }
      const held = questions.get(key);
      if (held) {
        held.count++;
        held.lastAsked = Math.max(held.lastAsked, second);
        if (trusted) held.suspect = false;
        return;
      }
      questions.set(key, { text, count: 1, lastAsked: second, suspect: !trusted });
      let excess = questions.size - questionLimit;
      if (excess <= 0) return;
      const stale = Math.floor((at - QUESTION_STALE_MS) / 1000) * 1000;
      const others = [...questions].filter(([k]) => k !== key);
      const victims = [
        ...others.filter(([, q]) => q.lastAsked < stale).sort(longestUnasked),
        ...others.filter(([, q]) => q.lastAsked >= stale && q.suspect).sort(leastAsked),
      ];
      for (const [k] of victims.slice(0, excess)) {
        questions.delete(k);
        excess--;
      }
      if (excess > 0) {
        // Every other question is fresh and a visitor's: the newcomer is not kept.
        questions.delete(key);
        mine?.delete(key);
      }
    },
    async topQuestions(limit) {
      return [...questions]
        .sort(mostAsked)
        .slice(0, Math.max(0, Math.floor(limit)))
        .map(([, { text, count, lastAsked }]) => ({ text, count, lastAsked }));
    },
    describe: () => 'in-process store (memory)',
  };
}
