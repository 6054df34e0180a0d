/** @module The in-process store's lead outbox (entries in queue order) and its quarantine. */
import { claimCount, type OutboxItem, type OutboxPart } from '../../core/ports.ts';

/** An entry waiting in the outbox. */
interface Queued {
  payload: string;
  attempts: number;
  leaseUntil: number;
  /** Its place in the queue: the lowest is claimed first. */
  seq: number;
  queuedAt: number;
}

/** The outbox's entries and quarantine, shared with the dead letters (which move entries in and out). */
export interface Queue {
  entries: Map<string, Queued>;
  quarantine: Map<string, string>;
  /** The next place at the back of the queue. */
  back(): number;
}

/** An empty outbox. */
export function createQueue(): Queue {
  let seq = 0;
  return { entries: new Map(), quarantine: new Map(), back: () => ++seq };
}

/** Queues `payload` under `id` at the back, free at once with no attempts; an id already queued is left as it is. */
export function enqueue(queue: Queue, id: string, payload: string, now: number): void {
  if (!queue.entries.has(id))
    queue.entries.set(id, { payload, attempts: 0, leaseUntil: 0, seq: queue.back(), queuedAt: now });
}

/** The store's outbox operations on `queue`. */
export function memoryOutbox(queue: Queue, clock: () => number): OutboxPart {
  const { entries, quarantine } = queue;
  return {
    async outboxPush(id, payload) {
      enqueue(queue, id, payload, clock());
    },
    async outboxClaim(max, leaseSeconds) {
      const now = clock();
      const free = [...entries.entries()]
        .filter(([, e]) => e.leaseUntil <= now)
        .sort((a, b) => a[1].seq - b[1].seq)
        .slice(0, claimCount(max));
      return free.map(([id, e]): OutboxItem => {
        e.leaseUntil = now + leaseSeconds * 1000;
        e.attempts++;
        return { id, payload: e.payload, attempts: e.attempts, queuedAt: e.queuedAt };
      });
    },
    async outboxAck(id) {
      entries.delete(id);
    },
    async outboxRetry(id, _error, delayMs = 0) {
      const e = entries.get(id);
      if (e) Object.assign(e, { leaseUntil: delayMs > 0 ? clock() + delayMs : 0, seq: queue.back() });
    },
    async outboxRelease(id) {
      const e = entries.get(id);
      if (e) Object.assign(e, { leaseUntil: 0, attempts: Math.max(0, e.attempts - 1) });
    },
    async outboxQuarantine(id, reason) {
      const e = entries.get(id);
      if (!e) return;
      entries.delete(id);
      quarantine.set(id, `${reason}: ${e.payload}`);
    },
    outboxSize: async () => entries.size,
    quarantineSize: async () => quarantine.size,
  };
}
