/**
 * Lead validation, the sandbox and submission over real HTTP on the local server: the decision table,
 * sandbox/submission agreement (property-based), idempotency, the lead budget, the CRM and webhook sinks
 * against local fakes, the outbox and its replay, and the fault cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps, type DepsOptions } from '../../src/adapters/composition-root.ts';
import { createHubSpotSink } from '../../src/adapters/hubspot-sink.ts';
import { createWebhookSink } from '../../src/adapters/webhook-sink.ts';
import { createSlackNotifier } from '../../src/adapters/notifiers.ts';
import { createSqliteSink, createSqliteStore, readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { flushOutbox } from '../../src/core/leads.ts';
import type { LeadSink, Store } from '../../src/core/ports.ts';
import { LeadValidationSchema, ErrorSchema, SEGMENTS, INTENTS, MOVES, WAREHOUSES } from '../../src/contract/schemas.ts';
import { PROJECT_ROOT, type RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';
import { LEAD_CASES } from '../helpers/lead-cases.ts';
import { postJson, send } from '../helpers/http.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { useEngines } from '../helpers/engines.ts';
import { startFakeHubSpot, startFakeSlack, startFakeWebhook } from '../helpers/fake-crm.ts';

const { engines } = useEngines();
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/**
 * A fixed instant a second into a minute, for the tests that count the read window (120 a minute): the
 * window cannot roll over during them whatever second of the real minute they start at.
 */
const FIXED_NOW = Date.UTC(2026, 10, 23, 10, 0, 1);
const fixedClock = () => FIXED_NOW;

/** A fresh source address on loopback for each use: every case gets its own budgets. */
let clientN = 0;
const nextClient = () => `127.0.${1 + Math.floor(++clientN / 250)}.${(clientN % 250) + 2}`;

async function leadServer(opts: Omit<DepsOptions, 'dataDir'> & { dir?: string } = {}) {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'kartage-leads-')));
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: opts.store ?? createSqliteStore({ file: join(dir, 'kartage.db'), ...(opts.now ? { now: opts.now } : {}) }),
    sink: opts.sink ?? createSqliteSink(join(dir, 'kartage.db')),
    log: (event, fields) => events.push({ event, fields }),
    ...(opts.notifier ? { notifier: opts.notifier } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const server = await startTestServer({ deps });
  servers.push(server);
  const leads = async () => readLeads(join(dir, 'kartage.db'));
  return { server, url: server.url, dir, events, leads, deps };
}

const good = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals', intent: 'demo' };

describe('the decision table over HTTP: sandbox and submission agree on every case', () => {
  let s: Awaited<ReturnType<typeof leadServer>>;
  beforeAll(async () => {
    s = await leadServer();
  });

  for (const c of LEAD_CASES) {
    it(c.name, async () => {
      const from = nextClient();
      const headers = c.idempotencyKey ? { 'Idempotency-Key': c.idempotencyKey } : undefined;
      const sandbox = await postJson(`${s.url}/api/v1/lead/validate`, c.payload, { from, headers });
      expect(sandbox.status).toBe(c.problems.length ? 422 : 200);
      const v = LeadValidationSchema.parse(sandbox.json());
      expect(v.problems.map((p) => p.field)).toEqual(c.problems.map(([f]) => f));
      expect(v.wouldSubmit).toBe(c.stored !== undefined);
      expect(v.note).toBeTruthy();
      expect(sandbox.headers['ratelimit-policy']).toBe('120;w=60'); // metered as a read

      const before = (await s.leads()).length;
      const submitted = await postJson(`${s.url}/api/lead`, c.payload, { from, headers });
      expect(submitted.status).toBe(v.wouldSubmit ? 200 : 400);
      const after = await s.leads();
      if (v.wouldSubmit) {
        expect(submitted.json()).toEqual({ ok: true });
        expect(after).toHaveLength(before + 1);
        expect(after.at(-1)!.lead).toEqual(c.stored);
      } else {
        expect(ErrorSchema.parse(submitted.json())).toMatchObject({ status: 400 });
        expect(submitted.json().error).toMatch(/name|email|Idempotency-Key/);
        expect(after).toHaveLength(before);
      }
    });
  }

  it('bodies that are not a JSON object: 400 Error from both; over 64 KB: 413', async () => {
    for (const body of ['', 'not json', '[1,2]', '"text"', 'null', '{"name":']) {
      for (const path of ['/api/v1/lead/validate', '/api/lead']) {
        const r = await send(`${s.url}${path}`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'application/json' },
          from: nextClient(),
        });
        expect(r.status, `${path} ${body}`).toBe(400);
        expect(ErrorSchema.parse(r.json()).status).toBe(400);
      }
    }
    const big = JSON.stringify({ ...good, message: 'x'.repeat(70_000) });
    for (const path of ['/api/v1/lead/validate', '/api/lead']) {
      const r = await postJson(`${s.url}${path}`, big, { from: nextClient() });
      expect(r.status).toBe(413);
      expect(r.json().error).toMatch(/65536 bytes/);
    }
  });

  it('GET on the lead endpoints: 405 with Allow', async () => {
    const r = await send(`${s.url}/api/lead`);
    expect(r.status).toBe(405);
    expect(r.headers.allow).toContain('POST');
  });
});

