/** @module The in-process store's dead letters: leads moved out of the outbox, with their alerts to sales. */
import { claimCount, type DeadLetter, type DeadLetterPart } from '../../core/ports.ts';
import { enqueue, type Queue } from './outbox.ts';

/** The store's dead-letter operations, moving entries out of and back into `queue`. */
export function memoryDeadLetters(queue: Queue, clock: () => number): DeadLetterPart {
  /** In the order they came (a Map keeps insertion order), each with when its alert is next due. */
  const dead = new Map<string, DeadLetter & { alertAfter: number }>();
  return {
    async outboxDeadLetter(id, why) {
      const e = queue.entries.get(id);
      if (!e) return false;
      queue.entries.delete(id);
      dead.delete(id);
      const letter = { ...why, id, payload: e.payload, attempts: e.attempts, queuedAt: e.queuedAt, at: clock() };
      dead.set(id, { ...letter, announced: false, alerts: 0, alertAfter: 0 });
      return true;
    },
    deadLetters: async () => [...dead.values()].map(({ alertAfter: _, ...l }) => l),
    async deadLetterAlertClaim(max, leaseSeconds) {
      const now = clock();
      const due = [...dead.values()].filter((l) => !l.announced && l.alertAfter <= now).slice(0, claimCount(max));
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
      enqueue(queue, id, l.payload, clock());
      return true;
    },
  };
}
