/**
 * No lead parked in silence: a fake HubSpot over real HTTP answering 400 (a field missing
 * from the form definition), 500 or hanging, a fake Slack for the sales notification, and every store engine
 * (the embedded SQLite file, Upstash over a real redis-server behind the REST bridge, the in-process store).
 * A 400 is a dead letter after one attempt, with the CRM's answer, and sales are told; a 500 or a hang is
 * retried, a dead letter only past the bound; a re-queued dead letter is delivered once. Then the same through
 * the cron operation and the `leads:flush`, `leads:export -- --dead-letters` and `leads:requeue` commands.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createHubSpotSink } from '../../src/adapters/hubspot-sink.ts';
import { createSlackNotifier, UNDELIVERED_TITLE } from '../../src/adapters/notifiers.ts';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import { classifyFailure, flushAll, type FlushDeps, RETRY_POLICY, type RetryPolicy } from '../../src/core/leads.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';
import { runOperation } from '../../src/http/pipeline.ts';
import { leadsFlush } from '../../src/operations/leads-flush.ts';
import { startFakeHubSpot, startFakeSlack } from '../helpers/fake-crm.ts';
import { useEngines } from '../helpers/engines.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const { engines, env: redisEnv } = useEngines();
const auth = { token: 'pat-dead-letters', portalId: '4242', formId: 'form-dl' };
const ORIGIN = 'https://kartage.com.au';
/** Longer than any test: the CRM takes the request and never answers in time. */
const HANG = { delayMs: 60_000 };
/** A small bound, so the tests reach it: three attempts, no wait between them. */
const THREE: RetryPolicy = { maxAttempts: 3, maxAgeMs: Infinity, delayMs: () => 0 };

let hubspot: Awaited<ReturnType<typeof startFakeHubSpot>>;
let slack: Awaited<ReturnType<typeof startFakeSlack>>;
beforeAll(async () => {
  hubspot = await startFakeHubSpot(auth);
  slack = await startFakeSlack();
});
afterAll(async () => {
  await hubspot?.stop();
  await slack?.stop();
});
beforeEach(() => {
  hubspot.setMode('ok');
  slack.setMode('ok');
  hubspot.setFormFields(undefined);
  slack.received.length = 0;
});

let n = 0;
/** A lead as submission records it; with a segment, which the edited form below no longer has. */
function lead(tag: string, segment = true): LeadRecord {
  const i = ++n;
  return {
    id: `${tag}-${i}-${Math.random().toString(36).slice(2, 8)}`,
    receivedAt: new Date().toISOString(),
    lead: {
      name: `Sam Taylor ${i}`,
      email: `sam${i}@harbourline.example`,
      company: 'Harbourline Freight',
      dialcode: '+61',
      phone: '0412 000 111',
      message: `${tag} ${i}`,
      intent: 'demo',
      ...(segment ? { segment: 'International' } : {}),
    } as LeadRecord['lead'],
  };
}

/** The fields of the form after someone removed `kartage_segment` from it in HubSpot (docs/leads-and-limits.md). */
const EDITED_FORM = [
  'email',
  'firstname',
  'lastname',
  'company',
  'phone',
  'country',
  'message',
  'kartage_intent',
  'kartage_warehouses',
  'kartage_moves',
  'kartage_lead_id',
];

async function queue(store: Store, records: LeadRecord[]) {
  for (const record of records) await store.outboxPush(record.id, JSON.stringify({ record }));
}

const sink = () => createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 });
const notifier = () => createSlackNotifier({ url: slack.url, origin: ORIGIN });

function deps(store: Store) {
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const d: FlushDeps & { now(): number } = {
    store,
    sink: sink(),
    notifier: notifier(),
    log: (event, fields) => events.push({ event, fields }),
    now: Date.now,
  };
  return { d, events };
}

/** Copies of `id` the CRM took. */
const inCrm = (id: string) => hubspot.received.filter((s) => s.fields.kartage_lead_id === id).length;
const slackTexts = () => slack.received.map((m) => JSON.stringify(m));