describe('property: for any payload, wouldSubmit equals "submission answers 200"', () => {
  let s: Awaited<ReturnType<typeof leadServer>>;
  beforeAll(async () => {
    s = await leadServer();
  });

  const text = (max: number) =>
    fc.oneof(
      fc.string({ maxLength: max + 5 }),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.constant(''),
      fc.constant('   '),
    );
  const anyJson = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(fc.oneof(a, anyJson), { nil: undefined, freq: 3 });
  const payload = fc.record(
    {
      name: maybe(fc.oneof(text(125), fc.constant('Sam Taylor'))),
      email: maybe(
        fc.oneof(
          fc.emailAddress(),
          fc.constant('sam@harbourline.example'),
          fc.string({ maxLength: 12 }),
          fc.constant(`${'a'.repeat(190)}@example.com`),
        ),
      ),
      company: maybe(text(205)),
      phone: maybe(text(45)),
      dialcode: maybe(fc.oneof(fc.constantFrom('+61', '+1', '+6411', '61', '+12345', ''), fc.string({ maxLength: 6 }))),
      country: maybe(text(65)),
      message: maybe(text(40)),
      intent: maybe(fc.oneof(fc.constantFrom(...INTENTS), fc.string({ maxLength: 6 }))),
      segment: maybe(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 6 }))),
      warehouses: maybe(fc.constantFrom(...WAREHOUSES, '7', 'none')),
      moves: maybe(fc.constantFrom(...MOVES, '500')),
      extra: maybe(fc.string({ maxLength: 10 })),
    },
    { requiredKeys: [] },
  );

  it('holds over real HTTP (sandbox, then submission, from a fresh client each run)', async () => {
    await fc.assert(
      fc.asyncProperty(payload, async (p) => {
        const body = JSON.parse(JSON.stringify(p)); // what a client can actually send (no undefined)
        const from = nextClient();
        const sandbox = await postJson(`${s.url}/api/v1/lead/validate`, body, { from });
        const v = LeadValidationSchema.parse(sandbox.json());
        expect(sandbox.status).toBe(v.problems.length ? 422 : 200);
        const submitted = await postJson(`${s.url}/api/lead`, body, { from });
        expect(submitted.status).toBe(v.wouldSubmit ? 200 : 400);
      }),
      { numRuns: 150 },
    );
  });
});

