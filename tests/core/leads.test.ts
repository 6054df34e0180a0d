/**
 * The lead path of src/core/leads.ts in process, one promise at a time: what a submission comes to (each
 * outcome, where the lead went, what was spent and given back, what was logged), and what a flush of the
 * outbox does with each entry (delivered, retried after its backoff, dead-lettered with a notification,
 * quarantined, handed back when out of time). tests/server holds the same promises over a socket; these run
 * in `npm run mutate` and were written against the mutants it found (bench/mutation.md). Real parts: the
 * in-process store on an injected clock; the sink and notifier record what they were given.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import {
  checkIdempotencyKey,
  classifyFailure,
  flushAll,
  flushOutbox,
  RETRY_POLICY,
  recordOf,
  serialised,
  submitLead,
} from '../../src/core/leads.ts';
import { validateLead } from '../../src/core/lead-validation.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' };

type Line = { event: string; fields?: Record<string, unknown> };

/** Deps over a real in-process store; `sink` and `notifier` behaviour can be swapped per test. */
function setup() {
  const clock = { t: T0 };
  const lines: Line[] = [];
  const delivered: LeadRecord[] = [];
  const notified: { record: LeadRecord; undelivered?: unknown }[] = [];
  const store = createMemoryStore({ now: () => clock.t });
  const behaviour = {
    deliver: async (r: LeadRecord): Promise<void> => void delivered.push(r),
    notify: async (record: LeadRecord, undelivered?: unknown): Promise<void> =>
      void notified.push(undelivered ? { record, undelivered } : { record }),
  };
  const deps = {
    store: store as Store,
    sink: { name: 'test sink', deliver: (r: LeadRecord) => behaviour.deliver(r) },
    notifier: { name: 'test notifier', notify: (r: LeadRecord, u?: unknown) => behaviour.notify(r, u) },
    log: (event: string, fields?: Record<string, unknown>) => void lines.push({ event, fields }),
    now: () => clock.t,
  };
  const events = () => lines.map((l) => l.event);
  const line = (event: string) => lines.find((l) => l.event === event)?.fields;
  return { clock, lines, events, line, delivered, notified, store, behaviour, deps };
}

/** `store` with the named operations failing. */
const failing = (store: Store, ops: (keyof Store)[], message = 'store down'): Store =>
  new Proxy(store, {
    get(target, prop, receiver) {
      if ((ops as (string | symbol)[]).includes(prop)) return () => Promise.reject(new Error(message));
      return Reflect.get(target, prop, receiver);
    },
  });

const submit = (deps: ReturnType<typeof setup>['deps'], key: string | null, body: unknown = lead, source?: string) =>
  submitLead({ body, client: '203.0.113.7', idempotencyKey: key, ...(source ? { source } : {}) }, deps);

/** An error as a sink throws it when the CRM answered. */
const answered = (status: number, body?: string) =>
  Object.assign(new Error(`CRM answered ${status}`), { status, body });

describe('submitting a lead: refusals before anything is spent', () => {
  it('an empty or over-long Idempotency-Key is invalid, with how long it was; 200 characters is fine', async () => {
    const { deps, delivered } = setup();
    expect(await submit(deps, '  ')).toEqual({
      kind: 'key-invalid',
      message: 'Idempotency-Key is empty: send 1 to 200 characters, unique per submission (a UUID is ideal)',
    });
    expect(await submit(deps, 'é'.repeat(201))).toEqual({
      kind: 'key-invalid',
      message: 'Idempotency-Key is 201 characters; at most 200 are allowed',
    });
    expect(checkIdempotencyKey('é'.repeat(200))).toBeUndefined();
    expect(checkIdempotencyKey(null)).toBeUndefined();
    expect(delivered).toEqual([]);
  });

  it('a body that is not an object is rejected with no field named', async () => {
    const { deps } = setup();
    const notAnObject = {
      kind: 'rejected',
      problems: [],
      message: 'The body must be a JSON object with the lead fields (name and email at least)',
    };
    for (const body of [null, [lead], 'name=Sam', 0]) expect(await submit(deps, null, body)).toEqual(notAnObject);
  });

  it('a lead without a valid email is rejected with the problem and its message, nothing spent', async () => {
    const { deps, store, delivered } = setup();
    const r = await submit(deps, 'k', { name: 'Sam' });
    expect(r.kind).toBe('rejected');
    if (r.kind !== 'rejected') return;
    expect(r.problems.map((p) => p.field)).toEqual(['email']);
    expect(r.message).toMatch(/email/i);
    expect(delivered).toEqual([]);
    expect(
      (await store.hit({ name: 'lead', limit: 5, windowSeconds: 3600, algorithm: 'sliding-log' }, '203.0.113.7', T0))
        .remaining,
    ).toBe(4);
  });
});

