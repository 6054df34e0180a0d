/**
 * What the embedded store's tests share: a read budget, a fixed clock, lead records and outbox entries, its stderr
 * lines, and a write lock held from another connection.
 */
import { DatabaseSync } from 'node:sqlite';
import { vi } from 'vitest';
import type { LeadRecord, LimitPolicy } from '../../src/core/ports.ts';

export const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
/** The tests' now: 2026-11-23 10:00 UTC. */
export const T = Date.UTC(2026, 10, 23, 10, 0, 0);
/** A lead record with the fields the store reads. */
export const record = (id: string) =>
  ({ id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@x.au' } }) as unknown as LeadRecord;
/** An outbox entry as the sink writes it. */
export const entry = (id: string) => JSON.stringify({ record: record(id) });

/** The store's error lines (it writes them to stderr, apart from the request log). */
export function stderrLines() {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
  return lines;
}

/** Holds the file's write lock from another connection (another process would do the same). */
export function lockHolder(file: string) {
  const other = new DatabaseSync(file);
  other.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      other.exec('COMMIT');
      other.close();
    },
  };
}
