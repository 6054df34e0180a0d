/**
 * The embedded store's dead letters (src/adapters/sqlite-store/dead-letters.ts) beyond the `Store` port's suite: a
 * lead moved to the dead letters, or re-queued, is in the main file once the move returns; a move that finds
 * nothing copies nothing; a reason is kept to its first 1,000 characters.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { dbFile, entry, inMainFile, T } from '../../helpers/sqlite-test.ts';

describe('leads copied into the main file at once', () => {
  it('a lead moved to the dead letters is in the main file once the move returns', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    expect(await store.outboxDeadLetter('x', { reason: 'refused' })).toBe(true);
    expect([inMainFile(file, 'dead_letter'), inMainFile(file, 'outbox')]).toEqual([1, 0]);
  });

  it('a dead letter requeued is back in the main outbox once the requeue returns', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.outboxDeadLetter('x', { reason: 'refused' });
    expect(await store.deadLetterRequeue('x')).toBe(true);
    expect([inMainFile(file, 'dead_letter'), inMainFile(file, 'outbox')]).toEqual([0, 1]);
  });

  it('a dead-letter move or requeue that finds nothing copies nothing into the main file', async () => {
    const file = dbFile();
    const store = createSqliteStore({ file });
    await store.outboxPush('x', entry('x'));
    await store.countQuestion('k', 'q', T); // a change only in the WAL: a copy would take it along
    expect(await store.outboxDeadLetter('missing', { reason: 'refused' })).toBe(false);
    expect(await store.deadLetterRequeue('missing')).toBe(false);
    expect(inMainFile(file, 'unanswered')).toBe(0);
  });
});

describe('a reason', () => {
  it('is kept to its first 1,000 characters', async () => {
    const store = createSqliteStore({ file: dbFile() });
    await store.outboxPush('x', entry('x'));
    await store.outboxDeadLetter('x', { reason: `${'r'.repeat(1000)}-cut` });
    expect((await store.deadLetters()).map((d) => d.reason)).toEqual(['r'.repeat(1000)]);
  });
});