describe.each(engines)('$name store: a lead the CRM will not take', (engine) => {
  it('400 (a field missing from the form): a dead letter after one attempt, with the answer; sales told', async () => {
    const store = engine.create();
    hubspot.setFormFields(EDITED_FORM);
    const refused = lead('refused');
    const fine = lead('fine', false);
    await queue(store, [refused, fine]);
    const { d, events } = deps(store);
    const r = await flushAll(d);
    // Old code: the refused lead stayed queued (attempts growing with every flush), nobody told.
    expect(await store.outboxSize()).toBe(0);
    expect(r).toEqual({
      delivered: 1,
      failed: 0,
      deadLettered: 1,
      quarantined: 0,
      remaining: 0,
      announced: 1,
      alertsFailed: 0,
    });
    expect(inCrm(fine.id)).toBe(1);
    const letters = await store.deadLetters();
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter).toMatchObject({ id: refused.id, attempts: 1, status: 400 });
    expect(JSON.parse(letter!.payload).record).toEqual(refused);
    expect(letter!.reason).toBe('the CRM refused it for good (HTTP 400)');
    expect(letter!.answer).toContain("Error in 'fields.kartage_segment'");
    expect(letter!.answer).toContain('FIELD_NOT_IN_FORM_DEFINITION');
    // The sales notification: what happened, who it is, why, and what to do.
    expect(slack.received).toHaveLength(1);
    const note = slack.received[0];
    expect(note.text).toContain(UNDELIVERED_TITLE);
    const blocks = JSON.stringify(note.blocks);
    for (const part of [refused.lead.email, refused.lead.name, 'kartage_segment', `leads:requeue -- ${refused.id}`])
      expect(blocks).toContain(part);
    expect(events.map((e) => e.event)).toContain('lead_dead_lettered');
    // Nothing left to retry: a second flush attempts nothing and tells nobody again.
    expect(await flushAll(d)).toMatchObject({ delivered: 0, failed: 0, deadLettered: 0, remaining: 0 });
    expect(slack.received).toHaveLength(1);
  });

  it('500: retried, a dead letter only past the bound of attempts, then sales told', async () => {
    const store = engine.create();
    hubspot.setMode({ status: 500 });
    const record = lead('five-hundred');
    await queue(store, [record]);
    const { d } = deps(store);
    for (let attempt = 1; attempt < THREE.maxAttempts; attempt++) {
      expect(await flushAll(d, Infinity, undefined, THREE)).toEqual({
        delivered: 0,
        failed: 1,
        deadLettered: 0,
        quarantined: 0,
        remaining: 1,
        announced: 0,
        alertsFailed: 0,
      });
      expect(slack.received).toHaveLength(0);
    }
    // Old code: still queued after the bound, and after any number of attempts.
    expect(await flushAll(d, Infinity, undefined, THREE)).toMatchObject({ failed: 0, deadLettered: 1, remaining: 0 });
    expect(await store.deadLetters()).toMatchObject([
      {
        id: record.id,
        attempts: 3,
        status: 500,
        reason: expect.stringMatching(/^still failing after 3 attempt.*HTTP 500/),
      },
    ]);
    expect(slack.received).toHaveLength(1);
    expect(JSON.stringify(slack.received[0].blocks)).toContain('The CRM answered 500');
  });

  it('a hanging CRM: each attempt cut off and retried, a dead letter only past the bound, no status', async () => {
    const store = engine.create();
    hubspot.setMode(HANG);
    const record = lead('hang');
    await queue(store, [record]);
    const { d } = deps(store);
    const two: RetryPolicy = { ...THREE, maxAttempts: 2 };
    expect(await flushAll(d, Infinity, undefined, two)).toMatchObject({ failed: 1, deadLettered: 0, remaining: 1 });
    expect(await flushAll(d, Infinity, undefined, two)).toMatchObject({ failed: 0, deadLettered: 1, remaining: 0 });
    const [letter] = await store.deadLetters();
    expect(letter).toMatchObject({ id: record.id, attempts: 2 });
    expect(letter!.reason).toMatch(/^still failing after 2 attempt\(s\) in 0 min \(last: .*(abort|timeout)/i);
    expect(letter).not.toHaveProperty('status');
    expect(slack.received).toHaveLength(1);
  });

  it('re-queued once the CRM is fixed: each delivered exactly once, however often re-queue is asked', async () => {
    const store = engine.create();
    hubspot.setFormFields(EDITED_FORM);
    const records = [lead('requeue'), lead('requeue'), lead('requeue')];
    await queue(store, records);
    const { d } = deps(store);
    expect(await flushAll(d)).toMatchObject({ deadLettered: 3, remaining: 0 });
    hubspot.setFormFields(undefined); // the field is back on the form
    // Two operators (or two runs) re-queue the same letters at once: each goes back once.
    const moved = await Promise.all(
      records.flatMap((r) => [store.deadLetterRequeue(r.id), store.deadLetterRequeue(r.id)]),
    );
    expect(moved.filter(Boolean)).toHaveLength(3);
    expect(await store.deadLetterSize()).toBe(0);
    expect(await flushAll(d)).toMatchObject({ delivered: 3, failed: 0, deadLettered: 0, remaining: 0 });
    expect(await flushAll(d)).toMatchObject({ delivered: 0, remaining: 0 });
    expect(records.map((r) => inCrm(r.id))).toEqual([1, 1, 1]);
  });

  it('the cron flush classifies the same way (a 400 is a dead letter, sales told)', async () => {
    const store = engine.create();
    hubspot.setMode({ status: 400 });
    const record = lead('cron');
    await queue(store, [record]);
    const d = createDeps({
      env: { CRON_SECRET: 'cron-dl' },
      store,
      sink: sink(),
      notifier: notifier(),
      log: () => {},
    });
    const request = new Request('http://localhost/api/cron/leads-flush', {
      headers: { authorization: 'Bearer cron-dl', 'x-real-ip': '203.0.113.7' },
    });
    const answer = await runOperation(leadsFlush, request, d);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ delivered: 0, failed: 0, deadLettered: 1, remaining: 0 });
    expect(await store.deadLetters()).toMatchObject([{ id: record.id, status: 400, attempts: 1 }]);
    expect(slackTexts().join()).toContain(UNDELIVERED_TITLE);
  });
});

