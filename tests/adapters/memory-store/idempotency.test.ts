/**
 * The in-process store's idempotency records (src/adapters/memory-store/idempotency.ts): `recall` gives what this
 * process holds for a key at once, the pending claim or the finished answer, until its exact last millisecond, and
 * nothing for a key it never held, released or let expire.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/adapters/memory-store/index.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');

describe('recall', () => {
  it('gives the pending claim, then the answer, each until its last millisecond', async () => {
    const clock = { t: T0 };
    const store = createMemoryStore({ now: () => clock.t });
    expect(store.recall!('k')).toBeUndefined();
    await store.claim('k', 'fp', 10);
    clock.t = T0 + 9_999;
    expect(store.recall!('k')).toEqual({ state: 'pending', fingerprint: 'fp' });
    clock.t = T0 + 10_000;
    expect(store.recall!('k')).toBeUndefined();
    const done = { state: 'done', fingerprint: 'fp', status: 201, body: { ok: true } } as const;
    await store.complete('k', done, 60);
    clock.t = T0 + 69_999;
    expect(store.recall!('k')).toEqual(done);
    clock.t = T0 + 70_000;
    expect(store.recall!('k')).toBeUndefined();
  });

  it('gives nothing for a released claim', async () => {
    const store = createMemoryStore();
    await store.claim('k', 'fp', 60);
    await store.release('k');
    expect(store.recall!('k')).toBeUndefined();
  });
});
