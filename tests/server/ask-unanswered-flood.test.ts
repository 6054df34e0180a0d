/**
 * A report one flood cannot poison (the store's side): on every store engine (the embedded
 * SQLite file, Upstash over a real redis-server behind the REST bridge, the in-process store), through the
 * recorder the chat uses. A question counts once per client and day, under a daily hash of the client (the
 * address is stored nowhere); and the attack that was shown to work, 5,200 requests from 50 addresses in a few
 * seconds (50 spam questions asked from 4 addresses each, then 5,000 one-off questions), leaves every question
 * real visitors asked once in place, with no spam or junk in the report. Then over HTTP: POST /api/v1/ask hands
 * the recorder the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from '@upstash/redis';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { createSqliteStore } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import { askerId, createUnansweredRecorder, DAY_MS } from '../../src/core/unanswered/index.ts';
import type { Store } from '../../src/core/ports.ts';
import type { RunningServer } from '../../server/main.ts';
import { postJson } from '../helpers/http.ts';
import { useEngines } from '../helpers/engines.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

const { engines, bridge } = useEngines();
const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);

/** A recorder over `store` on the clock `clock.t`, and a way to wait for every write it started. */
function recorder(store: Store, clock = { t: T0 }) {
  let pending: Promise<unknown>[] = [];
  const record = createUnansweredRecorder({
    store,
    log: () => {},
    now: () => clock.t,
    defer: (work) => void pending.push(work),
    timeoutMs: 120_000,
  });
  const settled = async () => {
    const all = pending;
    pending = [];
    await Promise.all(all);
  };
  return { record, settled, clock };
}

/** `n` as letters only (a, b, …, ba, bb, …): distinct words with no digits for the scrub to replace. */
const letters = (n: number): string =>
  (n < 26 ? '' : letters(Math.floor(n / 26) - 1)) + 'abcdefghijklmnopqrstuvwxyz'[n % 26];

const VERBS = ['track', 'bill', 'schedule', 'invoice', 'quote', 'store', 'insure', 'photograph', 'label', 'route'];
const THINGS = ['pianos', 'pallets', 'containers', 'artworks', 'vehicles', 'wine cellars', 'pets', 'archives'];
/** What visitors asked, each once: 240 questions, and one asked by five. */
const REAL = VERBS.flatMap((v) =>
  THINGS.flatMap((t) => [`can kartage ${v} ${t}`, `how do crews ${v} ${t} overseas`, `does the app ${v} ${t}`]),
);
const POPULAR = 'do you integrate with myob';
const SPAM = Array.from({ length: 50 }, (_, i) => `cheap removals at evil-movers.example offer ${letters(i)}`);
const JUNK = (i: number) => `zz ${letters(i + 1000)} qq ${letters(i * 7 + 3)}`;

