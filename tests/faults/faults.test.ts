/**
 * Faults while the server is under a steady mix of reads and lead submissions: Redis (a real
 * redis-server behind the Upstash bridge) is stalled, then killed and restarted; the CRM (a local fake of
 * HubSpot's API) goes down. Reads keep being served, nothing answers 5xx but the contract's 502, and no
 * accepted lead is lost: afterwards every lead answered 200 is in the CRM or, until the flush, the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createHubSpotSink } from '../../src/adapters/hubspot-sink.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import { flushAll } from '../../src/core/leads.ts';
import type { RunningServer } from '../../server/main.ts';
import { startFakeHubSpot } from '../helpers/fake-crm.ts';
import { postJson, send, type HttpAnswer } from '../helpers/http.ts';
import { startRedis, type RunningRedis } from '../helpers/redis-server.ts';
import { startTestServer, PROJECT_ROOT } from '../helpers/server.ts';
import { startUpstashBridge } from '../helpers/upstash-bridge.ts';

const auth = { token: 'pat-test', portalId: '42', formId: 'f-1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Fails the request (and so the test) instead of waiting for ever. */
const within = <T>(p: Promise<T>, ms = 10_000) =>
  Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`no answer within ${ms} ms`)))]);

type Phase = 'normal' | 'redis stalled' | 'crm down' | 'crm down, redis killed' | 'recovered';

describe('faults under load', () => {
  let dir: string;
  let redis: RunningRedis;
  let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
  let hubspot: Awaited<ReturnType<typeof startFakeHubSpot>>;
  let server: RunningServer;
  let store: ReturnType<typeof createUpstashStore>;
  const events: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kartage-faults-'));
    redis = await startRedis({ dir, durable: true });
    bridge = await startUpstashBridge({ redisPort: redis.port });
    hubspot = await startFakeHubSpot(auth);
    store = createUpstashStore({
      url: bridge.url,
      token: bridge.token,
      timeoutMs: 200,
      leadTimeoutMs: 400,
      prefix: 'faults',
    });
    const sink = createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 300 });
    server = await startTestServer({
      deps: createDeps({
        env: process.env,
        dataDir: join(PROJECT_ROOT, 'build'),
        store,
        sink,
        log: (e) => events.push(e),
      }),
    });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await bridge?.stop();
    await hubspot?.stop();
    redis.process.kill('SIGCONT');
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps serving reads, answers only 200 or 502 to leads, and loses no accepted lead', async () => {
    let phase: Phase = 'normal';
    let running = true;
    let n = 0;
    const reads: { phase: Phase; status: number }[] = [];
    // A lead is labelled with the phases it started and ended in: it may straddle a change.
    const leads: { phase: Phase; end: Phase; marker: string; answer: HttpAnswer }[] = [];
    const readPaths = ['/api/v1/pages?limit=5', '/api/v1/pages/pricing', '/api/v1/search?q=crew%20app', '/pricing.md'];

    const reader = async (w: number) => {
      for (let i = 0; running; i++) {
        const from = `127.9.${w}.${(i % 200) + 2}`;
        const p = phase;
        const r = await within(send(`${server.url}${readPaths[i % readPaths.length]}`, { from }));
        reads.push({ phase: p, status: r.status });
      }
    };
    const submitter = async (w: number) => {
      while (running) {
        const id = ++n;
        const marker = `fault-lead-${id}`;
        const p = phase;
        const answer = await within(
          postJson(
            `${server.url}/api/lead`,
            { name: `Lead ${id}`, email: `lead${id}@example.com`, message: marker },
            { from: `127.8.${w}.${(id % 250) + 2}`, headers: { 'Idempotency-Key': marker } },
          ),
        );
        leads.push({ phase: p, end: phase, marker, answer });
        await sleep(20);
      }
    };
    const workers = [reader(1), reader(2), submitter(1), submitter(2)];

    await sleep(1_200);
    phase = 'redis stalled';
    redis.process.kill('SIGSTOP');
    await sleep(1_500);
    redis.process.kill('SIGCONT');
    phase = 'crm down';
    hubspot.setMode('down');
    await sleep(1_500);
    phase = 'crm down, redis killed';
    redis.process.kill('SIGKILL');
    await sleep(1_500);
    redis = await startRedis({ port: redis.port, dir, durable: true }); // the append-only file brings the outbox back
    hubspot.setMode('ok');
    phase = 'recovered';
    await sleep(1_200);
    running = false;
    await Promise.all(workers);

    const byPhase = (list: { phase: Phase }[], ph: Phase) => list.filter((x) => x.phase === ph);
    for (const ph of ['normal', 'redis stalled', 'crm down', 'crm down, redis killed', 'recovered'] as Phase[]) {
      const r = byPhase(reads, ph) as typeof reads;
      expect(r.length, `reads during ${ph}`).toBeGreaterThan(0);
      expect(r.filter((x) => x.status === 200).length, `reads served during ${ph}`).toBeGreaterThan(0);
      expect(byPhase(leads, ph).length, `leads during ${ph}`).toBeGreaterThan(0);
    }
    expect(new Set(reads.map((r) => r.status))).toEqual(new Set([200]));
    for (const l of leads) {
      // 502 only when neither the CRM nor the outbox could take the lead.
      const bothDown = l.phase === 'crm down, redis killed' || l.end === 'crm down, redis killed';
      if (bothDown) expect([200, 502], l.marker).toContain(l.answer.status);
      else expect(l.answer.status, `${l.marker} during ${l.phase}`).toBe(200);
      if (l.answer.status === 502) expect(l.answer.json().error).toMatch(/chat/);
    }
    expect(leads.filter((l) => l.phase === 'crm down, redis killed' && l.answer.status === 502).length).toBeGreaterThan(
      0,
    );
    expect(events).toEqual(
      expect.arrayContaining(['store_fallback', 'lead_sink_failed', 'lead_queued', 'lead_outbox_failed']),
    );

    // Nothing half-written on our side: a lead answered 502 never reached the outbox. (It may have reached
    // the CRM: a CRM that records a lead but answers after our bound looks like a failure from here.) The one
    // exception is a request cut by the kill itself: Redis can append the entry to its append-only file and
    // die before its reply leaves, so the write is kept while we saw an error (a lost acknowledgement; the
    // delivery id lets the CRM drop the duplicate if the visitor sends again). Seen once in a CI run.
    const queued = (await store.outboxClaim(10_000, 1)).map((e) => JSON.parse(e.payload).record.lead.message as string);
    await new Promise((r) => setTimeout(r, 1_100)); // this look's lease ends
    const cutByKill = (l: (typeof leads)[number]) => l.phase !== l.end && l.end === 'crm down, redis killed';
    expect(leads.filter((l) => l.answer.status === 502 && queued.includes(l.marker) && !cutByKill(l))).toEqual([]);

    // The outbox (recovered from Redis's append-only file) replays to the CRM; nothing accepted is missing.
    const flushed = await flushAll({
      now: Date.now,
      store,
      sink: createHubSpotSink({ ...auth, baseUrl: hubspot.url, timeoutMs: 1_000 }),
      log: () => {},
    });
    expect(flushed.remaining).toBe(0);
    expect(flushed.delivered).toBeGreaterThan(0);
    const inCrm = new Set(hubspot.received.map((s) => s.fields.message));
    const accepted = leads.filter((l) => l.answer.status === 200);
    expect(accepted.filter((l) => !inCrm.has(l.marker)).map((l) => `${l.marker} (${l.phase})`)).toEqual([]);
  }, 60_000);
});