describe.each(engines)('idempotency and the lead budget ($name store)', (engine) => {
  let s: Awaited<ReturnType<typeof leadServer>>;
  beforeAll(async () => {
    s = await leadServer({ store: engine.create() });
  });

  it('a replay returns the first answer with Idempotency-Replayed, creates nothing and spends no budget', async () => {
    const from = nextClient();
    const headers = { 'Idempotency-Key': 'attempt-1' };
    const first = await postJson(`${s.url}/api/lead`, good, { from, headers });
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const count = (await s.leads()).length;
    for (let i = 0; i < 3; i++) {
      // Key order does not matter: the same payload is the same payload.
      const replay = await postJson(
        `${s.url}/api/lead`,
        { intent: 'demo', company: good.company, email: good.email, name: good.name },
        { from, headers },
      );
      expect(replay.status).toBe(200);
      expect(replay.json()).toEqual(first.json());
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.headers['ratelimit-remaining']).toBe('4');
    }
    expect(await s.leads()).toHaveLength(count);
    const next = await postJson(`${s.url}/api/lead`, good, { from, headers: { 'Idempotency-Key': 'attempt-2' } });
    expect(next.headers['ratelimit-remaining']).toBe('3'); // the replays spent nothing
  });

  it('the same key with a different payload: 422 Error, nothing created', async () => {
    const from = nextClient();
    const headers = { 'Idempotency-Key': 'k-mismatch' };
    expect((await postJson(`${s.url}/api/lead`, good, { from, headers })).status).toBe(200);
    const count = (await s.leads()).length;
    const other = await postJson(`${s.url}/api/lead`, { ...good, message: 'changed' }, { from, headers });
    expect(other.status).toBe(422);
    expect(ErrorSchema.parse(other.json()).error).toMatch(/different payload/);
    expect(await s.leads()).toHaveLength(count);
  });

  it('keys are per client: another client may use the same key', async () => {
    const headers = { 'Idempotency-Key': 'shared-key' };
    const count = (await s.leads()).length;
    expect((await postJson(`${s.url}/api/lead`, good, { from: nextClient(), headers })).status).toBe(200);
    const second = await postJson(`${s.url}/api/lead`, good, { from: nextClient(), headers });
    expect(second.status).toBe(200);
    expect(second.headers['idempotency-replayed']).toBeUndefined();
    expect(await s.leads()).toHaveLength(count + 2);
  });

  it('50 concurrent requests with one key create exactly one lead', async () => {
    const from = nextClient();
    const count = (await s.leads()).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        postJson(
          `${s.url}/api/lead`,
          { ...good, message: 'race' },
          { from, headers: { 'Idempotency-Key': 'race-key' } },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.headers['idempotency-replayed'] === 'true')).toHaveLength(49);
    expect(await s.leads()).toHaveLength(count + 1);
  });

  it('5 submissions per hour; the 6th is 429 with Retry-After, RateLimit-Reset and RateLimit-Limit; the sandbox spends none', async () => {
    const from = nextClient();
    for (let i = 0; i < 8; i++)
      expect((await postJson(`${s.url}/api/v1/lead/validate`, good, { from })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const r = await postJson(`${s.url}/api/lead`, { ...good, message: `n${i}` }, { from });
      expect(r.status).toBe(200);
      expect(r.headers).toMatchObject({
        'ratelimit-limit': '5',
        'ratelimit-policy': '5;w=3600',
        'ratelimit-remaining': String(4 - i),
      });
      expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThan(3500);
    }
    const refused = await postJson(
      `${s.url}/api/lead`,
      { ...good, message: 'sixth' },
      { from, headers: { 'Idempotency-Key': 'sixth' } },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.headers['ratelimit-reset']).toBe(refused.headers['retry-after']);
    expect(refused.headers['ratelimit-limit']).toBe('5');
    expect(ErrorSchema.parse(refused.json()).error).toMatch(/5 lead submissions per hour/);
    // A 429 is not remembered: the same key later is a fresh attempt, not a replayed refusal.
    const again = await postJson(
      `${s.url}/api/lead`,
      { ...good, message: 'sixth' },
      { from, headers: { 'Idempotency-Key': 'sixth' } },
    );
    expect(again.status).toBe(429);
    expect(again.headers['idempotency-replayed']).toBeUndefined();
    // Another client is not affected.
    expect((await postJson(`${s.url}/api/lead`, good, { from: nextClient() })).status).toBe(200);
  });

  it('Idempotency-Key longer than 200 characters, or empty: 400', async () => {
    for (const key of ['k'.repeat(201), ' ']) {
      const r = await postJson(`${s.url}/api/lead`, good, { from: nextClient(), headers: { 'Idempotency-Key': key } });
      expect(r.status).toBe(400);
      expect(r.json().error).toMatch(/Idempotency-Key/);
    }
    expect(
      (
        await postJson(`${s.url}/api/lead`, good, {
          from: nextClient(),
          headers: { 'Idempotency-Key': 'k'.repeat(200) },
        })
      ).status,
    ).toBe(200);
  });
});

