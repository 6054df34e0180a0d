/** What the embedded store's tests share: its stderr lines, and a write lock held from another connection. */
import { DatabaseSync } from 'node:sqlite';
import { vi } from 'vitest';

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
