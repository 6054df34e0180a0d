/**
 * The idempotency records of the `Store` port on every engine: the first claim wins, later ones see the pending
 * claim and then the finished answer, a pending claim is released and a finished answer never is; and, on the
 * engines whose clock a test can set, a claim holds until its exact last millisecond.
 */
import { describe, expect, it } from 'vitest';
import { useEngines } from '../../helpers/engines.ts';

const { engines } = useEngines();
const T0 = Date.UTC(2026, 10, 23, 10, 0, 1);

describe.each(engines)('$name store: idempotency keys', (engine) => {
  it('the first claim wins, later claims see pending then the finished answer', async () => {
    const store = engine.create();
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toBeUndefined();
    expect(await store.claim('idem:c1:k1', 'fp2', 60)).toEqual({ state: 'pending', fingerprint: 'fp1' });
    await store.complete('idem:c1:k1', { state: 'done', fingerprint: 'fp1', status: 200, body: { ok: true } }, 86_400);
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toEqual({
      state: 'done',
      fingerprint: 'fp1',
      status: 200,
      body: { ok: true },
    });
    await store.release('idem:c1:k1'); // a finished answer is never released
    expect(await store.claim('idem:c1:k1', 'fp1', 60)).toMatchObject({ state: 'done' });
    expect(await store.claim('idem:c1:k2', 'fp1', 60)).toBeUndefined();
    await store.release('idem:c1:k2');
    expect(await store.claim('idem:c1:k2', 'fp3', 60)).toBeUndefined();
  });

  it('50 concurrent claims of one key give exactly one winner', async () => {
    const store = engine.create();
    const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim('idem:c9:race', `fp${i}`, 60)));
    expect(claims.filter((c) => c === undefined)).toHaveLength(1);
  });

  it('releasing a key never claimed does nothing and does not fail', async () => {
    const store = engine.create();
    await expect(store.release('never-claimed')).resolves.toBeUndefined();
    expect(await store.claim('never-claimed', 'f', 60)).toBeUndefined();
  });
});

describe.each(engines.filter((e) => e.name !== 'upstash'))(
  '$name store: a claim ends at its exact instant',
  (engine) => {
    it('an idempotency claim of 10 s holds until its last millisecond and is free at 10 s', async () => {
      const clock = { t: T0 };
      const store = engine.create({ now: () => clock.t });
      expect(await store.claim('k', 'f1', 10)).toBeUndefined();
      clock.t = T0 + 9_999;
      expect(await store.claim('k', 'f2', 10)).toEqual({ state: 'pending', fingerprint: 'f1' });
      clock.t = T0 + 10_000;
      expect(await store.claim('k', 'f2', 10)).toBeUndefined();
    });
  },
);