describe('the HubSpot sink against a local fake of its form API', () => {
  const auth = { token: 'pat-na1-test', portalId: '123456', formId: '0b8f0c9e-1111-4c6b-9a8e-0a5c3e2b7d11' };
  let hubspot: Awaited<ReturnType<typeof startFakeHubSpot>>;
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  let s: Awaited<ReturnType<typeof leadServer>>;
  let store: Store;
  beforeAll(async () => {
    hubspot = await startFakeHubSpot(auth);
    slack = await startFakeSlack();
    const dir = await mkdtemp(join(tmpdir(), 'kartage-crm-'));
    store = createSqliteStore({ file: join(dir, 'kartage.db') });
    const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 });
    s = await leadServer({
      dir,
      store,
      sink,
      notifier: createSlackNotifier({ url: slack.url, origin: 'https://kartage.com.au' }),
    });
  });
  afterAll(async () => {
    await hubspot.stop();
    await slack.stop();
  });

  it('maps every field onto the form submission and notifies sales with everything escaped', async () => {
    const lead = {
      name: "Mary-Jane <!channel> O'Brien",
      email: 'mj@southern.example',
      company: 'Southern & Co *bold*',
      phone: '0412 000 111',
      dialcode: '+61',
      country: 'Australia',
      message: 'Hi @here <b>x</b>',
      intent: 'demo',
      segment: 'International',
      warehouses: '2-5',
      moves: '500-2,000',
    };
    const r = await postJson(`${s.url}/api/lead`, lead, {
      from: nextClient(),
      headers: { Referer: `${s.url}/demo` },
    });
    expect(r.status).toBe(200);
    expect(hubspot.received.at(-1)).toMatchObject({
      portalId: auth.portalId,
      formId: auth.formId,
      fields: {
        email: 'mj@southern.example',
        firstname: 'Mary-Jane <!channel>',
        lastname: "O'Brien",
        company: 'Southern & Co *bold*',
        phone: '+61 0412 000 111',
        country: 'Australia',
        message: 'Hi @here <b>x</b>',
        kartage_intent: 'demo',
        kartage_segment: 'International',
        kartage_warehouses: '2-5',
        kartage_moves: '500-2,000',
      },
      context: { pageUri: `${s.url}/demo`, pageName: 'Book a demo' },
    });
    await expect.poll(() => slack.received.length).toBe(1);
    const note = slack.received[0];
    // The push text is plain: Slack's marks gone, its escapes applied (the blocks keep the words as sent).
    expect(note.text).toBe("Demo request from Mary-Jane &lt;!channel&gt; O'Brien (Southern &amp; Co bold)");
    expect(JSON.stringify(note.blocks)).not.toContain('mrkdwn');
    expect(JSON.stringify(note.blocks)).toContain('Hi @here <b>x</b>'); // plain_text: shown, never interpreted
    expect(await store.outboxSize()).toBe(0);
  });

  // A 4xx is a refusal for good: the flush moves it to the dead letters instead (the test after this loop).
  for (const mode of ['5xx', 'down', { delayMs: 1_500 }] as const) {
    it(`CRM ${typeof mode === 'string' ? mode : 'slow'}: the lead goes to the outbox, the answer is still 200, and the flush replays it`, async () => {
      hubspot.setMode(mode);
      const before = hubspot.received.length;
      const r = await postJson(
        `${s.url}/api/lead`,
        { ...good, message: `while ${JSON.stringify(mode)}` },
        { from: nextClient() },
      );
      expect(r.status).toBe(200);
      expect(await store.outboxSize()).toBe(1);
      expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(['lead_sink_failed', 'lead_queued']));
      // Still failing: the flush keeps it, counting the attempt.
      const flushed: Record<string, unknown>[] = [];
      const log = (event: string, fields?: Record<string, unknown>) => flushed.push({ event, ...fields });
      const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 });
      expect(await flushOutbox({ sink, store, log })).toEqual({
        delivered: 0,
        failed: 1,
        deadLettered: 0,
        quarantined: 0,
        remaining: 1,
        announced: 0,
        alertsFailed: 0,
      });
      expect(flushed).toMatchObject([{ event: 'lead_flush_failed', attempts: 1 }]);
      hubspot.setMode('ok');
      expect(await flushOutbox({ sink, store, log })).toEqual({
        delivered: 1,
        failed: 0,
        deadLettered: 0,
        quarantined: 0,
        remaining: 0,
        announced: 0,
        alertsFailed: 0,
      });
      expect(flushed.at(-1)).toMatchObject({ event: 'lead_flushed', attempts: 2 });
      // No sleep: the flush answered `delivered` only after the CRM's 200, so its copy is recorded by now. A try
      // we gave up on (the slow CRM past our bound) is dropped by the fake when it answers, since we left.
      const copies = hubspot.received.slice(before).filter((x) => x.fields.message === `while ${JSON.stringify(mode)}`);
      // Every copy carries the one delivery id.
      expect(copies.length).toBeGreaterThanOrEqual(1);
      expect(new Set(copies.map((x) => x.fields.kartage_lead_id)).size).toBe(1);
    });
  }

  it('CRM 4xx: the lead goes to the outbox, the answer is still 200; the flush moves it to the dead letters, sales told, and a re-queue delivers it once', async () => {
    hubspot.setMode('4xx');
    const before = hubspot.received.length;
    const message = 'while "4xx"';
    const r = await postJson(`${s.url}/api/lead`, { ...good, message }, { from: nextClient() });
    expect(r.status).toBe(200);
    expect(await store.outboxSize()).toBe(1);
    expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(['lead_sink_failed', 'lead_queued']));
    const undelivered = () => slack.received.filter((m) => /^A lead could not be delivered to the CRM/.test(m.text));
    // Refused for good: no retry, a dead letter with the CRM's answer after one attempt, and sales told.
    const flushed: Record<string, unknown>[] = [];
    const log = (event: string, fields?: Record<string, unknown>) => flushed.push({ event, ...fields });
    const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 });
    const notifier = createSlackNotifier({ url: slack.url, origin: 'https://kartage.com.au' });
    expect(await flushOutbox({ sink, store, log, notifier })).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 1,
      quarantined: 0,
      remaining: 0,
      announced: 1,
      alertsFailed: 0,
    });
    expect(flushed).toMatchObject([{ event: 'lead_dead_lettered', attempts: 1, status: 400 }]);
    const [letter] = await store.deadLetters();
    expect(letter).toMatchObject({ status: 400, answer: expect.stringContaining('BLOCKED_EMAIL') });
    expect(undelivered()).toHaveLength(1);
    expect(JSON.stringify(undelivered()[0].blocks)).toContain(good.email);
    hubspot.setMode('ok');
    expect(await store.deadLetterRequeue(letter!.id)).toBe(true);
    expect(await flushOutbox({ sink, store, log, notifier })).toMatchObject({ delivered: 1, remaining: 0 });
    const copies = hubspot.received.slice(before).filter((x) => x.fields.message === message);
    expect(copies.map((x) => x.fields.kartage_lead_id)).toEqual([letter!.id]);
  });

  it('CRM down and the outbox unwritable: 502 telling the person to use the chat; nothing half-written; a retry with the same key works once things recover', async () => {
    hubspot.setMode('down');
    const failingStore: Store = { ...store, outboxPush: () => Promise.reject(new Error('disk full')) };
    const dir = await mkdtemp(join(tmpdir(), 'kartage-down-'));
    const down = await leadServer({
      dir,
      store: failingStore,
      sink: createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 }),
    });
    const from = nextClient();
    const headers = { 'Idempotency-Key': 'retry-me' };
    // Six 502s in a row (more than the lead budget): none spends it, none is remembered.
    for (let i = 0; i < 6; i++) {
      const r = await postJson(`${down.url}/api/lead`, good, { from, headers });
      expect(r.status).toBe(502);
      expect(ErrorSchema.parse(r.json()).error).toMatch(/chat/);
    }
    expect(await store.outboxSize()).toBe(0);
    hubspot.setMode('ok');
    const before = hubspot.received.length;
    const retry = await postJson(`${down.url}/api/lead`, good, { from, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotency-replayed']).toBeUndefined(); // the 502 was not stored as the answer
    expect(retry.headers['ratelimit-remaining']).toBe('4'); // and spent no budget
    expect(hubspot.received.length).toBe(before + 1);
  });
});

