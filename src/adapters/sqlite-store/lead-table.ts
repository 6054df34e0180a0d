/** @module The local lead sink (the `leads` table) and what the `leads:*` commands read: leads, quarantine, backup. */
import { DatabaseSync } from 'node:sqlite';
import { existsSync } from 'node:fs';
import type { LeadRecord, LeadSink } from '../../core/ports.ts';
import { checkpoint, current, openDatabase, patiently, readBack } from './database.ts';
import { LEAD_WAIT_MS, prepared, write } from './transactions.ts';

/** The local lead sink: one row per delivery id (a retried delivery is kept once), on disk before it resolves. */
export function createSqliteSink(file: string): LeadSink {
  return {
    name: `local lead table in ${file}`,
    async deliver(record) {
      const db = current(openDatabase(file));
      await write(
        db.durable,
        () =>
          prepared(db.durable, 'INSERT INTO leads (id, record, at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING').run(
            record.id,
            JSON.stringify(record),
            Date.now(),
          ),
        LEAD_WAIT_MS,
      );
      if (!readBack(current(db), 'SELECT 1 FROM leads WHERE id = ?', record.id))
        throw new Error(`the lead ${record.id} was committed but cannot be read back`);
      checkpoint(db);
    },
  };
}

/** Every lead in the local lead table, oldest first. */
export function readLeads(file: string): LeadRecord[] {
  return patiently(file, (durable) =>
    (prepared(durable, 'SELECT record FROM leads ORDER BY n').all() as { record: string }[]).map(
      (r) => JSON.parse(r.record) as LeadRecord,
    ),
  );
}

/** What sits in quarantine: entries that could not be read, with the reason, for a person to look at. */
export function readQuarantine(file: string): { id: string | null; payload: string; reason: string; at: number }[] {
  return patiently(
    file,
    (durable) =>
      prepared(durable, 'SELECT id, payload, reason, at FROM quarantine ORDER BY n').all() as {
        id: string | null;
        payload: string;
        reason: string;
        at: number;
      }[],
  );
}

/** A consistent copy of the database at `target` (`VACUUM INTO`: one read transaction); never overwrites a file. */
export function backupDatabase(file: string, target: string): { leads: number; outbox: number } {
  if (existsSync(target)) throw new Error(`${target} exists; the backup never overwrites a file`);
  patiently(file, (durable) => prepared(durable, 'VACUUM INTO ?').run(target));
  const copy = new DatabaseSync(target, { readOnly: true });
  try {
    const count = (table: string) =>
      Number((copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    return { leads: count('leads'), outbox: count('outbox') };
  } finally {
    copy.close();
  }
}
