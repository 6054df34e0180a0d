/**
 * @module `npm run load`: drives the local server with a realistic mix of reads from many client
 * addresses on loopback, bounded in time and request count, and reports throughput, latency percentiles,
 * the status mix and the server's memory before and after. Writes bench/load.md and bench/load.json.
 *
 * Two phases:
 * 1. The mix (our own driver: node:http with one keep-alive agent per source address, because autocannon
 *    cannot bind a source address): page JSON (getPage), markdown twins (`/<slug>.md` and
 *    `Accept: text/markdown` on page URLs), search, batch, the lead sandbox (valid and invalid payloads)
 *    and listPages, from LOAD_CLIENTS addresses in 127.10.0.0/16, each well under the 120/min read
 *    budget, plus a few greedy clients (127.11.0.x) that spend theirs and get 429s. Expected answers:
 *    200, 422 (sandbox payloads with problems, on purpose) and 429 (greedy clients). Anything else,
 *    or a network error, is an error: the run fails when there is one.
 * 2. autocannon on two unmetered static URLs (a markdown twin and the home page HTML) from one address.
 *
 * The server runs in a child process (bench/serve.ts over the project's dist/ and build/, embedded
 * store, request log on as with `npm start`), so the driver does not share its event loop. Only loopback
 * targets are accepted. Settings (env): LOAD_SECONDS (30, max 300), LOAD_MAX_REQUESTS (200000),
 * LOAD_CONCURRENCY (64 requests in flight), LOAD_CLIENTS (1000), LOAD_GREEDY_SHARE (0.05),
 * LOAD_STATIC_SECONDS (4 per URL, 0 skips phase 2), LOAD_MIX (`search=1,getPage=2`: other weights),
 * LOAD_URL (drive a server that is already running on loopback instead; its memory is then not reported).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
// @ts-expect-error autocannon 9 ships no type declarations
import autocannon from 'autocannon';
import { QUERIES, rng } from './corpus.ts';
import {
  BENCH_DIR,
  bytes,
  ensureProjectBuild,
  forkServer,
  isLoopback,
  loopbackAddress,
  machine,
  machineLine,
  num,
  percentile,
  procMemory,
  ROOT,
  send,
  table,
  type ChildServer,
} from './lib.ts';

const env = process.env;
const SECONDS = Math.min(300, Math.max(1, Number(env.LOAD_SECONDS) || 30));
const MAX_REQUESTS = Math.max(1, Number(env.LOAD_MAX_REQUESTS) || 200_000);
const CONCURRENCY = Math.max(1, Number(env.LOAD_CONCURRENCY) || 64);
const CLIENTS = Math.min(60_000, Math.max(1, Number(env.LOAD_CLIENTS) || 1000));
const GREEDY_SHARE = Math.min(
  0.5,
  Math.max(0, env.LOAD_GREEDY_SHARE === undefined ? 0.05 : Number(env.LOAD_GREEDY_SHARE)),
);
const GREEDY_CLIENTS = 2;
const STATIC_SECONDS = Math.max(0, env.LOAD_STATIC_SECONDS === undefined ? 4 : Number(env.LOAD_STATIC_SECONDS));

type Kind = 'getPage' | 'twin' | 'twinAccept' | 'search' | 'batch' | 'sandbox' | 'listPages';
const DEFAULT_MIX: [Kind, number][] = [
  ['getPage', 30],
  ['twin', 17],
  ['twinAccept', 8],
  ['search', 20],
  ['batch', 10],
  ['sandbox', 10],
  ['listPages', 5],
];
/** LOAD_MIX=`search=1,getPage=2` replaces the weights (to look at one operation alone). */
const MIX: [Kind, number][] = env.LOAD_MIX
  ? env.LOAD_MIX.split(',').map((part) => {
      const [k, w] = part.split('=');
      if (!DEFAULT_MIX.some(([d]) => d === k))
        throw new Error(`LOAD_MIX: unknown operation ${k} (use ${DEFAULT_MIX.map(([d]) => d).join(', ')})`);
      return [k as Kind, Number(w) || 1];
    })
  : DEFAULT_MIX;