describe('submitting a lead: accepted', () => {
  it('delivers the record (id, time, lead, page) and logs where it went; the notification comes after', async () => {
    const { deps, delivered, notified, line } = setup();
    const r = await submit(deps, null, { ...lead, intent: 'demo' }, 'https://kartage.com.au/demo');
    expect(r.kind).toBe('accepted');
    if (r.kind !== 'accepted') return;
    expect(r.limit).toMatchObject({ limit: 5, remaining: 4 });
    expect(r.limit.policy.name).toBe('lead');
    expect(delivered).toHaveLength(1);
    const [record] = delivered;
    expect(record!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(record).toEqual({
      id: record!.id,
      receivedAt: '2026-03-02T01:00:00.000Z',
      lead: validateLead({ ...lead, intent: 'demo' }).lead,
      source: 'https://kartage.com.au/demo',
    });
    expect(line('lead_recorded')).toEqual({ level: 'info', id: record!.id, where: 'sink', intent: 'demo' });
    await r.after;
    expect(notified).toEqual([{ record }]);
    await submit(deps, null);
    expect(delivered[1]).not.toHaveProperty('source');
    expect(delivered[1]!.id).not.toBe(record!.id);
  });

  it('a sink that fails: the lead goes to the outbox, whole, logged as an error then a warning', async () => {
    const { deps, store, behaviour, line } = setup();
    behaviour.deliver = async () => {
      throw new Error('CRM unreachable');
    };
    const r = await submit(deps, null);
    expect(r.kind).toBe('accepted');
    const [item] = await store.outboxClaim(10, 60);
    const record = JSON.parse(item!.payload).record as LeadRecord;
    expect(JSON.parse(item!.payload)).toEqual({
      record: { id: item!.id, receivedAt: '2026-03-02T01:00:00.000Z', lead: validateLead(lead).lead },
    });
    expect(line('lead_sink_failed')).toEqual({
      level: 'error',
      id: record.id,
      sink: 'test sink',
      error: 'CRM unreachable',
    });
    expect(line('lead_queued')).toEqual({ level: 'warn', id: record.id });
    expect(line('lead_recorded')).toMatchObject({ where: 'outbox' });
  });

  it('a failing notifier is logged with the lead and the notifier, the lead stays accepted', async () => {
    const { deps, behaviour, delivered, line } = setup();
    behaviour.notify = async () => {
      throw new Error('Slack down');
    };
    const r = await submit(deps, null);
    expect(r.kind).toBe('accepted');
    if (r.kind === 'accepted') await r.after;
    expect(line('lead_notify_failed')).toEqual({
      level: 'warn',
      id: delivered[0]!.id,
      notifier: 'test notifier',
      error: 'Slack down',
    });
  });
});

describe('submitting a lead: nowhere to record it, or past the budget', () => {
  it('no sink and no outbox: unrecorded, logged, and the unit and the key given back', async () => {
    const { deps, store, behaviour, line } = setup();
    behaviour.deliver = async () => {
      throw new Error('CRM unreachable');
    };
    const broken = { ...deps, store: failing(store, ['outboxPush'], 'disk full') };
    expect(await submit(broken, 'k1')).toEqual({ kind: 'unrecorded' });
    expect(line('lead_outbox_failed')).toMatchObject({ level: 'error', error: 'disk full' });
    behaviour.deliver = async () => {};
    // The same request again once things recover: accepted, with the whole budget but the one unit.
    const again = await submit(deps, 'k1');
    expect(again).toMatchObject({ kind: 'accepted', limit: { remaining: 4 } });
  });

  it('the last unit given back by a 502 is free at once: the same request then succeeds', async () => {
    const { deps, store, behaviour } = setup();
    let down = false;
    const flaky = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'outboxPush' && down) return () => Promise.reject(new Error('disk full'));
        return Reflect.get(target, prop, receiver);
      },
    });
    const same = { ...deps, store: flaky };
    for (let i = 0; i < 4; i++) expect((await submit(same, `k${i}`)).kind).toBe('accepted');
    down = true;
    behaviour.deliver = async () => {
      throw new Error('CRM unreachable');
    };
    expect(await submit(same, 'k4')).toEqual({ kind: 'unrecorded' });
    down = false;
    behaviour.deliver = async () => {};
    expect(await submit(same, 'k4')).toMatchObject({ kind: 'accepted', limit: { remaining: 0 } });
    expect((await submit(same, 'k5')).kind).toBe('limited');
  });

  it('past the budget: limited with the refusal, nothing delivered, the key given back', async () => {
    const { deps, delivered, clock } = setup();
    for (let i = 0; i < 5; i++) expect((await submit(deps, `k${i}`)).kind).toBe('accepted');
    const r = await submit(deps, 'k-late');
    expect(r.kind).toBe('limited');
    if (r.kind !== 'limited') return;
    expect(r.limit).toEqual({
      policy: expect.objectContaining({ name: 'lead' }),
      limit: 5,
      remaining: 0,
      reset: 3600,
      retryAfter: 3600,
      error: 'Rate limit exceeded: this address may make 5 lead submissions per hour. Retry after 3600 seconds.',
    });
    expect(delivered).toHaveLength(5);
    clock.t += HOUR + 1000;
    expect((await submit(deps, 'k-late')).kind).toBe('accepted');
  });
});