describe('the signed webhook sink', () => {
  it('delivers the lead with a signature the receiver verifies', async () => {
    const hook = await startFakeWebhook('s3cret');
    try {
      const s = await leadServer({ sink: createWebhookSink({ url: hook.url, secret: 's3cret' }) });
      expect((await postJson(`${s.url}/api/lead`, good, { from: nextClient() })).status).toBe(200);
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0]!.body).toMatchObject({ type: 'lead.created', lead: { ...good, dialcode: '+61' } });
      expect(hook.received[0]!.delivery).toBe(hook.received[0]!.body.id);
      // A wrong secret is refused by the receiver, so the lead is queued instead.
      const wrong = await leadServer({ sink: createWebhookSink({ url: hook.url, secret: 'wrong' }) });
      expect((await postJson(`${wrong.url}/api/lead`, good, { from: nextClient() })).status).toBe(200);
      expect(await wrong.deps.store.outboxSize()).toBe(1);
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.stop();
    }
  });
});

describe('store failures during submission', () => {
  it('the lead is still recorded; limits and keys fall back to this instance, never to none (logged)', async () => {
    const fail = () => Promise.reject(new Error('ECONNREFUSED'));
    const dir = await mkdtemp(join(tmpdir(), 'kartage-broken-'));
    const store: Store = {
      ...createSqliteStore({ file: join(dir, 'kartage.db'), now: fixedClock }),
      hit: fail,
      claim: fail,
      complete: fail,
      release: fail,
    };
    // The read budget is counted below (120, then 429): on a fixed clock, so no minute edge can free a unit.
    const s = await leadServer({ dir, store, now: fixedClock });
    const from = nextClient();
    const r = await postJson(`${s.url}/api/lead`, good, { from, headers: { 'Idempotency-Key': 'k1' } });
    expect(r.status).toBe(200);
    expect(await s.leads()).toHaveLength(1);
    // The same key again: the first answer, from this instance's records.
    const replay = await postJson(`${s.url}/api/lead`, good, { from, headers: { 'Idempotency-Key': 'k1' } });
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(await s.leads()).toHaveLength(1);
    // The budget still holds: 4 more, then 429.
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await postJson(`${s.url}/api/lead`, { ...good, message: `m${i}` }, { from })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Reads too: 120, then 429.
    const reads = [];
    for (let i = 0; i < 125; i++) reads.push((await send(`${s.url}/api/v1/pages?limit=1`, { from })).status);
    expect(reads.filter((x) => x === 200)).toHaveLength(120);
    expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(['store_fallback', 'lead_recorded']));
    // One fallback per store call: the two keyed posts, the leads and the reads up to each budget's first 429
    // (past it a refused client is answered from this instance's memory, with no store call).
    expect(s.events.filter((e) => e.event === 'store_fallback').at(-1)!.fields!.fallbacks).toBeGreaterThan(125);
  });

  it('a sink that throws synchronously is handled like any failure', async () => {
    const sink: LeadSink = {
      name: 'broken',
      deliver: () => {
        throw new Error('boom');
      },
    };
    const s = await leadServer({ sink });
    const r = await postJson(`${s.url}/api/lead`, good, { from: nextClient() });
    expect(r.status).toBe(200);
    expect(await s.deps.store.outboxSize()).toBe(1);
  });
});

