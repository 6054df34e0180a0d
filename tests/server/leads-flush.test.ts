/**
 * The flush under a time limit: with the CRM hanging, a flush with a budget takes only
 * the entries its time covers, cuts each delivery off at its bound whatever the CRM does, returns within the
 * budget and hands its unsent claims back at once, so the next flush (the CRM working again) delivers every
 * entry. A fake HubSpot over real HTTP on loopback and a real SQLite file; the budget is given, not waited
 * for: the only real waiting is the fake CRM's hang, cut at the delivery bound. And the cron secret, which
 * alone opens the flush, compared by digest so that its time says nothing about where a guess differs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHubSpotSink } from '../../src/adapters/hubspot-sink.ts';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { DELIVERY_BOUND_MS, FLUSH_BATCH, flushAll } from '../../src/core/leads.ts';
import { FLUSH_BUDGET_MS, leadsFlush, sameSecret } from '../../src/operations/leads-flush.ts';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { runOperation } from '../../src/http/pipeline.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';
import { createSlackNotifier } from '../../src/adapters/notifiers.ts';
import { type FakeService, type HubSpotSubmission, startFakeHubSpot, startFakeSlack } from '../helpers/fake-crm.ts';

const auth = { token: 'pat-na1-test', portalId: '123456', formId: '0b8f0c9e-1111-4c6b-9a8e-0a5c3e2b7d11' };
/** Longer than any test here: the CRM takes the request and never answers in time. */
const HANG = { delayMs: 60_000 };
const BUDGET_MS = 1_000;
const BOUND_MS = 250;
/** One store round trip of slack past the budget (a local SQLite commit). */
const SLACK_MS = 400;

let hubspot: FakeService<HubSpotSubmission>;
beforeAll(async () => {
  hubspot = await startFakeHubSpot(auth);
});
afterAll(async () => {
  await hubspot?.stop();
});

async function queued(n: number, tag: string): Promise<{ store: Store; ids: string[] }> {
  const store = createSqliteStore({ file: join(await mkdtemp(join(tmpdir(), 'kartage-flush-')), 'kartage.db') });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const record: LeadRecord = {
      id: `${tag}-${i}`,
      receivedAt: new Date().toISOString(),
      lead: { name: `Sam ${i}`, email: `sam${i}@harbourline.example` } as LeadRecord['lead'],
    };
    await store.outboxPush(record.id, JSON.stringify({ record }));
    ids.push(record.id);
  }
  return { store, ids };
}

const log = () => {};