describe('submitting a lead: the Idempotency-Key', () => {
  it('the same key and body replay the first answer, in any key order; another body is a reused key', async () => {
    const { deps, delivered } = setup();
    const first = await submit(deps, 'key-1');
    expect(first.kind).toBe('accepted');
    const reordered = { company: lead.company, email: lead.email, name: lead.name };
    const replay = await submit(deps, 'key-1', reordered);
    expect(replay).toEqual({
      kind: 'replayed',
      first: { body: { ok: true }, limit: first.kind === 'accepted' ? first.limit : undefined },
    });
    expect(await submit(deps, 'key-1', { ...lead, name: 'Other' })).toEqual({ kind: 'key-reused' });
    expect(delivered).toHaveLength(1);
  });

  it('without a key every submission is a new lead', async () => {
    const { deps, delivered } = setup();
    await submit(deps, null);
    await submit(deps, null);
    expect(delivered).toHaveLength(2);
  });

  it('a store that cannot claim, complete or release: the lead is still taken, each failure logged', async () => {
    const { deps, store, delivered, lines } = setup();
    const broken = { ...deps, store: failing(store, ['claim', 'complete', 'release', 'refund']) };
    expect((await submit(broken, 'k')).kind).toBe('accepted');
    expect(delivered).toHaveLength(1);
    expect(lines.filter((l) => l.event === 'idempotency_store_failed').map((l) => l.fields)).toEqual([
      { level: 'warn', error: 'store down' },
    ]);
    const claimOnly = { ...deps, store: failing(store, ['complete']) };
    expect((await submit(claimOnly, 'k2')).kind).toBe('accepted');
    expect(lines.filter((l) => l.event === 'idempotency_store_failed')).toHaveLength(2);
  });

  it('an unrecorded lead whose key and unit cannot be given back logs both failures', async () => {
    const { deps, store, behaviour, events } = setup();
    behaviour.deliver = async () => {
      throw new Error('CRM unreachable');
    };
    const broken = { ...deps, store: failing(store, ['outboxPush', 'release', 'refund']) };
    expect(await submit(broken, 'k')).toEqual({ kind: 'unrecorded' });
    expect(events()).toContain('idempotency_store_failed');
    expect(events()).toContain('rate_limit_refund_failed');
  });
});