describe.each(engines)('$name store: the sales webhook down when leads become dead letters', (engine) => {
  it('each alert is retried until it lands: exactly one per dead letter arrives, even with two flushes at once', async () => {
    const store = engine.create();
    hubspot.setMode({ status: 400 });
    slack.setMode({ status: 500 });
    const records = [lead('unheard'), lead('unheard'), lead('unheard')];
    await queue(store, records);
    const { d, events } = deps(store);
    // Old code: the alert was tried once, failed, and never again; nothing said which letters were unannounced.
    expect(await flushAll(d)).toMatchObject({ deadLettered: 3, remaining: 0, announced: 0, alertsFailed: 3 });
    expect(slack.received).toHaveLength(0);
    expect(await store.deadLetters()).toMatchObject(records.map((r) => ({ id: r.id, announced: false, alerts: 1 })));
    expect(events.filter((e) => e.event === 'lead_notify_failed')).toHaveLength(3);
    // Still down at the next flush: tried again (the first two retries come at once), still unannounced.
    expect(await flushAll(d)).toMatchObject({ deadLettered: 0, announced: 0, alertsFailed: 3 });
    expect((await store.deadLetters()).map((l) => [l.announced, l.alerts])).toEqual(Array(3).fill([false, 2]));
    // The webhook is back; two flushes run at once.
    slack.setMode('ok');
    const both = await Promise.all([flushAll(d), flushAll(deps(store).d)]);
    expect(both.map((r) => r.announced).reduce((a, b) => a + b)).toBe(3);
    expect(await flushAll(d)).toMatchObject({ announced: 0, alertsFailed: 0 });
    const told = slack.received.map((m) => records.findIndex((r) => JSON.stringify(m.blocks).includes(r.id)));
    expect(told.sort()).toEqual([0, 1, 2]);
    expect((await store.deadLetters()).map((l) => l.announced)).toEqual([true, true, true]);
    // A re-queued letter that fails again is a new dead letter, told of again.
    expect(await store.deadLetterRequeue(records[0]!.id)).toBe(true);
    expect(await flushAll(d)).toMatchObject({ deadLettered: 1, announced: 1 });
    expect(slack.received).toHaveLength(4);
  });
});

