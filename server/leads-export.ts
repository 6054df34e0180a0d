/**
 * `npm run leads:export [file]`: writes the local lead table (the default sink, in
 * `<KARTAGE_VAR_DIR>/kartage.db`) as JSON lines, one lead per line, oldest first: to `file`, or to
 * stdout. An export for reading or importing elsewhere; the database stays the record.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../src/adapters/config.ts';
import { DB_FILE } from '../src/adapters/sqlite-store.ts';
import { readLeads, readQuarantine } from '../src/adapters/sqlite-store.ts';

const file = join(parseConfig(process.env).varDir, DB_FILE);
const leads = readLeads(file);
const lines = leads.map((l) => `${JSON.stringify(l)}\n`).join('');
const target = process.argv[2];
if (target) writeFileSync(target, lines);
else process.stdout.write(lines);
const quarantined = readQuarantine(file).length;
console.error(
  `exported ${leads.length} lead(s) from ${file}${target ? ` to ${target}` : ''}` +
    (quarantined ? `; ${quarantined} unreadable outbox entries are in its quarantine table` : ''),
);