describe('a delivery failure, classified', () => {
  it('no status, a 5xx, 408 and 429 are transient; any other 4xx is a refusal; the answer kept to 500', () => {
    expect(classifyFailure(new Error('timeout'))).toEqual({ transient: true, message: 'timeout' });
    expect(classifyFailure(Object.assign(new Error('x'), { status: '500' }))).toEqual({
      transient: true,
      message: 'x',
    });
    expect(classifyFailure(Object.assign(new Error('x'), { status: 400.5 }))).toEqual({
      transient: true,
      message: 'x',
    });
    expect(classifyFailure(undefined)).toEqual({ transient: true, message: 'undefined' });
    for (const status of [500, 503, 408, 429, 399, 302])
      expect(classifyFailure(answered(status)).transient, String(status)).toBe(true);
    for (const status of [400, 401, 404, 499]) expect(classifyFailure(answered(status)).transient).toBe(false);
    expect(classifyFailure(answered(400, 'a'.repeat(600)))).toEqual({
      transient: false,
      message: 'CRM answered 400',
      status: 400,
      answer: 'a'.repeat(500),
    });
    expect(classifyFailure(answered(503))).not.toHaveProperty('answer');
    expect(classifyFailure(new Error('m'.repeat(400))).message).toBe('m'.repeat(300));
  });

  it('the retry waits: none for the first two, then a minute doubling up to an hour', () => {
    expect([0, 1, 2, 3, 4, 5, 9, 10, 24].map((a) => RETRY_POLICY.delayMs(a))).toEqual([
      0,
      0,
      0,
      MIN,
      2 * MIN,
      4 * MIN,
      HOUR,
      HOUR,
      HOUR,
    ]);
    expect(RETRY_POLICY.delayMs(8)).toBe(32 * MIN);
    expect(RETRY_POLICY.maxAttempts).toBe(25);
    expect(RETRY_POLICY.maxAgeMs).toBe(48 * HOUR);
  });

  it('an outbox entry is readable only whole: its id, a time, a name and an email', () => {
    const record = { id: 'a', receivedAt: 't', lead: { name: 'N', email: 'e' } };
    expect(recordOf(JSON.stringify({ record }), 'a')).toEqual(record);
    expect(recordOf(JSON.stringify({ record }), 'b')).toBeUndefined();
    expect(recordOf('{"record":', 'a')).toBeUndefined();
    expect(recordOf('null', 'a')).toBeUndefined();
    expect(recordOf('{"record":"a"}', 'a')).toBeUndefined();
    for (const broken of [
      { ...record, receivedAt: 1 },
      { ...record, lead: undefined },
      { ...record, lead: { email: 'e' } },
      { ...record, lead: { name: 'N' } },
    ])
      expect(recordOf(JSON.stringify({ record: broken }), 'a')).toBeUndefined();
  });
});

/** Queues `n` leads (ids q0…) in the outbox as the submission does. */
async function queue(store: Store, n: number, at = T0) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const record = { id: `q${i}`, receivedAt: new Date(at).toISOString(), lead };
    await store.outboxPush(record.id, JSON.stringify({ record }));
    ids.push(record.id);
  }
  return ids;
}