describe('the retry policy', () => {
  it('retries at once twice, then waits from a minute, doubling; a dead letter at 25 attempts', async () => {
    let now = Date.UTC(2026, 10, 23, 9, 0, 0);
    const clock = () => now;
    const store = createSqliteStore({
      file: join(await mkdtemp(join(tmpdir(), 'kartage-dl-')), 'kartage.db'),
      now: clock,
    });
    hubspot.setMode('5xx');
    await queue(store, [lead('policy')]);
    const d = { ...deps(store).d, now: clock };
    const waits: number[] = [];
    for (let attempt = 1; attempt <= RETRY_POLICY.maxAttempts; attempt++) {
      const wait = attempt === 1 ? 0 : RETRY_POLICY.delayMs(attempt - 1);
      waits.push(wait);
      if (wait > 0) {
        // Not before its backoff ends: nothing is claimed a second early.
        now += wait - 1_000;
        expect(await flushAll(d)).toMatchObject({ failed: 0, deadLettered: 0, remaining: 1 });
        now += 1_000;
      }
      const r = await flushAll(d);
      expect(r.failed + r.deadLettered).toBe(1);
      expect(r.deadLettered).toBe(attempt === RETRY_POLICY.maxAttempts ? 1 : 0);
    }
    expect(waits.slice(0, 9)).toEqual([0, 0, 0, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]);
    expect(Math.max(...waits)).toBe(3_600_000);
    expect(await store.deadLetters()).toMatchObject([{ attempts: 25, status: 503 }]);
  }, 30_000);

  it("a dead letter's alert waits its backoff like a delivery: at once twice, then a minute, doubling", async () => {
    let now = Date.UTC(2026, 10, 23, 9, 0, 0);
    const clock = () => now;
    const store = createSqliteStore({
      file: join(await mkdtemp(join(tmpdir(), 'kartage-dl-')), 'kartage.db'),
      now: clock,
    });
    hubspot.setMode({ status: 400 });
    slack.setMode({ status: 500 });
    await queue(store, [lead('backoff')]);
    const d = { ...deps(store).d, now: clock };
    const tried = async () => (await flushAll(d)).alertsFailed;
    expect([await tried(), await tried(), await tried()]).toEqual([1, 1, 1]);
    for (const wait of [60_000, 120_000, 240_000]) {
      now += wait - 1_000;
      expect(await tried()).toBe(0); // not a second early
      now += 1_000;
      expect(await tried()).toBe(1);
    }
    slack.setMode('ok');
    now += 480_000;
    expect(await flushAll(d)).toMatchObject({ announced: 1, alertsFailed: 0 });
    expect(await store.deadLetters()).toMatchObject([{ announced: true, alerts: 7 }]);
    expect(slack.received).toHaveLength(1);
  });

  it('a lead queued longer than the age bound goes to the dead letters at its next failure', async () => {
    let now = Date.UTC(2026, 10, 23, 9, 0, 0);
    const clock = () => now;
    const store = createSqliteStore({
      file: join(await mkdtemp(join(tmpdir(), 'kartage-dl-')), 'kartage.db'),
      now: clock,
    });
    hubspot.setMode(HANG);
    await queue(store, [lead('old')]);
    now += RETRY_POLICY.maxAgeMs;
    const r = await flushAll({ ...deps(store).d, now: clock });
    expect(r).toMatchObject({ failed: 0, deadLettered: 1, remaining: 0 });
    expect((await store.deadLetters())[0]!.reason).toMatch(/^still failing after 1 attempt\(s\) in 48 h/);
  });

  it('classifies what the CRM answered: other 4xx refused for good; 408, 429, 5xx, no answer worth a retry', async () => {
    const s = sink();
    const failure = async () => {
      try {
        await s.deliver(lead('classify'));
      } catch (e) {
        return classifyFailure(e);
      }
      throw new Error('delivered');
    };
    for (const status of [400, 401, 403, 404, 409, 410, 422]) {
      hubspot.setMode({ status });
      expect(await failure()).toMatchObject({ transient: false, status, answer: expect.stringContaining(`${status}`) });
    }
    for (const status of [408, 429, 500, 502, 503, 504]) {
      hubspot.setMode({ status });
      expect(await failure()).toMatchObject({ transient: true, status });
    }
    for (const mode of ['down', HANG] as const) {
      hubspot.setMode(mode);
      const f = await failure();
      expect(f.transient).toBe(true);
      expect(f).not.toHaveProperty('status');
    }
  });
});

/** A script under server/ with `env`; resolves with its exit code, stdout and stderr. */
function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((ok) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'server', script), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('exit', (code) => ok({ code, out, err }));
  });
}
const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/**
 * The settings the commands run with (the fake HubSpot, the fake Slack, a fresh var folder or the bridge's
 * Redis), and the store they open: the file in KARTAGE_VAR_DIR, or Upstash under its default prefix.
 */
