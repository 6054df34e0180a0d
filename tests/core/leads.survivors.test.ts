/**
 * The outbox flush of src/core/leads.ts at the edges its other tests left open (bench/mutation.md, the
 * survivors of `flushOutbox` and `flushAll`): an age of exactly two hours spelled in hours, a dead letter
 * carrying only the status and answer the CRM gave, a flush with no notifier, a time limit that covers no
 * delivery (nothing claimed), the reason an unreadable entry is quarantined with, the delivery bound's timer
 * cleared once the delivery answered, no bound without a budget, and no store call once the budget is spent.
 * Real parts: the in-process store on an injected clock, behind a proxy that records every store call.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { flushAll, flushOutbox, RETRY_POLICY } from '../../src/core/leads.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example' };

type Line = { event: string; fields?: Record<string, unknown> };

/** Deps over the in-process store; `calls` records each store call with its arguments, by name. */
function setup() {
  const clock = { t: T0 };
  const lines: Line[] = [];
  const calls: [string, unknown[]][] = [];
  const notified: { record: LeadRecord; undelivered?: unknown }[] = [];
  const real = createMemoryStore({ now: () => clock.t });
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      const fn = Reflect.get(target, prop, receiver);
      if (typeof fn !== 'function') return fn;
      return (...args: unknown[]) => {
        calls.push([String(prop), args]);
        return (fn as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Store;
  const behaviour = {
    deliver: async (_r: LeadRecord): Promise<void> => {},
  };
  const deps = {
    store,
    sink: { name: 'test sink', deliver: (r: LeadRecord) => behaviour.deliver(r) },
    notifier: {
      name: 'test notifier',
      notify: async (record: LeadRecord, undelivered?: unknown) => void notified.push({ record, undelivered }),
    },
    log: (event: string, fields?: Record<string, unknown>) => void lines.push({ event, fields }),
    now: () => clock.t,
  };
  const named = (op: string) => calls.filter(([name]) => name === op).map(([, args]) => args);
  return { clock, lines, calls, named, notified, real, behaviour, deps };
}

async function queue(store: Store, n: number) {
  for (let i = 0; i < n; i++) {
    const record = { id: `q${i}`, receivedAt: new Date(T0).toISOString(), lead };
    await store.outboxPush(record.id, JSON.stringify({ record }));
  }
}

const answered = (status: number, body?: string) =>
  Object.assign(new Error(`CRM answered ${status}`), { status, ...(body !== undefined ? { body } : {}) });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a dead letter’s reason: the age spelled for a person', () => {
  it('is in hours from exactly two hours, in minutes just under', async () => {
    for (const [age, spelled] of [
      [2 * HOUR, '2 h'],
      [2 * HOUR - MIN, '119 min'],
    ] as const) {
      const { deps, real, behaviour, clock } = setup();
      await queue(real, 1);
      behaviour.deliver = async () => {
        throw answered(500);
      };
      clock.t += age;
      expect(await flushOutbox(deps, 20, undefined, { ...RETRY_POLICY, maxAgeMs: age })).toMatchObject({
        deadLettered: 1,
      });
      expect((await real.deadLetters())[0]!.reason).toBe(
        `still failing after 1 attempt(s) in ${spelled} (last: HTTP 500)`,
      );
    }
  });
});

describe('a dead letter carries only what the CRM gave', () => {
  it('no status and no answer when the CRM never answered', async () => {
    const { deps, real, behaviour, notified } = setup();
    await queue(real, 1);
    behaviour.deliver = async () => {
      throw new Error('socket hang up');
    };
    await flushOutbox(deps, 20, undefined, { ...RETRY_POLICY, maxAttempts: 1 });
    const why = notified[0]!.undelivered as Record<string, unknown>;
    expect(Object.keys(why).sort()).toEqual(['attempts', 'reason']);
    expect(why).toEqual({ reason: 'still failing after 1 attempt(s) in 0 min (last: socket hang up)', attempts: 1 });
    expect(Object.keys((await real.deadLetters())[0]!)).not.toContain('status');
  });

  it('the status and no answer when the CRM answered with no body', async () => {
    const { deps, real, behaviour, notified } = setup();
    await queue(real, 1);
    behaviour.deliver = async () => {
      throw answered(401);
    };
    await flushOutbox(deps);
    const why = notified[0]!.undelivered as Record<string, unknown>;
    expect(Object.keys(why).sort()).toEqual(['attempts', 'reason', 'status']);
    expect(why).toEqual({ reason: 'the CRM refused it for good (HTTP 401)', status: 401, attempts: 1 });
    expect(Object.keys((await real.deadLetters())[0]!)).not.toContain('answer');
  });
});

