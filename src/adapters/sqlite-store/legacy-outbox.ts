/** @module The outbox file of earlier versions (`outbox.jsonl`), imported into the outbox table when the file opens. */
import { readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { enqueue } from './schema.ts';
import { prepared, transaction } from './transactions.ts';

/** Queues the lines of `outbox.jsonl` beside `file`, then renames it `outbox.jsonl.imported`. */
export function importLegacyOutbox(file: string, durable: DatabaseSync): void {
  const legacy = join(dirname(file), 'outbox.jsonl');
  let text: string;
  try {
    text = readFileSync(legacy, 'utf8');
  } catch {
    return;
  }
  const now = Date.now();
  transaction(durable, () => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const id = deliveryIdOf(line);
      // A line that is not a whole entry (torn by a crash, corrupt) goes to quarantine, never glued to the next.
      if (id) enqueue(durable, id, line, now);
      else
        prepared(durable, 'INSERT INTO quarantine (id, payload, reason, at) VALUES (NULL, ?, ?, ?)').run(
          line,
          'unreadable line in outbox.jsonl',
          now,
        );
    }
  });
  try {
    renameSync(legacy, `${legacy}.imported`);
  } catch {
    // Another process imported it at the same moment; the rows are keyed by delivery id, so nothing doubled.
  }
}

/** The delivery id of an outbox payload (`{record: {id}}`), or undefined when it is not a whole entry. */
export function deliveryIdOf(payload: string): string | undefined {
  try {
    const v = JSON.parse(payload) as { record?: { id?: unknown } };
    return typeof v?.record?.id === 'string' && v.record.id ? v.record.id : undefined;
  } catch {
    return undefined;
  }
}
