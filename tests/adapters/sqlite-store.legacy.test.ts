/**
 * The legacy outbox file (`outbox.jsonl` of earlier versions) imported into the embedded store when it opens:
 * which lines are entries, which are skipped, which go to quarantine and why. Written against the survivors of
 * `npm run mutate` (bench/mutation.md); tests/adapters/store.test.ts holds the import itself.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, readQuarantine } from '../../src/adapters/sqlite-store/index.ts';
import { deliveryIdOf } from '../../src/adapters/sqlite-store/legacy-outbox.ts';

const entry = (id: unknown) => JSON.stringify({ record: { id, receivedAt: '2026-11-23T10:00:00.000Z' } });

/** A store opened on a fresh folder holding `outbox.jsonl` with `text`. */
function importing(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kartage-legacy-'));
  writeFileSync(join(dir, 'outbox.jsonl'), text);
  const file = join(dir, 'kartage.db');
  return { file, store: createSqliteStore({ file }) };
}

describe('the delivery id of an outbox line', () => {
  it("is the record's id when it is a non-empty string, and nothing otherwise", () => {
    expect(deliveryIdOf(entry('a1'))).toBe('a1');
    expect(deliveryIdOf(entry(7))).toBeUndefined();
    expect(deliveryIdOf(entry(''))).toBeUndefined();
    expect(deliveryIdOf(entry(['a1']))).toBeUndefined();
  });
});

describe('importing outbox.jsonl', () => {
  it('blank and whitespace-only lines are skipped, not quarantined', async () => {
    const { file, store } = importing(`${entry('a')}\n\n   \n\t\r\n${entry('b')}\n`);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['a', 'b']);
    expect(readQuarantine(file)).toEqual([]);
  });

  it('a line that is not an entry is quarantined with no id and the reason it was not imported', async () => {
    const { file, store } = importing(`${entry('a')}\n${entry(7)}\n`);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['a']);
    expect(readQuarantine(file)).toEqual([
      { id: null, payload: entry(7), reason: 'unreadable line in outbox.jsonl', at: expect.any(Number) },
    ]);
  });
});