describe('what a lead request costs when it is refused', () => {
  it('invalid bodies spend the read budget: past 120 a minute they get 429, and a valid lead still goes through', async () => {
    // Exactly 120 refusals are counted: on the real clock a run straddling a minute got a unit back there.
    const s = await leadServer({ now: fixedClock });
    const from = nextClient();
    const junk = JSON.stringify({ name: '', email: 'x', message: 'y'.repeat(60_000) });
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) statuses.push((await postJson(`${s.url}/api/lead`, junk, { from })).status);
    expect(statuses.slice(0, 120)).toEqual(Array(120).fill(400));
    expect(statuses.slice(120)).toEqual(Array(5).fill(429));
    const refused = await postJson(`${s.url}/api/lead`, 'not json', { from });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-policy']).toBe('120;w=60');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Oversized and form bodies count too.
    expect((await postJson(`${s.url}/api/lead`, 'x'.repeat(70_000), { from })).status).toBe(429);
    const form = await send(`${s.url}/api/lead`, {
      method: 'POST',
      from,
      body: 'name=&email=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    });
    expect(form.status).toBe(429);
    expect(form.headers['content-type']).toMatch(/text\/html/);
    // The person's valid lead spends the lead budget only.
    const ok = await postJson(`${s.url}/api/lead`, good, { from });
    expect(ok.status).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('5;w=3600');
  });

  it('Idempotency-Key is counted in characters: 100 emoji pass, 201 characters are 400', async () => {
    const s = await leadServer();
    const { hostname: host, port } = new URL(s.url);
    // The header as a client such as curl sends it: UTF-8 bytes on the wire.
    const post = (path: string, key: string) => {
      const body = Buffer.from(JSON.stringify(good));
      const head =
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Idempotency-Key: ${key}\r\nConnection: close\r\n\r\n`;
      return rawExchange({
        host,
        port: Number(port),
        from: nextClient(),
        bytes: Buffer.concat([Buffer.from(head, 'utf8'), body]),
      });
    };
    const emoji = '🚚'.repeat(100);
    const first = await post('/api/lead', emoji);
    expect(first.status, first.text).toBe(200);
    expect((await post('/api/v1/lead/validate', emoji)).status).toBe(200);
    for (const key of ['🚚'.repeat(201), 'é'.repeat(201)]) {
      const r = await post('/api/lead', key);
      expect(r.status).toBe(400);
      expect(r.json().error).toMatch(/201 characters/);
    }
  });

  it('the form without JavaScript: the same form posted twice makes one lead; a changed form is a new one', async () => {
    const s = await leadServer();
    const from = nextClient();
    const post = (body: string) =>
      send(`${s.url}/api/lead`, {
        method: 'POST',
        from,
        body,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      });
    const body = 'name=Sam+Taylor&email=sam%40harbourline.example&intent=demo&message=Hello';
    const first = await post(body);
    const second = await post(body);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toContain('Thank you');
    expect(await s.leads()).toHaveLength(1);
    expect((await post(`${body}+again`)).status).toBe(200);
    expect(await s.leads()).toHaveLength(2);
    // Another visitor with the very same form is their own lead.
    const other = await send(`${s.url}/api/lead`, {
      method: 'POST',
      from: nextClient(),
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    });
    expect(other.status).toBe(200);
    expect(await s.leads()).toHaveLength(3);
  });
});
