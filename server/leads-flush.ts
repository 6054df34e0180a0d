/**
 * `npm run leads:flush`: replays the lead outbox (Upstash, or the outbox table of the local SQLite file)
 * to the configured lead sink, with the same settings as the server. Safe while the server runs and while
 * other flushes run: each claims its entries under a lease. A delivery that fails for now is retried after a
 * backoff; a lead the CRM refuses for good (or still failing past the bound) goes to the dead letters, and
 * sales are notified. The last line counts each (`left in the outbox N` ends its first part).
 * Exit code: 0 all delivered; 1 entries left in the outbox (retrying); 3 none left, but this run moved leads
 * to the dead letters (a person must act: `npm run leads:export -- --dead-letters`, `npm run leads:requeue`).
 */
import { parseConfig } from '../src/adapters/config.ts';
import { createDeps } from '../src/adapters/deps.ts';
import { flushAll } from '../src/core/leads.ts';

const d = createDeps({ config: parseConfig(process.env) });
console.log(`flushing the lead outbox: ${d.store.describe()} -> ${d.sink.name}`);
const total = await flushAll(d);
const [quarantine, dead] = await Promise.all([d.store.quarantineSize(), d.store.deadLetterSize()]);
console.log(
  `delivered ${total.delivered}, retrying ${total.failed}, dead-lettered ${total.deadLettered}, ` +
    `quarantined ${total.quarantined}, left in the outbox ${total.remaining}` +
    (dead ? `; ${dead} lead(s) in the dead letters (npm run leads:export -- --dead-letters)` : '') +
    (quarantine ? `; ${quarantine} unreadable entries in quarantine (see the README, Leads)` : ''),
);
process.exitCode = total.remaining ? 1 : total.deadLettered ? 3 : 0;