describe('a flush without a notifier', () => {
  it('still dead-letters a refused lead and logs it as the only alert', async () => {
    const { deps, real, behaviour, lines } = setup();
    const { notifier: _, ...withoutNotifier } = deps;
    await queue(real, 1);
    behaviour.deliver = async () => {
      throw answered(400, 'no such form');
    };
    expect(await flushOutbox(withoutNotifier)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 1,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(lines.map((l) => l.event)).toEqual(['lead_dead_lettered']);
    expect(await real.deadLetterSize()).toBe(1);
  });
});

describe('a flush whose time covers no delivery', () => {
  it('claims nothing, hands nothing back and logs nothing, with just under one bound left or none', async () => {
    // The alerts due are still asked for once (one store call): a CRM that uses up every run's time must not keep
    // sales from hearing of the dead letters.
    for (const deadline of [T0 + 4999, T0 - 1]) {
      const { deps, real, calls, lines } = setup();
      await queue(real, 2);
      calls.length = 0;
      const time = { now: () => T0, deadline, boundMs: 5000 };
      expect(await flushOutbox(deps, 20, time)).toEqual({
        delivered: 0,
        failed: 0,
        deadLettered: 0,
        quarantined: 0,
        remaining: 2,
        announced: 0,
        alertsFailed: 0,
      });
      expect(calls.map(([name]) => name)).toEqual(['outboxSize', 'deadLetterAlertClaim']);
      expect(lines).toEqual([]);
      expect((await real.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([
        ['q0', 1],
        ['q1', 1],
      ]);
    }
  });

  it('a batch of none, with no time limit, claims nothing and returns the counts', async () => {
    const { deps, real, calls } = setup();
    await queue(real, 1);
    calls.length = 0;
    expect(await flushOutbox(deps, 0)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 1,
      announced: 0,
      alertsFailed: 0,
    });
    expect(calls.map(([name]) => name)).toEqual(['outboxSize', 'deadLetterAlertClaim']);
  });
});

describe('an unreadable entry', () => {
  it('is quarantined with the reason "unreadable outbox entry"', async () => {
    const { deps, real, named } = setup();
    await real.outboxPush('torn', '{"record":');
    await flushOutbox(deps);
    expect(named('outboxQuarantine')).toEqual([['torn', 'unreadable outbox entry']]);
  });
});

describe('the delivery bound of a flush with a time limit', () => {
  it('leaves no timer behind once the delivery and the notification answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { deps, real, behaviour } = setup();
    await queue(real, 2);
    behaviour.deliver = async (r) => {
      if (r.id === 'q1') throw answered(400);
    };
    const time = { now: () => T0, deadline: T0 + 60_000, boundMs: 5000 };
    expect(await flushOutbox(deps, 20, time)).toMatchObject({ delivered: 1, deadLettered: 1 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms no timer when it has nothing to deliver and no dead letter to notify', async () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const { deps, clock } = setup();
    const bound = 4321;
    const time = { now: () => clock.t, deadline: T0 + 60_000, boundMs: bound };
    expect(await flushOutbox(deps, 20, time)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(await flushAll(deps, 60_000, bound)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(setTimer.mock.calls.filter(([, ms]) => ms === bound)).toEqual([]);
  });
});

describe('flushing everything without a budget', () => {
  it('waits for a delivery as long as the sink takes: no bound cuts it off', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { deps, real, behaviour } = setup();
    await queue(real, 1);
    behaviour.deliver = () => new Promise<void>((resolve) => setTimeout(resolve, 60_000));
    const done = flushAll(deps);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await done).toEqual({
      delivered: 1,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
  });
});

describe('flushing everything with a budget', () => {
  it('once the time left cannot cover one more delivery, it asks the store only for the alerts due', async () => {
    const { deps, real, behaviour, clock, calls } = setup();
    await queue(real, 3);
    calls.length = 0;
    behaviour.deliver = async () => {
      clock.t += 1000;
    };
    // 5 s with a 5 s bound: one delivery of 1 s, then 4 s left: less than one bound.
    expect(await flushAll(deps, 5000, 5000)).toEqual({
      delivered: 1,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 2,
      announced: 0,
      alertsFailed: 0,
    });
    expect(calls.map(([name]) => name)).toEqual(['outboxClaim', 'outboxAck', 'outboxSize', 'deadLetterAlertClaim']);
  });
});
