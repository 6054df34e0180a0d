/**
 * `npm run leads:backup FILE`: writes a consistent copy of the embedded database (`<KARTAGE_VAR_DIR>/kartage.db`:
 * the local lead table, the outbox, its quarantine) to FILE, while the server runs. Copying `kartage.db` by hand
 * can miss what sits in its WAL; this cannot. It never overwrites FILE.
 */
import { join, resolve } from 'node:path';
import { DB_FILE, parseConfig } from '../src/config.ts';
import { backupDatabase } from '../src/adapters/sqlite-store/index.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: npm run leads:backup FILE   (a new file: the copy of the embedded database)');
  process.exitCode = 2;
} else {
  const file = join(parseConfig(process.env).varDir, DB_FILE);
  try {
    const { leads, outbox } = backupDatabase(file, resolve(target));
    console.error(`backed up ${file} to ${resolve(target)}: ${leads} lead(s), ${outbox} queued for the CRM`);
  } catch (e) {
    console.error(`backup failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