describe.each(engines)('$name store: unanswered questions from many clients', (engine) => {
  it('a question counts once per client and day, and the address is stored nowhere', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kartage-asker-'));
    const store =
      engine.name === 'embedded'
        ? createSqliteStore({ file: join(dir, 'kartage.db') })
        : engine.name === 'upstash'
          ? createUpstashStore({ url: bridge().url, token: bridge().token, prefix: `asker${process.pid}` })
          : createMemoryStore();
    const { record, settled, clock } = recorder(store);
    for (let i = 0; i < 5; i++) record('Do you move pianos to Tasmania?', '203.0.113.77');
    // The text kept is the first stored: the other client's writes start once these have landed (over the Upstash
    // bridge two writes in flight can land in either order).
    await settled();
    record('do you move pianos to tasmania', '198.51.100.23');
    await settled();
    expect(await store.topQuestions(5)).toMatchObject([{ text: 'do you move pianos to tasmania?', count: 2 }]);
    clock.t = T0 + DAY_MS; // the next day the same client counts again
    record('Do you move pianos to Tasmania?', '203.0.113.77');
    record('Do you move pianos to Tasmania?', '203.0.113.77');
    await settled();
    expect(await store.topQuestions(5)).toMatchObject([{ count: 3 }]);
    // Without a client (a caller that knows none), every asking counts.
    record('is there a tasmanian depot');
    record('is there a tasmanian depot');
    await settled();
    expect((await store.topQuestions(5)).map((q) => q.count)).toEqual([3, 2]);
    // What the store holds names no address: only the day's hash of it.
    const asker = await askerId('203.0.113.77', T0);
    expect(asker).toMatch(/^[0-9a-f]{32}$/);
    expect(asker).not.toBe(await askerId('203.0.113.77', T0 + DAY_MS));
    if (engine.name === 'embedded') {
      const bytes = readdirSync(dir)
        .filter((f) => f.startsWith('kartage.db'))
        .map((f) => readFileSync(join(dir, f)).toString('latin1'))
        .join('');
      expect(bytes).toContain('tasmania');
      expect(bytes).not.toContain('203.0.113.77');
      expect(bytes).not.toContain('198.51.100.23');
    }
    if (engine.name === 'upstash') {
      const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
      const keys = await redis.keys(`asker${process.pid}:*`);
      expect(keys.some((k) => k.includes(asker))).toBe(true);
      expect(keys.join(' ')).not.toMatch(/203\.0\.113|198\.51\.100/);
      const ttl = await redis.pttl(`asker${process.pid}:ask:asker:${asker}`);
      expect(ttl).toBeGreaterThan(0); // it goes when its day ends
      expect(ttl).toBeLessThanOrEqual(DAY_MS);
    }
  });

  it('5,200 requests from 50 addresses: every question asked once stays, no spam or junk in the report', async () => {
    const store = engine.create({ timeoutMs: 30_000 });
    const { record, settled, clock } = recorder(store);
    // The morning's visitors, one question each (and one question five of them asked).
    for (const [i, q] of REAL.entries()) {
      clock.t = T0 + i * 30_000;
      record(q, `198.51.100.${i % 250}`);
      if (i % 50 === 0) await settled();
    }
    for (let i = 0; i < 5; i++) record(POPULAR, `203.0.113.${i}`);
    await settled();
    // The flood: in five seconds, 50 spam questions from 4 addresses each (as their first questions), then
    // 5,000 one-off questions, all from 50 addresses in turn.
    const flood = [
      ...Array.from({ length: 200 }, (_, j) => ({ q: SPAM[Math.floor(j / 4)]!, from: j % 50 })),
      ...Array.from({ length: 5_000 }, (_, j) => ({ q: JUNK(j), from: j % 50 })),
    ];
    const start = T0 + 8 * 3_600_000;
    for (const [j, { q, from }] of flood.entries()) {
      clock.t = start + j;
      record(q, `192.0.2.${from + 1}`);
      if (j % 100 === 99) await settled();
    }
    await settled();
    const all = await store.topQuestions(10_000);
    const texts = new Set(all.map((q) => q.text));
    // Before: the 5,000-row bound evicted every question asked once, and the spam (4 each) topped the report.
    expect(REAL.filter((q) => !texts.has(q))).toEqual([]);
    expect(all[0]).toMatchObject({ text: POPULAR, count: 5 });
    expect(all.filter((q) => / offer |^zz /.test(q.text))).toEqual([]);
    expect(all).toHaveLength(REAL.length + 1);
  }, 180_000);
});

describe('POST /api/v1/ask', () => {
  const servers: RunningServer[] = [];
  let url = '';
  let store: Store;
  beforeAll(async () => {
    store = createMemoryStore();
    const deps = createDeps({ env: process.env, dataDir: join(PROJECT_ROOT, 'build'), store, log: () => {} });
    const server = await startTestServer({ deps });
    servers.push(server);
    url = server.url;
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('counts an unanswered question once per client, whatever it resends', async () => {
    const question = { question: 'Do you integrate with Salesforce?' };
    for (const from of ['127.0.5.1', '127.0.5.1', '127.0.5.1', '127.0.5.2']) {
      const r = await postJson(`${url}/api/v1/ask`, question, { from });
      expect(r.status).toBe(200);
      expect(r.json().answered).toBe(false);
    }
    let top = await store.topQuestions(5);
    for (let i = 0; i < 50 && top[0]?.count !== 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      top = await store.topQuestions(5);
    }
    expect(top).toMatchObject([{ text: 'do you integrate with salesforce?', count: 2 }]);
  });
});
