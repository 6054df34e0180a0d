/**
 * The dead letters of the `Store` port on every engine: a lead moved out of the outbox in one step with the CRM's
 * answer (its first 500 characters), listed oldest first, re-queued exactly once; and the alert that tells sales of
 * it: claimed under a lease, retried after its backoff, never again once announced.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/ports.ts';
import { entry, useEngines } from '../../helpers/engines.ts';

const { engines } = useEngines();
const ids = (items: { id: string }[]) => items.map((i) => i.id);

/** Moves `keys` through the outbox into the dead letters of `store`. */
async function deadLetter(store: Store, keys: string[]) {
  for (const id of keys) await store.outboxPush(id, entry(id));
  await store.outboxClaim(keys.length, 60);
  for (const id of keys) expect(await store.outboxDeadLetter(id, { reason: 'refused', status: 400 })).toBe(true);
}

describe.each(engines)('$name store: dead letters', (engine) => {
  it("out of the outbox in one step with the CRM's answer, listed oldest first", async () => {
    const store = engine.create();
    const pushed = Date.now();
    for (const id of ['d1', 'd2', 'd3']) await store.outboxPush(id, entry(id));
    await store.outboxClaim(10, 60);
    await store.outboxRetry('d1', 'CRM answered 503');
    await store.outboxClaim(10, 60);
    const refused = { reason: 'the CRM refused it for good (HTTP 400)', status: 400, answer: '{"status":"error"}' };
    expect(await store.outboxDeadLetter('d2', refused)).toBe(true);
    expect(await store.outboxDeadLetter('d1', { reason: 'still failing after 2 attempt(s)' })).toBe(true);
    // Already moved, or never queued: nothing changes.
    expect(await store.outboxDeadLetter('d2', refused)).toBe(false);
    expect(await store.outboxDeadLetter('nope', refused)).toBe(false);
    expect(await store.outboxSize()).toBe(1);
    expect(await store.deadLetterSize()).toBe(2);
    const letters = await store.deadLetters();
    expect(letters).toEqual([
      {
        id: 'd2',
        payload: entry('d2'),
        attempts: 1,
        ...refused,
        queuedAt: expect.any(Number),
        at: expect.any(Number),
        announced: false,
        alerts: 0,
      },
      {
        id: 'd1',
        payload: entry('d1'),
        attempts: 2,
        reason: 'still failing after 2 attempt(s)',
        queuedAt: expect.any(Number),
        at: expect.any(Number),
        announced: false,
        alerts: 0,
      },
    ]);
    for (const l of letters) {
      expect(l.queuedAt).toBeGreaterThanOrEqual(pushed);
      expect(l.at).toBeGreaterThanOrEqual(l.queuedAt);
      expect(l.at).toBeLessThanOrEqual(Date.now());
    }
  });

  it('an id dead-lettered a second time is listed once, as the newest dead letter', async () => {
    const store = engine.create();
    for (const id of ['a', 'b']) {
      await store.outboxPush(id, `payload ${id}`);
      await store.outboxClaim(5, 60);
      expect(await store.outboxDeadLetter(id, { reason: 'refused', status: 400 })).toBe(true);
    }
    await store.outboxPush('a', 'payload a, again');
    await store.outboxClaim(5, 60);
    await store.outboxClaim(5, 0);
    expect(await store.outboxDeadLetter('a', { reason: 'refused again', status: 422 })).toBe(true);
    const letters = await store.deadLetters();
    expect(letters.map((l) => [l.id, l.reason])).toEqual([
      ['b', 'refused'],
      ['a', 'refused again'],
    ]);
  });

  it('re-queued exactly once (10 at once), at the back, free at once, attempts from zero', async () => {
    const store = engine.create();
    for (const id of ['r1', 'r2']) await store.outboxPush(id, entry(id));
    const [r1] = await store.outboxClaim(1, 60);
    expect(await store.outboxDeadLetter(r1!.id, { reason: 'refused', status: 400 })).toBe(true);
    const before = Date.now();
    const moved = await Promise.all(Array.from({ length: 10 }, () => store.deadLetterRequeue('r1')));
    expect(moved.filter(Boolean)).toHaveLength(1);
    expect(await store.deadLetterRequeue('r1')).toBe(false);
    expect(await store.deadLetterRequeue('never')).toBe(false);
    expect(await store.deadLetterSize()).toBe(0);
    expect(await store.deadLetters()).toEqual([]);
    const again = await store.outboxClaim(10, 60);
    expect(again.map((i) => [i.id, i.attempts, i.payload])).toEqual([
      ['r2', 1, entry('r2')],
      ['r1', 1, entry('r1')],
    ]);
    expect(again[1]!.queuedAt).toBeGreaterThanOrEqual(before);
    for (const i of again) await store.outboxAck(i.id);
    expect(await store.outboxSize()).toBe(0);
  });

  it('re-queueing a dead letter whose id is queued again leaves the queued entry and its lease alone', async () => {
    const store = engine.create();
    await store.outboxPush('a', 'payload a');
    await store.outboxClaim(5, 60);
    await store.outboxDeadLetter('a', { reason: 'refused', status: 400 });
    await store.outboxPush('a', 'payload a');
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['a']);
    await store.deadLetterRequeue('a');
    expect(await store.outboxSize()).toBe(1);
    expect(await store.deadLetterSize()).toBe(0);
    expect(await store.outboxClaim(5, 60)).toEqual([]);
  });

  it('the alert is claimed once at a time, retried after its backoff, and never again once announced', async () => {
    const store = engine.create();
    await deadLetter(store, ['a1', 'a2', 'a3']);
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['a1', false, 0],
      ['a2', false, 0],
      ['a3', false, 0],
    ]);
    // Two flushers at once: each alert goes to one of them, oldest first.
    const [x, y] = await Promise.all([store.deadLetterAlertClaim(2, 60), store.deadLetterAlertClaim(2, 60)]);
    expect([...x!, ...y!].map((l) => l.id).sort()).toEqual(['a1', 'a2', 'a3']);
    expect([...x!, ...y!].every((l) => l.alerts === 1 && !l.announced)).toBe(true);
    expect(await store.deadLetterAlertClaim(10, 60)).toEqual([]); // leased
    // a1 landed; a2 failed with no wait, a3 with a long one.
    await store.deadLetterAnnounced('a1');
    await store.deadLetterAlertRetry('a2', 0);
    await store.deadLetterAlertRetry('a3', 3_600_000);
    const again = await store.deadLetterAlertClaim(10, 60);
    expect(again.map((l) => [l.id, l.alerts])).toEqual([['a2', 2]]);
    expect(again[0]).toMatchObject({ payload: entry('a2'), status: 400, reason: 'refused', attempts: 1 });
    await store.deadLetterAnnounced('a2');
    await store.deadLetterAlertRetry('a2', 0); // a late failure report changes nothing once announced
    expect(await store.deadLetterAlertClaim(10, 60)).toEqual([]);
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['a1', true, 1],
      ['a2', true, 2],
      ['a3', false, 1],
    ]);
    // Re-queued: no alert pending for it; dead-lettered again: a new letter, its alert due at once.
    expect(await store.deadLetterRequeue('a3')).toBe(true);
    const [back] = await store.outboxClaim(1, 60);
    expect(back!.id).toBe('a3');
    expect(await store.outboxDeadLetter('a3', { reason: 'refused again', status: 400 })).toBe(true);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => [l.id, l.alerts, l.reason])).toEqual([
      ['a3', 1, 'refused again'],
    ]);
  });

  it('a claim takes at most as many alerts as asked (its whole part), oldest first; asked for none, none', async () => {
    const store = engine.create();
    await deadLetter(store, ['m1', 'm2', 'm3', 'm4']);
    for (const none of [0, -1, 0.5, Number.NaN]) expect(await store.deadLetterAlertClaim(none, 60)).toEqual([]);
    expect(ids(await store.deadLetterAlertClaim(1.9, 60))).toEqual(['m1']);
    expect(ids(await store.deadLetterAlertClaim(2, 60))).toEqual(['m2', 'm3']);
    expect(ids(await store.deadLetterAlertClaim(Number.POSITIVE_INFINITY, 60))).toEqual(['m4']);
  });

  it('an alert landing or failing for a letter not there (never, or re-queued) changes nothing', async () => {
    const store = engine.create();
    await deadLetter(store, ['g1', 'g2']);
    await store.deadLetterAlertClaim(10, 60);
    expect(await store.deadLetterRequeue('g1')).toBe(true);
    for (const id of ['g1', 'never']) {
      await expect(store.deadLetterAnnounced(id)).resolves.toBeUndefined();
      await expect(store.deadLetterAlertRetry(id, 0)).resolves.toBeUndefined();
    }
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([['g2', false, 1]]);
    expect(await store.deadLetterAlertClaim(10, 60)).toEqual([]);
  });
});

// The in-process store keeps the answer whole: the lead path cuts it to 500 characters before any store sees it.
describe.each(engines.filter((e) => e.name !== 'in-process'))('$name store: a dead letter', (engine) => {
  it("keeps the first 500 characters of the CRM's answer", async () => {
    const store = engine.create();
    await store.outboxPush('long', entry('long'));
    await store.outboxClaim(1, 60);
    const answer = `${'a'.repeat(500)}${'b'.repeat(100)}`;
    expect(await store.outboxDeadLetter('long', { reason: 'refused', status: 400, answer })).toBe(true);
    expect((await store.deadLetters())[0]).toMatchObject({ id: 'long', status: 400, answer: 'a'.repeat(500) });
  });
});