describe('flushing the outbox', () => {
  it('delivers each entry once, removes it, and logs it with its attempts', async () => {
    const { deps, store, delivered, line } = setup();
    await queue(store, 3);
    expect(await flushOutbox(deps)).toEqual({
      delivered: 3,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(delivered.map((r) => r.id)).toEqual(['q0', 'q1', 'q2']);
    expect(line('lead_flushed')).toEqual({ level: 'info', id: 'q0', attempts: 1 });
    expect(await store.outboxSize()).toBe(0);
  });

  it('takes at most the batch it is given', async () => {
    const { deps, store } = setup();
    await queue(store, 3);
    expect(await flushOutbox(deps, 2)).toMatchObject({ delivered: 2, remaining: 1 });
  });

  it('a transient failure is retried after its backoff, and logged as a warning', async () => {
    const { deps, store, behaviour, clock, line } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(503);
    };
    const policy = { ...RETRY_POLICY, delayMs: () => 5 * MIN };
    expect(await flushOutbox(deps, 20, undefined, policy)).toEqual({
      delivered: 0,
      failed: 1,
      deadLettered: 0,
      quarantined: 0,
      remaining: 1,
      announced: 0,
      alertsFailed: 0,
    });
    expect(line('lead_flush_failed')).toEqual({ level: 'warn', id: 'q0', attempts: 1, error: 'CRM answered 503' });
    clock.t += 5 * MIN - 1;
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    clock.t += 1;
    expect((await store.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([['q0', 2]]);
  });

  it('a refusal goes to the dead letters with the CRM answer, logged as an error, and sales are told', async () => {
    const { deps, store, behaviour, line, notified } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(400, '{"status":"error"}');
    };
    expect(await flushOutbox(deps)).toMatchObject({ deadLettered: 1, failed: 0, remaining: 0 });
    const why = { reason: 'the CRM refused it for good (HTTP 400)', status: 400, answer: '{"status":"error"}' };
    expect(await store.deadLetters()).toMatchObject([{ id: 'q0', attempts: 1, ...why }]);
    expect(line('lead_dead_lettered')).toEqual({
      level: 'error',
      id: 'q0',
      attempts: 1,
      status: 400,
      reason: why.reason,
      note: 'a lead could not be delivered to the CRM; it is in the dead letters (README, Leads) until re-queued',
    });
    expect(notified).toEqual([{ record: expect.objectContaining({ id: 'q0' }), undelivered: { ...why, attempts: 1 } }]);
  });

  it('still failing at the bound of attempts: dead-lettered with the attempts, age and last failure', async () => {
    const { deps, store, behaviour, clock } = setup();
    await queue(store, 2);
    clock.t += 90 * MIN;
    behaviour.deliver = async (r) => {
      throw r.id === 'q0' ? answered(503) : new Error('no answer within 5000 ms');
    };
    const policy = { ...RETRY_POLICY, maxAttempts: 1 };
    expect(await flushOutbox(deps, 20, undefined, policy)).toMatchObject({ deadLettered: 2, failed: 0 });
    expect((await store.deadLetters()).map((l) => [l.reason, l.status])).toEqual([
      ['still failing after 1 attempt(s) in 90 min (last: HTTP 503)', 503],
      ['still failing after 1 attempt(s) in 90 min (last: no answer within 5000 ms)', undefined],
    ]);
  });

  it('still failing past the age bound: dead-lettered, the age in hours from two hours', async () => {
    const { deps, store, behaviour, clock } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(500);
    };
    clock.t += 3 * HOUR;
    expect(await flushOutbox(deps, 20, undefined, { ...RETRY_POLICY, maxAgeMs: 3 * HOUR })).toMatchObject({
      deadLettered: 1,
    });
    expect((await store.deadLetters())[0]!.reason).toBe('still failing after 1 attempt(s) in 3 h (last: HTTP 500)');
  });

  it('just under both bounds, it is retried', async () => {
    const { deps, store, behaviour, clock } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(500);
    };
    clock.t += 2 * HOUR - 1;
    const policy = { ...RETRY_POLICY, maxAgeMs: 2 * HOUR, maxAttempts: 2 };
    expect(await flushOutbox(deps, 20, undefined, policy)).toMatchObject({ failed: 1, deadLettered: 0 });
  });

  it('an entry another flusher settled meanwhile is neither counted nor told twice', async () => {
    const { deps, store, behaviour, notified } = setup();
    await queue(store, 1);
    behaviour.deliver = async (r) => {
      await store.outboxAck(r.id); // another flusher delivered it while this one waited
      throw answered(400);
    };
    expect(await flushOutbox(deps)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(notified).toEqual([]);
  });

  it('an unreadable entry is quarantined and logged with its start, not retried', async () => {
    const { deps, store, line } = setup();
    await store.outboxPush('torn', `{"record":${'x'.repeat(600)}`);
    expect(await flushOutbox(deps)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 1,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(await store.quarantineSize()).toBe(1);
    expect(line('lead_outbox_quarantined')).toEqual({
      level: 'error',
      id: 'torn',
      entry: `{"record":${'x'.repeat(490)}`,
    });
  });

  it('a failing notification of a dead letter is logged as an error with the lead', async () => {
    const { deps, store, behaviour, line } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(404);
    };
    behaviour.notify = async () => {
      throw new Error('webhook down');
    };
    expect(await flushOutbox(deps)).toMatchObject({ deadLettered: 1, announced: 0, alertsFailed: 1 });
    expect(line('lead_notify_failed')).toEqual({
      level: 'error',
      id: 'q0',
      notifier: 'test notifier',
      undelivered: true,
      alerts: 1,
      error: 'webhook down',
      note: 'this dead letter is not yet announced: its alert is tried again at a later flush, after a backoff',
    });
    expect(await store.deadLetters()).toMatchObject([{ id: 'q0', announced: false, alerts: 1 }]);
  });
});

describe('flushing with a time limit', () => {
  it('claims only what the time left covers at one bound each', async () => {
    const { deps, store, clock } = setup();
    await queue(store, 5);
    const time = { now: () => clock.t, deadline: T0 + 2 * 5000 + 4999, boundMs: 5000 };
    expect(await flushOutbox(deps, 20, time)).toMatchObject({ delivered: 2, remaining: 3 });
    expect(await flushOutbox(deps, 20, { ...time, deadline: T0 + 4999 })).toMatchObject({ delivered: 0, remaining: 3 });
  });

  it('hands back at once, untried, what it no longer has the time to deliver', async () => {
    const { deps, store, clock, behaviour, line } = setup();
    await queue(store, 3);
    behaviour.deliver = async () => {
      clock.t += 6000; // each delivery takes longer than planned
    };
    const time = { now: () => clock.t, deadline: T0 + 15_000, boundMs: 5000 };
    expect(await flushOutbox(deps, 20, time)).toMatchObject({ delivered: 2, remaining: 1 });
    expect(line('lead_flush_out_of_time')).toEqual({ level: 'warn', returned: 1 });
    expect((await store.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([['q2', 1]]);
  });

  it('cuts a delivery off at the bound whatever the sink does: a transient failure', async () => {
    const { deps, store, behaviour, line } = setup();
    await queue(store, 1);
    behaviour.deliver = () => new Promise(() => {});
    const time = { now: () => T0, deadline: T0 + 60_000, boundMs: 30 };
    expect(await flushOutbox(deps, 20, time)).toMatchObject({ failed: 1 });
    expect(line('lead_flush_failed')).toMatchObject({ error: 'no answer within 30 ms' });
  });

  it('waits for a hanging dead-letter notification at most one bound, and logs it', async () => {
    const { deps, store, behaviour, line } = setup();
    await queue(store, 1);
    behaviour.deliver = async () => {
      throw answered(400);
    };
    behaviour.notify = () => new Promise(() => {});
    const time = { now: () => T0, deadline: T0 + 60_000, boundMs: 30 };
    expect(await flushOutbox(deps, 20, time)).toMatchObject({ deadLettered: 1 });
    expect(line('lead_notify_failed')).toMatchObject({ id: 'q0', undelivered: true, error: 'no answer within 30 ms' });
  });
});

describe('flushing everything', () => {
  it('batch after batch until the outbox is empty', async () => {
    const { deps, store, delivered } = setup();
    await queue(store, 45);
    expect(await flushAll(deps)).toEqual({
      delivered: 45,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 0,
      announced: 0,
      alertsFailed: 0,
    });
    expect(delivered).toHaveLength(45);
  });

  it('stops after a batch that moved nothing out (the sink still down), the failures summed', async () => {
    const { deps, store, behaviour } = setup();
    await queue(store, 25);
    behaviour.deliver = async () => {
      throw answered(503);
    };
    expect(await flushAll(deps)).toEqual({
      delivered: 0,
      failed: 20,
      deadLettered: 0,
      quarantined: 0,
      remaining: 25,
      announced: 0,
      alertsFailed: 0,
    });
  });

  it('goes on after batches of dead letters or quarantined entries, and sums them', async () => {
    const { deps, store, behaviour } = setup();
    await queue(store, 25);
    for (let i = 0; i < 3; i++) await store.outboxPush(`torn${i}`, '{');
    behaviour.deliver = async () => {
      throw answered(400);
    };
    expect(await flushAll(deps)).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 25,
      quarantined: 3,
      remaining: 0,
      announced: 25,
      alertsFailed: 0,
    });
  });

  it('stops when the budget cannot cover one more delivery', async () => {
    const { deps, store, clock, behaviour } = setup();
    await queue(store, 45);
    behaviour.deliver = async () => {
      clock.t += 1000;
    };
    // 30 s with a 5 s bound, deliveries of 1 s: each batch claims what the time left covers (6, 4, 4, 3, 2, 2,
    // then 1 at a time) until less than one bound is left, at 26 s: 26 delivered.
    expect(await flushAll(deps, 30_000, 5000)).toEqual({
      delivered: 26,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 19,
      announced: 0,
      alertsFailed: 0,
    });
    expect(clock.t - T0).toBe(26_000);
  });
});

describe('the fingerprint text', () => {
  it('is JSON.stringify of the value, undefined members left out', () => {
    for (const v of [null, 1, 'a"b', [1, [2, {}]], { b: 1, a: [null, { c: undefined, d: 'x' }] }, [], {}, true])
      expect(serialised(v)).toBe(JSON.stringify(v));
    expect(serialised(undefined)).toBe('undefined');
    expect(serialised([undefined])).toBe('[null]');
  });

  it('has no recursion: a value nested 10,000 levels deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const text = serialised(deep);
    expect(text.length).toBe(20_001);
    expect(text.startsWith('[[[')).toBe(true);
  });
});
