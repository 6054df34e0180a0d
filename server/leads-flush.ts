/**
 * `npm run leads:flush`: replays the lead outbox (Upstash, or the outbox table of the local SQLite file)
 * to the configured lead sink, with the same settings as the server. Safe while the server runs and while
 * other flushes run: each claims its entries under a lease. A delivery that fails for now is retried after a
 * backoff; a lead the CRM refuses for good (or still failing past the bound) goes to the dead letters, and
 * sales are alerted (an alert that fails is retried at every later flush, after a backoff, until it lands).
 * It lists the dead letters sales were not yet told of, one line each, then a last line counting each
 * (`left in the outbox N` ends its first part).
 * Exit code: 0 all delivered; 1 entries left in the outbox (retrying); 3 none left, but this run moved leads
 * to the dead letters, or some dead letter is not yet announced (a person must act:
 * `npm run leads:export -- --dead-letters`, `npm run leads:requeue`).
 */
import { parseConfig } from '../src/config.ts';
import { createDeps } from '../src/adapters/composition-root.ts';
import { flushAll } from '../src/core/leads.ts';

const d = createDeps({ config: parseConfig(process.env) });
console.log(`flushing the lead outbox: ${d.store.describe()} -> ${d.sink.name}`);
const total = await flushAll(d);
const [quarantine, letters] = await Promise.all([d.store.quarantineSize(), d.store.deadLetters()]);
const unannounced = letters.filter((l) => !l.announced);
if (unannounced.length) {
  console.log(
    `not yet announced to sales (${d.notifier.name}; the alert is tried again at every flush, after a backoff):`,
  );
  for (const l of unannounced)
    console.log(
      `  ${l.id}: dead letter since ${new Date(l.at).toISOString()}, ${l.alerts} alert(s) tried; ${l.reason}`,
    );
}
const dead = letters.length;
console.log(
  `delivered ${total.delivered}, retrying ${total.failed}, dead-lettered ${total.deadLettered}, ` +
    `quarantined ${total.quarantined}, left in the outbox ${total.remaining}` +
    (dead ? `; ${dead} lead(s) in the dead letters (npm run leads:export -- --dead-letters)` : '') +
    (unannounced.length ? `, ${unannounced.length} of them not yet announced to sales` : '') +
    (quarantine ? `; ${quarantine} unreadable entries in quarantine (see docs/operations.md)` : ''),
);
process.exitCode = total.remaining ? 1 : total.deadLettered || unannounced.length ? 3 : 0;