const EXPECTED = new Set([200, 422, 429]);

interface Planned {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function planner(slugs: string[], seed: number): () => Planned {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const total = MIX.reduce((a, [, w]) => a + w, 0);
  const kindOf = () => {
    let x = r() * total;
    for (const [k, w] of MIX) if ((x -= w) < 0) return k;
    return MIX[0]![0];
  };
  const pagePath = (slug: string) => (slug === 'index' ? '/' : `/${slug}`);
  const goodLead = () => ({
    name: pick(['Sam Taylor', 'Priya Raman', 'Jack Morrison', 'Mel Nguyen']),
    email: `${pick(['sam', 'ops', 'admin', 'hello'])}@${pick(['harbourline', 'tasman', 'keystone'])}.example`,
    company: 'Harbourline Removals',
    intent: pick(['demo', 'enquiry']),
  });
  return () => {
    const kind = kindOf();
    switch (kind) {
      case 'getPage':
        return { kind, method: 'GET', path: `/api/v1/pages/${pick(slugs)}` };
      case 'twin':
        return { kind, method: 'GET', path: `/${pick(slugs)}.md` };
      case 'twinAccept':
        return { kind, method: 'GET', path: pagePath(pick(slugs)), headers: { accept: 'text/markdown' } };
      case 'search':
        return {
          kind,
          method: 'GET',
          path: `/api/v1/search?q=${encodeURIComponent(pick(QUERIES))}${r() < 0.2 ? '&limit=25' : ''}`,
        };
      case 'batch': {
        const n = 1 + Math.floor(r() * 20);
        const list = Array.from({ length: n }, () => (r() < 0.05 ? 'no-such-page' : pick(slugs)));
        return { kind, method: 'POST', path: '/api/v1/pages/batch', body: JSON.stringify({ slugs: list }) };
      }
      case 'sandbox': {
        const lead: Record<string, unknown> = goodLead();
        if (r() < 0.3)
          Object.assign(
            lead,
            pick([{ email: 'not-an-email' }, { name: 'x'.repeat(130) }, { segment: 'Spaceflight' }, { name: '' }]),
          );
        return { kind, method: 'POST', path: '/api/v1/lead/validate', body: JSON.stringify(lead) };
      }
      case 'listPages':
        return {
          kind,
          method: 'GET',
          path: `/api/v1/pages?limit=${pick([10, 20, 50, 100])}${r() < 0.5 ? `&cursor=${encodeURIComponent(pick(slugs))}` : ''}`,
        };
    }
  };
}

interface KindStats {
  count: number;
  latencies: number[];
  status: Record<string, number>;
}

export interface LoadReport {
  machine: ReturnType<typeof machine>;
  loadAverage: { before: number[]; after: number[] };
  settings: {
    seconds: number;
    maxRequests: number;
    concurrency: number;
    clients: number;
    greedyClients: number;
    greedyShare: number;
    target: string;
    pages: number;
  };
  mix: {
    elapsedSeconds: number;
    requests: number;
    reqPerSec: number;
    latencyMs: { p50: number; p90: number; p99: number; max: number };
    status: Record<string, number>;
    ok200: number;
    expected422: number;
    refused429: number;
    /** 429s answered to the well-behaved clients (they stay under the budget, so 0 is expected). */
    refused429Normal: number;
    otherErrors: number;
    errorSamples: string[];
    perKind: { kind: Kind; count: number; p50: number; p99: number; status: Record<string, number> }[];
  };
  staticPhase: {
    path: string;
    reqPerSec: number;
    p50Ms: number;
    p99Ms: number;
    requests: number;
    non2xx: number;
    errors: number;
    status: Record<string, number>;
  }[];
  memory?: {
    before: NodeJS.MemoryUsage;
    after: NodeJS.MemoryUsage;
    afterGc: NodeJS.MemoryUsage;
    peakRss?: number;
  };
  passed: boolean;
}

async function runMix(base: string, slugs: string[]): Promise<LoadReport['mix']> {
  const next = planner(slugs, 42);
  const r = rng(7);
  const agents = Array.from(
    { length: CLIENTS },
    (_, i) => new Agent({ keepAlive: true, maxSockets: 4, localAddress: loopbackAddress(10, i) }),
  );
  const greedy = Array.from(
    { length: GREEDY_CLIENTS },
    (_, i) => new Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.11.0.${i + 1}` }),
  );
  const stats = new Map<Kind, KindStats>(MIX.map(([k]) => [k, { count: 0, latencies: [], status: {} }]));
  const all: number[] = [];
  const status: Record<string, number> = {};
  const errorSamples: string[] = [];
  let other = 0;
  let refusedNormal = 0;
  let sent = 0;
  let turn = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;

  const worker = async () => {
    while (performance.now() < deadline && sent < MAX_REQUESTS) {
      sent++;
      const p = next();
      const isGreedy = r() < GREEDY_SHARE;
      const agent = isGreedy ? greedy[Math.floor(r() * GREEDY_CLIENTS)]! : agents[turn++ % CLIENTS]!;
      const t = performance.now();
      let code: string;
      try {
        const answer = await send(new URL(base + p.path), {
          method: p.method,
          headers: p.headers,
          body: p.body,
          agent,
          timeoutMs: 10_000,
        });
        code = String(answer.status);
        if (answer.status === 429 && !isGreedy) refusedNormal++;
        if (!EXPECTED.has(answer.status)) {
          other++;
          if (errorSamples.length < 10)
            errorSamples.push(
              `${p.method} ${p.path} -> ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`,
            );
        }
      } catch (e) {
        code = 'network error';
        other++;
        if (errorSamples.length < 10) errorSamples.push(`${p.method} ${p.path} -> ${(e as Error).message}`);
      }
      const ms = performance.now() - t;
      const s = stats.get(p.kind)!;
      s.count++;
      s.latencies.push(ms);
      s.status[code] = (s.status[code] ?? 0) + 1;
      status[code] = (status[code] ?? 0) + 1;
      all.push(ms);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  for (const a of [...agents, ...greedy]) a.destroy();
  return {
    elapsedSeconds: elapsed,
    requests: all.length,
    reqPerSec: all.length / elapsed,
    latencyMs: {
      p50: percentile(all, 50),
      p90: percentile(all, 90),
      p99: percentile(all, 99),
      max: percentile(all, 100),
    },
    status,
    ok200: status['200'] ?? 0,
    expected422: status['422'] ?? 0,
    refused429: status['429'] ?? 0,
    refused429Normal: refusedNormal,
    otherErrors: other,
    errorSamples,
    perKind: [...stats].map(([kind, s]) => ({
      kind,
      count: s.count,
      p50: percentile(s.latencies, 50),
      p99: percentile(s.latencies, 99),
      status: s.status,
    })),
  };
}

async function runStatic(base: string): Promise<LoadReport['staticPhase']> {
  const out: LoadReport['staticPhase'] = [];
  if (!STATIC_SECONDS) return out;
  for (const path of ['/pricing.md', '/']) {
    const r = (await autocannon({
      url: base + path,
      connections: 32,
      duration: STATIC_SECONDS,
    } as never)) as unknown as {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
      statusCodeStats?: Record<string, { count: number }>;
    };
    const status = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]));
    out.push({
      path,
      reqPerSec: r.requests.average,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      requests: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors,
      status,
    });
  }
  return out;
}

const KIND_LABEL: Record<Kind, string> = {
  getPage: 'getPage JSON (metered)',
  twin: 'markdown twin /<slug>.md',
  twinAccept: 'page URL with Accept: text/markdown',
  search: 'search (metered)',
  batch: 'batch, 1-20 slugs (metered)',
  sandbox: 'lead sandbox, 30 % invalid (metered)',
  listPages: 'listPages (metered)',
};

export function loadMarkdown(rep: LoadReport): string {
  const m = rep.mix;
  const mem = rep.memory;
  const memRow = (name: string, u: NodeJS.MemoryUsage) => [
    name,
    bytes(u.rss),
    bytes(u.heapUsed),
    bytes(u.heapTotal),
    bytes(u.external + u.arrayBuffers),
  ];
  return [
    '# Load test (`npm run load`)',
    '',
    `Machine: ${machineLine(rep.machine)}. Load average (1/5/15 min) before: ${rep.loadAverage.before.map((x) => x.toFixed(2)).join(' / ')}, after: ${rep.loadAverage.after.map((x) => x.toFixed(2)).join(' / ')}.`,
    '',
    `Target: ${rep.settings.target} over ${rep.settings.pages} pages. Mix: ${rep.settings.seconds} s or ${rep.settings.maxRequests.toLocaleString('en-US')} requests (whichever first), ${rep.settings.concurrency} in flight, ${rep.settings.clients.toLocaleString('en-US')} client addresses (127.10.0.0/16) plus ${rep.settings.greedyClients} greedy ones (127.11.0.x, ${Math.round(rep.settings.greedyShare * 100)} % of requests) that exceed the 120/min read budget on purpose.`,
    '',
    `**Result: ${rep.passed ? 'PASS' : 'FAIL'}**: ${m.otherErrors} unexpected answers or network errors (must be 0).`,
    '',
    '## The mix',
    '',
    table(
      [
        'requests',
        'seconds',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        '200',
        '422 (expected)',
        '429 (expected)',
        'other errors',
      ],
      [
        [
          m.requests.toLocaleString('en-US'),
          num(m.elapsedSeconds),
          num(m.reqPerSec),
          num(m.latencyMs.p50),
          num(m.latencyMs.p90),
          num(m.latencyMs.p99),
          num(m.latencyMs.max),
          m.ok200.toLocaleString('en-US'),
          m.expected422.toLocaleString('en-US'),
          m.refused429.toLocaleString('en-US'),
          m.otherErrors,
        ],
      ],
    ),
    '',
    table(
      ['operation', 'requests', 'p50 ms', 'p99 ms', 'statuses'],
      m.perKind.map((k) => [
        KIND_LABEL[k.kind],
        k.count.toLocaleString('en-US'),
        num(k.p50),
        num(k.p99),
        Object.entries(k.status)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', '),
      ]),
    ),
    ...(m.errorSamples.length
      ? ['', 'Unexpected answers (first 10):', '', ...m.errorSamples.map((e) => `- \`${e}\``)]
      : []),
    '',
    '## Static files at full speed (autocannon, one address, 32 connections)',
    '',
    rep.staticPhase.length
      ? table(
          ['path', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'statuses', 'errors'],
          rep.staticPhase.map((s) => [
            s.path,
            num(s.reqPerSec),
            num(s.p50Ms),
            num(s.p99Ms),
            s.requests.toLocaleString('en-US'),
            Object.entries(s.status)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', '),
            s.errors,
          ]),
        )
      : 'skipped (LOAD_STATIC_SECONDS=0)',
    '',
    '## Server memory',
    '',
    mem
      ? table(
          ['when', 'RSS', 'heap used', 'heap total', 'external + buffers'],
          [
            memRow('before (started, index loaded)', mem.before),
            memRow('after the load', mem.after),
            memRow('after the load + full GC', mem.afterGc),
          ],
        ) + (mem.peakRss ? `\n\nPeak RSS of the server process: ${bytes(mem.peakRss)}.` : '')
      : 'not measured (LOAD_URL: the server is not ours to inspect)',
    '',
    'How to read it: latencies are measured by the driver (request written to answer fully read) and include',
    "the driver's own time on a shared 2-core machine; the server and the driver each get about one core.",
    `429s: ${m.refused429 - m.refused429Normal} to the greedy clients, ${m.refused429Normal} to the others (they stay under 120 per minute); 422s are the sandbox`,
    'answering payloads that have problems on purpose. "other errors" counts any other status and any',
    'network error; it must be 0. Heap after GC close to heap before means the run left nothing behind.',
    '',
  ].join('\n');
}

