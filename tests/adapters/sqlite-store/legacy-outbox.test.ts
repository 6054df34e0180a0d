/**
 * The outbox file of earlier versions (`outbox.jsonl`, src/adapters/sqlite-store/legacy-outbox.ts), imported once
 * when the embedded store opens: which lines are entries, which are skipped, which go to quarantine and why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, readQuarantine } from '../../../src/adapters/sqlite-store/index.ts';
import { deliveryIdOf } from '../../../src/adapters/sqlite-store/legacy-outbox.ts';
import type { Store } from '../../../src/core/ports.ts';
import { entry } from '../../helpers/sqlite-test.ts';

/** An entry whose record's id is `id`, whatever it is. */
const entryOf = (id: unknown) => JSON.stringify({ record: { id, receivedAt: '2026-11-23T10:00:00.000Z' } });

/** A store opened on a fresh folder holding `outbox.jsonl` with `text`. */
function importing(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kartage-legacy-'));
  writeFileSync(join(dir, 'outbox.jsonl'), text);
  const file = join(dir, 'kartage.db');
  return { file, legacy: join(dir, 'outbox.jsonl'), store: createSqliteStore({ file }) };
}

/** The ids `store` hands a flusher, acknowledged. */
async function drain(store: Store) {
  const ids: string[] = [];
  for (const item of await store.outboxClaim(100, 60)) {
    ids.push(item.id);
    await store.outboxAck(item.id);
  }
  return ids;
}

describe('the delivery id of an outbox line', () => {
  it("is the record's id when it is a non-empty string, and nothing otherwise", () => {
    expect(deliveryIdOf(entryOf('a1'))).toBe('a1');
    expect(deliveryIdOf(entryOf(7))).toBeUndefined();
    expect(deliveryIdOf(entryOf(''))).toBeUndefined();
    expect(deliveryIdOf(entryOf(['a1']))).toBeUndefined();
  });
});

describe('importing outbox.jsonl', () => {
  it('once, before what is pushed since; a torn last line goes to quarantine, not glued to the next', async () => {
    const { file, legacy, store } = importing(`${entry('old1')}\n${entry('old2')}\n{"record":{"id":"torn","rece`);
    await store.outboxPush('new1', entry('new1'));
    expect(await drain(store)).toEqual(['old1', 'old2', 'new1']);
    expect(readQuarantine(file).map((q) => q.payload)).toEqual(['{"record":{"id":"torn","rece']);
    await expect(readFile(`${legacy}.imported`, 'utf8')).resolves.toContain('old1');
  });

  it('blank and whitespace-only lines are skipped, not quarantined', async () => {
    const { file, store } = importing(`${entryOf('a')}\n\n   \n\t\r\n${entryOf('b')}\n`);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['a', 'b']);
    expect(readQuarantine(file)).toEqual([]);
  });

  it('a line that is not an entry is quarantined with no id and the reason it was not imported', async () => {
    const { file, store } = importing(`${entryOf('a')}\n${entryOf(7)}\n`);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['a']);
    expect(readQuarantine(file)).toEqual([
      { id: null, payload: entryOf(7), reason: 'unreadable line in outbox.jsonl', at: expect.any(Number) },
    ]);
  });
});
