/**
 * `npm run leads:flush`: replays the lead outbox (Upstash list, or the local outbox file) to the
 * configured lead sink, with the same settings as the server. Exit code 1 when entries are left.
 */
import { createDeps } from '../src/adapters/deps.ts';
import { flushOutbox } from '../src/core/leads.ts';

const d = createDeps();
console.log(`flushing the lead outbox: ${d.store.describe()} -> ${d.sink.name}`);
let total = { delivered: 0, failed: 0, remaining: 0 };
// Batches of 100 until a batch delivers nothing (what is left keeps failing, or the outbox is empty).
for (;;) {
  const r = await flushOutbox(d, 100);
  total = { delivered: total.delivered + r.delivered, failed: total.failed + r.failed, remaining: r.remaining };
  if (!r.delivered || !r.remaining) break;
}
console.log(`delivered ${total.delivered}, failed ${total.failed}, left in the outbox ${total.remaining}`);
process.exitCode = total.remaining ? 1 : 0;
