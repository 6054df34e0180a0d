/**
 * `npm run leads:export [file]`: writes the local lead table (the default sink, in
 * `<KARTAGE_VAR_DIR>/kartage.db`) as JSON lines, one lead per line, oldest first: to `file`, or to
 * stdout. An export for reading or importing elsewhere; the database stays the record.
 *
 * `npm run leads:export -- --dead-letters [file]`: writes the dead letters of the configured store (Upstash,
 * or the embedded file) instead: the leads the CRM refused for good or that kept failing, one per line, oldest
 * first, each with the lead, the reason and the CRM's answer. Reading them changes nothing; re-queue them with
 * `npm run leads:requeue` once the CRM is fixed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE, parseConfig } from '../src/config.ts';
import { createStore } from '../src/adapters/composition-root.ts';
import { readLeads, readQuarantine } from '../src/adapters/sqlite-store/index.ts';
import { recordOf } from '../src/core/leads.ts';

const args = process.argv.slice(2);
const deadLetters = args.includes('--dead-letters');
const target = args.find((a) => a !== '--dead-letters');
const config = parseConfig(process.env);
const write = (lines: string) => (target ? writeFileSync(target, lines) : process.stdout.write(lines));

if (deadLetters) {
  const store = createStore(config.store);
  const letters = await store.deadLetters();
  const lines = letters.map(({ payload, queuedAt, at, ...letter }) => {
    const record = recordOf(payload, letter.id);
    const when = { queuedAt: new Date(queuedAt).toISOString(), at: new Date(at).toISOString() };
    return `${JSON.stringify({ ...letter, ...when, ...(record ? { record } : { payload }) })}\n`;
  });
  write(lines.join(''));
  console.error(
    `exported ${letters.length} dead letter(s) from ${store.describe()}${target ? ` to ${target}` : ''}` +
      (letters.length ? '; re-queue them once the CRM is fixed: npm run leads:requeue -- --all (or ids)' : ''),
  );
} else {
  const file = join(config.varDir, DB_FILE);
  const leads = readLeads(file);
  write(leads.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const quarantined = readQuarantine(file).length;
  console.error(
    `exported ${leads.length} lead(s) from ${file}${target ? ` to ${target}` : ''}` +
      (quarantined ? `; ${quarantined} unreadable outbox entries are in its quarantine table` : ''),
  );
}