describe('the cron flush with the CRM hanging', () => {
  for (const sinkTimeoutMs of [BOUND_MS, 30_000]) {
    const which = sinkTimeoutMs === BOUND_MS ? 'at its own bound' : 'never (its bound is longer than the budget)';
    it(`ends within its budget when the sink gives up ${which}; nothing lost or left leased`, async () => {
      const tag = `hang-${sinkTimeoutMs}`;
      const { store, ids } = await queued(FLUSH_BATCH, tag);
      hubspot.setMode(HANG);
      const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: sinkTimeoutMs });
      const started = Date.now();
      const r = await flushAll({ sink, store, log, now: Date.now }, BUDGET_MS, BOUND_MS);
      const took = Date.now() - started;
      // Old code: every claimed entry waited its bound (20 x 250 ms), or the sink's 30 s.
      expect(took).toBeLessThan(BUDGET_MS + SLACK_MS);
      expect(r.delivered).toBe(0);
      expect(r.failed).toBeGreaterThan(0);
      expect(r.failed).toBeLessThanOrEqual(Math.floor(BUDGET_MS / BOUND_MS));
      expect(r.remaining).toBe(FLUSH_BATCH);

      // Not stuck leased: the next flush, with the CRM answering again, takes and delivers every entry now.
      hubspot.setMode('ok');
      const before = hubspot.received.length;
      expect(await flushAll({ sink, store, log, now: Date.now }, BUDGET_MS * 10, BOUND_MS * 4)).toMatchObject({
        delivered: FLUSH_BATCH,
        remaining: 0,
      });
      const got = hubspot.received.slice(before).map((s) => s.fields.kartage_lead_id);
      expect(new Set(got)).toEqual(new Set(ids));
    }, 20_000);
  }

  it('with the CRM refusing for good and the sales webhook hanging: all dead letters, still within its time', async () => {
    const { store, ids } = await queued(FLUSH_BATCH, 'refused');
    hubspot.setMode({ status: 400 });
    const slack = await startFakeSlack();
    slack.setMode(HANG);
    try {
      const events: string[] = [];
      const notifier = createSlackNotifier({ url: slack.url, origin: 'https://kartage.com.au', timeoutMs: 30_000 });
      const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: BOUND_MS });
      const started = Date.now();
      const r = await flushAll(
        { sink, store, log: (e) => events.push(e), notifier, now: Date.now },
        BUDGET_MS,
        BOUND_MS,
      );
      // The notices get one more bound at most; the dead letters do not wait for them.
      expect(Date.now() - started).toBeLessThan(BUDGET_MS + BOUND_MS + SLACK_MS);
      expect(r).toEqual({
        delivered: 0,
        failed: 0,
        deadLettered: FLUSH_BATCH,
        quarantined: 0,
        remaining: 0,
        announced: 0,
        alertsFailed: FLUSH_BATCH, // each cut off at the bound: tried again at the next flush
      });
      expect(new Set((await store.deadLetters()).map((l) => l.id))).toEqual(new Set(ids));
      expect(events.filter((e) => e === 'lead_dead_lettered')).toHaveLength(FLUSH_BATCH);
      expect(events).toContain('lead_notify_failed');
    } finally {
      await slack.stop();
    }
  });

  it('a budget that cannot cover one delivery claims nothing', async () => {
    const { store } = await queued(3, 'none');
    hubspot.setMode(HANG);
    const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: BOUND_MS });
    const r = await flushAll({ sink, store, log, now: Date.now }, BOUND_MS - 1, BOUND_MS);
    expect(r).toEqual({
      delivered: 0,
      failed: 0,
      deadLettered: 0,
      quarantined: 0,
      remaining: 3,
      announced: 0,
      alertsFailed: 0,
    });
    hubspot.setMode('ok');
    expect((await flushAll({ sink, store, log, now: Date.now })).delivered).toBe(3);
  });

  it("the cron function's budget, one delivery bound and one for the dead letters' notices fit in maxDuration", () => {
    expect(FLUSH_BUDGET_MS + 2 * DELIVERY_BOUND_MS).toBeLessThan(
      (leadsFlush.serve as { maxDuration: number }).maxDuration * 1000,
    );
  });
});

describe('the cron secret', () => {
  const SECRET = 'a-cron-secret-of-16-plus';

  it('is compared by digest: equal only when equal, whatever the lengths and wherever they differ', async () => {
    const cases: [string, string, boolean][] = [
      [SECRET, SECRET, true],
      ['', '', true],
      ['a-cron-secret-of-16-plut', SECRET, false],
      ['b-cron-secret-of-16-plus', SECRET, false],
      [SECRET.slice(0, -1), SECRET, false],
      [`${SECRET}s`, SECRET, false],
      ['', SECRET, false],
      ['é', 'e\u0301', false],
    ];
    for (const [sent, secret, same] of cases) expect(await sameSecret(sent, secret), `${sent} / ${secret}`).toBe(same);
  });

  it('only the exact bearer secret runs the flush; a prefix, a longer or a near value is a 404', async () => {
    const deps = createDeps({ env: { CRON_SECRET: SECRET }, store: createMemoryStore(), log });
    const status = async (authorization?: string) => {
      const headers = authorization === undefined ? undefined : { authorization };
      const request = new Request('http://localhost/api/cron/leads-flush', { headers });
      return (await runOperation(leadsFlush, request, deps)).status;
    };
    expect(await status(`Bearer ${SECRET}`)).toBe(200);
    for (const wrong of [
      undefined,
      '',
      SECRET,
      `Bearer ${SECRET.slice(0, -1)}`,
      `Bearer ${SECRET}x`,
      `bearer ${SECRET}`,
    ])
      expect(await status(wrong), String(wrong)).toBe(404);
  });
});
