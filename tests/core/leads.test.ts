/**
 * The lead path of src/core/leads.ts in process, one promise at a time: what a submission comes to (each
 * outcome, where the lead went, what was spent and given back, what was logged), and what a flush of the
 * outbox does with each entry (delivered, retried after its backoff, dead-lettered with a notification,
 * quarantined, handed back when out of time), what the sandbox finds and the key of a form posted without
 * JavaScript. tests/server holds the same promises over a socket. Real parts: the in-process store on an
 * injected clock; the sink and notifier record what they were given.
 */
import { describe, expect, it, afterEach, vi } from 'vitest';
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
  formIdempotencyKey,
  sandboxLead,
} from '../../src/core/leads.ts';
import { validateLead } from '../../src/core/lead-validation.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';
import { createHash } from 'node:crypto';
import { LEAD_POLICY } from '../../src/core/rate-limit.ts';

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
      note: 'a lead could not be delivered to the CRM; it is in the dead letters (docs/operations.md) until re-queued',
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

describe('telling sales of the dead letters', () => {
  /** `n` queued leads the CRM refuses for good, flushed in one batch: `n` new dead letters. */
  async function refusedLeads(n: number) {
    const t = setup();
    await queue(t.store, n);
    t.behaviour.deliver = async () => {
      throw answered(400);
    };
    return t;
  }

  it('tells of every new dead letter, batch after batch, when each alert lands', async () => {
    const { deps, notified } = await refusedLeads(51);
    expect(await flushOutbox(deps, 51)).toMatchObject({ deadLettered: 51, announced: 51, alertsFailed: 0 });
    expect(new Set(notified.map((n) => n.record.id)).size).toBe(51);
  });

  it('stops after a batch with a failed alert: each letter tried once, the rest left for a later flush', async () => {
    const { deps, behaviour, store } = await refusedLeads(51);
    behaviour.notify = async () => {
      throw new Error('webhook down');
    };
    expect(await flushOutbox(deps, 51)).toMatchObject({ deadLettered: 51, announced: 0, alertsFailed: 50 });
    const letters = await store.deadLetters();
    expect(letters.filter((l) => l.alerts === 1)).toHaveLength(50);
    expect(letters.filter((l) => l.alerts === 0)).toHaveLength(1);
  });

  it('a dead letter whose lead cannot be read is not announced: its alert is logged as failed', async () => {
    const { deps, store, notified, line } = setup();
    await store.outboxPush('bad', '{"record":');
    await store.outboxDeadLetter('bad', { reason: 'moved by hand' });
    expect(await flushOutbox(deps)).toMatchObject({ announced: 0, alertsFailed: 1 });
    expect(notified).toEqual([]);
    expect(line('lead_notify_failed')).toMatchObject({ id: 'bad', error: 'the dead letter holds no readable lead' });
    expect(await store.deadLetters()).toMatchObject([{ id: 'bad', announced: false }]);
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

describe('the lead sandbox', () => {
  it('says a body that is not a JSON object is none, with the text submission refuses it with', async () => {
    for (const body of [null, undefined, 'text', 42, true, [], [{ name: 'A', email: 'a@b.co' }]]) {
      const refused = await submitLead({ body, client: '203.0.113.7', idempotencyKey: null }, setup().deps);
      expect(refused, JSON.stringify(body)).toMatchObject({
        kind: 'rejected',
        message: expect.stringMatching(/JSON object/),
      });
      const message = refused.kind === 'rejected' ? refused.message : '';
      expect(sandboxLead(body, null), JSON.stringify(body)).toEqual({ kind: 'not-an-object', message });
    }
  });

  it('finds no problem in a clean payload with a good key', () => {
    expect(sandboxLead({ name: 'A', email: 'a@b.co' }, 'key-1')).toEqual({
      kind: 'checked',
      wouldSubmit: true,
      problems: [],
    });
  });

  it('would still submit a payload whose only problem is a field it ignores', () => {
    const outcome = sandboxLead({ name: 'A', email: 'a@b.co', colour: 'red' }, null);
    expect(outcome).toMatchObject({ kind: 'checked', wouldSubmit: true });
    expect(outcome.kind === 'checked' && outcome.problems.map((p) => [p.field, p.outcome])).toEqual([
      ['colour', 'drop'],
    ]);
  });

  it('would refuse a payload sent with an empty Idempotency-Key, saying why', () => {
    expect(checkIdempotencyKey(' ')).toMatch(/^Idempotency-Key is empty/);
    expect(sandboxLead({ name: 'A', email: 'a@b.co' }, ' ')).toEqual({
      kind: 'checked',
      wouldSubmit: false,
      problems: [],
      keyProblem: checkIdempotencyKey(' '),
    });
  });
});

describe('the key of a form posted without JavaScript', () => {
  it('is form: and the SHA-256 hex of the form content with its keys sorted', async () => {
    // The content: each key with its value's JSON text, keys in order.
    const content = JSON.stringify([
      ['a', '"1"'],
      ['b', '"2"'],
    ]);
    const want = `form:${createHash('sha256').update(content).digest('hex')}`;
    expect(await formIdempotencyKey({ b: '2', a: '1' })).toBe(want);
    expect(await formIdempotencyKey({ a: '1', b: '2' })).toBe(want);
    expect(await formIdempotencyKey({ a: '1', b: '3' })).not.toBe(want);
  });

  it('is always 64 hex digits after form:, small bytes written with their leading zero', async () => {
    for (let i = 0; i < 8; i++) expect(await formIdempotencyKey({ n: String(i) })).toMatch(/^form:[0-9a-f]{64}$/);
  });
});

describe('submitting a lead, every store call recorded', () => {
  const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example' };

  /**
   * Deps over the in-process store, with `overrides` in place of some store calls; `calls` counts every call
   * of the store by name. The sink fails when `sinkFails`.
   */
  function setup(overrides: Partial<Record<keyof Store, (...args: unknown[]) => unknown>> = {}, sinkFails = false) {
    const clock = { t: T0 };
    const lines: Line[] = [];
    const calls: Record<string, unknown[][]> = {};
    const real = createMemoryStore({ now: () => clock.t });
    const store = new Proxy(real, {
      get(target, prop, receiver) {
        const own = overrides[prop as keyof Store];
        const fn = own ?? Reflect.get(target, prop, receiver);
        if (typeof fn !== 'function') return fn;
        return (...args: unknown[]) => {
          (calls[String(prop)] ??= []).push(args);
          return own ? own(...args) : (fn as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Store;
    const deps = {
      store,
      sink: {
        name: 'test sink',
        deliver: async (_r: LeadRecord) => {
          if (sinkFails) throw new Error('sink down');
        },
      },
      notifier: { name: 'test notifier', notify: async () => {} },
      log: (event: string, fields?: Record<string, unknown>) => void lines.push({ event, fields }),
      now: () => clock.t,
    };
    const logged = (event: string) => lines.filter((l) => l.event === event).map((l) => l.fields);
    const count = (op: keyof Store) => calls[op]?.length ?? 0;
    return { clock, deps, logged, count };
  }
  const down = () => Promise.reject(new Error('store down'));
  const submit = (deps: ReturnType<typeof setup>['deps'], key: string | null) =>
    submitLead({ body: LEAD, client: '203.0.113.7', idempotencyKey: key }, deps);

  describe('a submission when the store fails after the claim', () => {
    it('a failed completion is logged as a warning with its error; the lead is still accepted', async () => {
      const { deps, logged } = setup({ complete: down });
      expect((await submit(deps, 'k1')).kind).toBe('accepted');
      expect(logged('idempotency_store_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
    });

    it('a failed release is logged as a warning with its error; the submission is still limited', async () => {
      const { deps, logged } = setup({ release: down });
      // The budget spent through another instance: this one learns of it from the store, after the claim.
      for (let i = 0; i < 5; i++) await deps.store.hit(LEAD_POLICY, '203.0.113.7', T0);
      expect((await submit(deps, 'k5')).kind).toBe('limited');
      expect(logged('idempotency_store_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
    });

    it('a failed refund is logged as a warning with its error; the lead is unrecorded', async () => {
      const { deps, logged } = setup({ refund: down, outboxPush: down }, true);
      expect(await submit(deps, null)).toEqual({ kind: 'unrecorded' });
      expect(logged('rate_limit_refund_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
    });
  });

  describe('a submission gives back only what it took', () => {
    it('without an Idempotency-Key, a limited submission releases no key', async () => {
      const { deps, count } = setup();
      // The budget spent through another instance: the refusal comes from the store, not from memory.
      for (let i = 0; i < 5; i++) await deps.store.hit(LEAD_POLICY, '203.0.113.7', T0);
      expect((await submit(deps, null)).kind).toBe('limited');
      expect(count('claim')).toBe(0);
      expect(count('release')).toBe(0);
    });

    it('when the budget could not be checked, an unrecorded lead refunds nothing', async () => {
      const { deps, count, logged } = setup({ hit: down, outboxPush: down }, true);
      expect(await submit(deps, null)).toEqual({ kind: 'unrecorded' });
      expect(logged('rate_limit_store_failed')).toHaveLength(1);
      expect(count('refund')).toBe(0);
    });
  });

  describe('a client this instance saw spend its budget', () => {
    it('is refused from memory with a new key: no claim, no budget spent, no key released', async () => {
      const { deps, count } = setup();
      for (let i = 0; i < 5; i++) expect((await submit(deps, `k${i}`)).kind).toBe('accepted');
      expect([count('claim'), count('hit')]).toEqual([5, 5]);
      expect((await submit(deps, 'k-late')).kind).toBe('limited');
      expect([count('claim'), count('hit'), count('release')]).toEqual([5, 5, 0]);
    });

    it('still gets the first answer replayed for the key of a lead it sent, the budget untouched', async () => {
      const { deps, count } = setup();
      for (let i = 0; i < 5; i++) expect((await submit(deps, `k${i}`)).kind).toBe('accepted');
      expect(await submit(deps, 'k4')).toMatchObject({ kind: 'replayed', first: { body: { ok: true } } });
      expect(await submit(deps, 'k0')).toMatchObject({ kind: 'replayed', first: { limit: { remaining: 4 } } });
      expect(count('hit')).toBe(5);
    });

    it('is refused from memory with a key by a store that cannot recall keys', async () => {
      const { deps } = setup();
      const store = new Proxy(deps.store, {
        get: (target, prop, receiver) => (prop === 'recall' ? undefined : Reflect.get(target, prop, receiver)),
      });
      const noRecall = { ...deps, store };
      for (let i = 0; i < 5; i++) expect((await submit(noRecall, `k${i}`)).kind).toBe('accepted');
      expect((await submit(noRecall, 'k-late')).kind).toBe('limited');
      expect((await submit(noRecall, 'k4')).kind).toBe('limited');
    });
  });

  describe("waiting for a key's first submission", () => {
    it('waits on at exactly ten seconds, and gives up after', async () => {
      const claims: number[] = [];
      const { clock, deps } = setup({
        claim: async (_key, fingerprint) => {
          claims.push(clock.t);
          // The first submission is still under way; the clock moves to the wait's last millisecond, then past it.
          clock.t = T0 + (claims.length === 1 ? 10_000 : 10_001);
          return { state: 'pending', fingerprint };
        },
      });
      expect(await submit(deps, 'k')).toEqual({ kind: 'key-busy', retryAfter: 2 });
      expect(claims).toEqual([T0, T0 + 10_000]);
    });
  });
});

describe('flushing the outbox, every store call recorded', () => {
  const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example' };

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
});