async function commandSetup(kind: 'embedded' | 'upstash') {
  const varDir = await mkdtemp(join(tmpdir(), 'kartage-dl-cli-'));
  const env: Record<string, string> = {
    KARTAGE_VAR_DIR: varDir,
    HUBSPOT_ACCESS_TOKEN: auth.token,
    HUBSPOT_PORTAL_ID: auth.portalId,
    HUBSPOT_FORM_ID: auth.formId,
    HUBSPOT_API_BASE: hubspot.url,
    LEAD_SINK_TIMEOUT_MS: '500',
    SALES_WEBHOOK_URL: slack.url,
    ...(kind === 'upstash' ? redisEnv() : {}),
  };
  const store =
    kind === 'upstash'
      ? createUpstashStore({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN! })
      : createSqliteStore({ file: join(varDir, 'kartage.db') });
  return { varDir, env, store };
}

describe.each(['embedded', 'upstash'] as const)('the commands, %s store', (kind) => {
  it('leads:flush counts dead letters, leads:export lists them, leads:requeue puts each back once', async () => {
    const { varDir, env, store } = await commandSetup(kind);
    hubspot.setFormFields(EDITED_FORM);
    const refused = lead('cli');
    const fine = lead('cli', false);
    await queue(store, [refused, fine]);

    const flushed = await run('leads-flush.ts', [], env);
    expect(lastLine(flushed.out)).toBe(
      'delivered 1, retrying 0, dead-lettered 1, quarantined 0, left in the outbox 0; ' +
        '1 lead(s) in the dead letters (npm run leads:export -- --dead-letters)',
    );
    expect(flushed.code).toBe(3); // nothing left to retry, but a person must act
    expect(slackTexts().join()).toContain(refused.lead.email);

    const file = join(varDir, 'dead-letters.jsonl');
    const exported = await run('leads-export.ts', ['--dead-letters', file], env);
    expect(exported.code).toBe(0);
    expect(exported.err).toMatch(/^exported 1 dead letter\(s\)/);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      id: refused.id,
      attempts: 1,
      status: 400,
      answer: expect.stringContaining('kartage_segment'),
      reason: expect.stringContaining('refused it for good'),
      record: refused,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    hubspot.setFormFields(undefined);
    expect((await run('leads-requeue.ts', [], env)).code).toBe(2);
    const requeued = await run('leads-requeue.ts', ['--all'], env);
    expect(requeued.code).toBe(0);
    expect(lastLine(requeued.out)).toMatch(/^re-queued 1 of 1 dead letter\(s\) .*; 0 left in the dead letters/);
    const twice = await run('leads-requeue.ts', [refused.id], env);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('not in the dead letters');

    const delivered = await run('leads-flush.ts', [], env);
    expect(delivered.code).toBe(0);
    expect(lastLine(delivered.out)).toBe(
      'delivered 1, retrying 0, dead-lettered 0, quarantined 0, left in the outbox 0',
    );
    expect([inCrm(refused.id), inCrm(fine.id)]).toEqual([1, 1]);
  }, 60_000);
});

describe.each(['embedded', 'upstash'] as const)('leads:flush with the sales webhook down, %s store', (kind) => {
  it('lists the dead letters sales were not told of, and tells them once the webhook is back', async () => {
    const { env, store } = await commandSetup(kind);
    const prefix = `unheard${process.pid}`;
    hubspot.setMode({ status: 400 });
    slack.setMode({ status: 500 });
    const refused = lead(prefix);
    await queue(store, [refused]);
    const down = await run('leads-flush.ts', [], env);
    expect(down.code).toBe(3);
    expect(down.out).toContain('not yet announced to sales');
    expect(down.out).toMatch(
      new RegExp(`\\n  ${refused.id}: dead letter since \\d{4}-.*, 1 alert\\(s\\) tried; the CRM refused`),
    );
    expect(lastLine(down.out)).toMatch(/dead-lettered 1, .* in the dead letters .*, \d+ of them not yet announced/);
    const still = await run('leads-flush.ts', [], env);
    expect(still.code).toBe(3);
    expect(still.out).toContain(`  ${refused.id}: dead letter since`);
    expect(slack.received).toHaveLength(0);
    slack.setMode('ok');
    const back = await run('leads-flush.ts', [], env);
    expect(back.out).not.toContain(refused.id);
    expect(slack.received.filter((m) => JSON.stringify(m.blocks).includes(refused.id))).toHaveLength(1);
    const after = await run('leads-flush.ts', [], env);
    expect(after.out).not.toContain('not yet announced');
    expect(slack.received.filter((m) => JSON.stringify(m.blocks).includes(refused.id))).toHaveLength(1);
  }, 60_000);
});