export async function runLoad(): Promise<LoadReport> {
  let server: ChildServer | undefined;
  let base = env.LOAD_URL;
  if (base) {
    const u = new URL(base);
    if (!isLoopback(u.hostname))
      throw new Error(`LOAD_URL must be a loopback address (127.0.0.0/8, ::1, localhost), not ${u.hostname}`);
    base = u.origin;
  } else {
    await ensureProjectBuild();
    server = await forkServer(join(BENCH_DIR, 'serve.ts'));
    base = server.url;
  }
  const slugs = server
    ? (JSON.parse(await readFile(join(ROOT, 'build/content.json'), 'utf8')) as { pages: { slug: string }[] }).pages.map(
        (p) => p.slug,
      )
    : await (async () => {
        const out: string[] = [];
        let cursor = '';
        for (let i = 0; i < 50; i++) {
          const a = await send(
            new URL(`${base}/api/v1/pages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
            { localAddress: '127.12.0.1' },
          );
          const j = JSON.parse(a.body.toString('utf8')) as { pages: { slug: string }[]; nextCursor?: string };
          out.push(...j.pages.map((p) => p.slug));
          if (!j.nextCursor) break;
          cursor = j.nextCursor;
        }
        return out;
      })();
  const loadBefore = loadavg();
  try {
    // Warm-up: a few hundred requests from other addresses, so the first requests do not pay the JIT.
    const warm = planner(slugs, 1);
    const warmAgent = new Agent({ keepAlive: true, localAddress: '127.13.0.1' });
    for (let i = 0; i < 100; i++) {
      const p = warm();
      await send(new URL(base + p.path), {
        method: p.method,
        headers: p.headers,
        body: p.body,
        agent: i % 2 ? warmAgent : undefined,
        localAddress: `127.13.1.${(i % 250) + 1}`,
      });
    }
    warmAgent.destroy();
    const before = server ? await server.memory(true) : undefined;
    process.stderr.write(`load: ${SECONDS} s mix against ${base} from ${CLIENTS} addresses…\n`);
    const mix = await runMix(base, slugs);
    const after = server ? await server.memory(false) : undefined;
    const afterGc = server ? await server.memory(true) : undefined;
    const peak = server ? (await procMemory(server.pid))?.peakRss : undefined;
    process.stderr.write('load: autocannon on static files…\n');
    const staticPhase = await runStatic(base);
    return {
      machine: machine(),
      loadAverage: { before: loadBefore, after: loadavg() },
      settings: {
        seconds: SECONDS,
        maxRequests: MAX_REQUESTS,
        concurrency: CONCURRENCY,
        clients: CLIENTS,
        greedyClients: GREEDY_CLIENTS,
        greedyShare: GREEDY_SHARE,
        target: server
          ? 'local server (bench/serve.ts: server/main.ts startServer, embedded store) in a child process'
          : base,
        pages: slugs.length,
      },
      mix,
      staticPhase,
      ...(before && after && afterGc ? { memory: { before, after, afterGc, ...(peak ? { peakRss: peak } : {}) } } : {}),
      passed: mix.otherErrors === 0 && staticPhase.every((s) => s.errors === 0 && s.non2xx === 0),
    };
  } finally {
    await server?.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const report = await runLoad();
  const md = `${loadMarkdown(report)}\nTotal time of \`npm run load\`: ${num((performance.now() - started) / 1000)} s.\n`;
  await writeFile(join(BENCH_DIR, 'load.md'), md);
  await writeFile(join(BENCH_DIR, 'load.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(md);
  process.stdout.write('\nWrote bench/load.md and bench/load.json\n');
  process.exit(report.passed ? 0 : 1);
}
