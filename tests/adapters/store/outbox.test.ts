/**
 * The lead outbox of the `Store` port on every engine: oldest first, one entry per delivery id, a leased entry given
 * to no second flusher until its lease ends, a retry at the back (after its backoff), a claim released untried at
 * the front, quarantine, and calls about ids the outbox no longer holds.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { entry, useEngines } from '../../helpers/engines.ts';

const { engines } = useEngines();
const T0 = Date.UTC(2026, 10, 23, 10, 0, 1);
const ids = (items: { id: string }[]) => items.map((i) => i.id);

afterEach(() => {
  vi.useRealTimers();
});

describe.each(engines)('$name store: the outbox', (engine) => {
  it('oldest first, one entry per delivery id, leased entries go to no second flusher', async () => {
    const store = engine.create();
    expect(await store.outboxSize()).toBe(0);
    const pushed = Date.now();
    for (const id of ['a', 'b', 'c', 'a']) await store.outboxPush(id, entry(id));
    expect(await store.outboxSize()).toBe(3);
    const first = await store.outboxClaim(2, 60);
    expect(first.map((i) => [i.id, i.attempts])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(first[0]!.payload).toBe(entry('a'));
    const queuedAt = first[0]!.queuedAt;
    expect(queuedAt).toBeGreaterThanOrEqual(pushed);
    expect(queuedAt).toBeLessThanOrEqual(Date.now());
    // A second flusher gets only what is not leased.
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['c']);
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    await store.outboxAck('b');
    await store.outboxRetry('a', 'CRM down');
    // A retried entry is free again, at the back, with its attempts counted.
    expect(await store.outboxClaim(10, 60)).toEqual([{ id: 'a', payload: entry('a'), attempts: 2, queuedAt }]);
    // A claim given back untried (a flush out of time): free at once, first, its attempts as before the claim.
    await store.outboxRelease('a');
    await store.outboxRelease('gone');
    expect(await store.outboxClaim(10, 60)).toEqual([{ id: 'a', payload: entry('a'), attempts: 2, queuedAt }]);
    await store.outboxQuarantine('c', 'unreadable');
    expect(await store.outboxSize()).toBe(1);
    expect(await store.quarantineSize()).toBe(1);
  });

  it('claims at most max entries, oldest first; a retried entry goes to the back of the queue', async () => {
    const store = engine.create();
    for (const id of ['a', 'b', 'c']) await store.outboxPush(id, `payload ${id}`);
    expect(ids(await store.outboxClaim(1, 60))).toEqual(['a']);
    await store.outboxRetry('a', 'CRM down');
    expect(ids(await store.outboxClaim(2, 60))).toEqual(['b', 'c']);
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['a']);
  });

  it('a claim takes the whole part of max; asked for none (0, negative, a fraction, NaN), none', async () => {
    const store = engine.create();
    for (const id of ['a', 'b', 'c', 'd']) await store.outboxPush(id, `payload ${id}`);
    for (const none of [0, -1, 0.5, Number.NaN]) expect(await store.outboxClaim(none, 60)).toEqual([]);
    expect(ids(await store.outboxClaim(1.9, 60))).toEqual(['a']);
    expect(ids(await store.outboxClaim(2, 60))).toEqual(['b', 'c']);
    expect(ids(await store.outboxClaim(Number.POSITIVE_INFINITY, 60))).toEqual(['d']);
  });

  it('a retry with a backoff is claimed by no flusher before the backoff ends', async () => {
    // Every engine reads the backoff's clock from Date.now() in this process (Upstash passes it to its
    // scripts), so a faked Date moves it to each side of the end, with no real wait and no race with load.
    // It starts at the real time: Upstash checks a write's deadline against Redis's own clock.
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const store = engine.create();
    await store.outboxPush('b1', entry('b1'));
    await store.outboxPush('b2', entry('b2'));
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['b1', 'b2']);
    await store.outboxRetry('b1', 'CRM answered 503', 400);
    await store.outboxRetry('b2', 'CRM answered 503', 0);
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['b2']);
    vi.setSystemTime(t0 + 399);
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    vi.setSystemTime(t0 + 400);
    expect((await store.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([['b1', 2]]);
  });

  it('retry, quarantine and dead-letter of an id the outbox no longer holds change nothing', async () => {
    const store = engine.create();
    await store.outboxPush('kept', 'payload');
    await store.outboxPush('gone', 'payload');
    await store.outboxAck('gone');
    await expect(store.outboxRetry('gone', 'late', 1000)).resolves.toBeUndefined();
    await expect(store.outboxQuarantine('gone', 'late')).resolves.toBeUndefined();
    expect(await store.outboxDeadLetter('gone', { reason: 'late' })).toBe(false);
    expect(await store.outboxSize()).toBe(1);
    expect(await store.quarantineSize()).toBe(0);
    expect(await store.deadLetterSize()).toBe(0);
    expect(ids(await store.outboxClaim(5, 60))).toEqual(['kept']);
  });

  it('300 entries claimed by three concurrent flushers: each delivered exactly once', async () => {
    const store = engine.create();
    await Promise.all(Array.from({ length: 300 }, (_, i) => store.outboxPush(`id${i}`, entry(`id${i}`))));
    const seen: string[] = [];
    const flusher = async () => {
      for (;;) {
        const items = await store.outboxClaim(7, 60);
        if (!items.length) return;
        for (const it of items) {
          seen.push(it.id);
          await store.outboxAck(it.id);
        }
      }
    };
    await Promise.all([flusher(), flusher(), flusher()]);
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
    expect(await store.outboxSize()).toBe(0);
  });
});

describe.each(engines.filter((e) => e.name !== 'upstash'))(
  '$name store: a lease ends at its exact instant',
  (engine) => {
    it('an outbox lease of 30 s keeps the entry from other flushers until it ends, then frees it', async () => {
      const clock = { t: T0 };
      const store = engine.create({ now: () => clock.t });
      await store.outboxPush('a', 'payload');
      expect(ids(await store.outboxClaim(5, 30))).toEqual(['a']);
      clock.t = T0 + 29_999;
      expect(await store.outboxClaim(5, 30)).toEqual([]);
      clock.t = T0 + 30_000;
      expect(await store.outboxClaim(5, 30)).toMatchObject([{ id: 'a', attempts: 2 }]);
    });
  },
);
