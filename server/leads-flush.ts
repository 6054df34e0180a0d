/**
 * `npm run leads:flush`: replays the lead outbox (Upstash, or the outbox table of the local SQLite file)
 * to the configured lead sink, with the same settings as the server. Safe while the server runs and while
 * other flushes run: each claims its entries under a lease. Exit code 1 when entries are left.
 */
import { createDeps } from '../src/adapters/deps.ts';
import { flushAll } from '../src/core/leads.ts';

const d = createDeps();
console.log(`flushing the lead outbox: ${d.store.describe()} -> ${d.sink.name}`);
const total = await flushAll(d);
const quarantine = await d.store.quarantineSize();
console.log(
  `delivered ${total.delivered}, failed ${total.failed}, quarantined ${total.quarantined}, left in the outbox ${total.remaining}` +
    (quarantine ? `; ${quarantine} unreadable entries in quarantine (see the README, Leads)` : ''),
);
process.exitCode = total.remaining ? 1 : 0;
