/**
 * @module Server throughput with autocannon: our local server (bench/serve.ts, a child process) next to a
 * plain Node static server (bench/plain-static.ts, also a child) on the same files, with the same
 * connections and duration. Rows: a static file (the pricing page's markdown twin, not metered); the
 * pricing page's JSON through getPage (metered: one rate-limit check per request); the plain server on
 * each of those two files; sirv on the static file; and the limit: node:http answering the same bytes from
 * memory. `ratios` compares ours with sirv and with the limit, all from this one run.
 *
 * getPage spends the 120/min read budget of the client, and autocannon cannot bind source addresses, so
 * for that row our server runs with TRUST_PROXY (the documented setting for a proxy in front) and each
 * request carries an `X-Forwarded-For` from a pool of 4,096 loopback addresses: every request is metered
 * and counted, none is refused. The plain server reads the file on every request (no cache, no ETag); ours
 * keeps files in memory after a stat.
 */
import { join } from 'node:path';
// @ts-expect-error autocannon 9 ships no type declarations
import autocannon from 'autocannon';
import { forkServer, loopbackAddress, type ChildServer } from './lib.ts';

export interface ThroughputRow {
  name: string;
  server: 'ours' | 'plain node' | 'sirv' | 'limit';
  path: string;
  metered: boolean;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  bytesPerSec: number;
  requests: number;
  statusCounts: Record<string, number>;
  errors: number;
}

interface AcResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}

async function cannon(url: string, seconds: number, connections: number, xff: boolean): Promise<AcResult> {
  let n = 0;
  const opts: Record<string, unknown> = { url, connections, duration: seconds, pipelining: 1 };
  if (xff) {
    opts.requests = [
      {
        setupRequest: (req: { headers?: Record<string, string> }) => {
          req.headers = { ...req.headers, 'x-forwarded-for': loopbackAddress(200, n++ % 4096) };
          return req;
        },
      },
    ];
  }
  return (await autocannon(opts as never)) as unknown as AcResult;
}

function row(
  name: string,
  server: ThroughputRow['server'],
  path: string,
  metered: boolean,
  r: AcResult,
): ThroughputRow {
  const statusCounts: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) statusCounts[k] = Number(v.count);
  return {
    name,
    server,
    path,
    metered,
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    bytesPerSec: r.throughput.average,
    requests: r.requests.total,
    statusCounts,
    errors: r.errors,
  };
}

/** Our req/s over the others' in one run: static file vs sirv and vs the in-memory limit, getPage vs the limit. */
type Ratios = Record<'staticVsSirv' | 'staticVsLimit' | 'getPageVsLimit', number | undefined>;
export function ratios(rows: ThroughputRow[]): Ratios {
  const rate = (server: ThroughputRow['server']) =>
    rows.find((r) => r.server === server && r.path === '/pricing.md')?.reqPerSec;
  const ours = rate('ours');
  const sirvRate = rate('sirv');
  const limit = rate('limit');
  const getPage = rows.find((r) => r.server === 'ours' && r.metered)?.reqPerSec;
  const div = (a?: number, b?: number) => (a && b ? Math.round((a / b) * 100) / 100 : undefined);
  return { staticVsSirv: div(ours, sirvRate), staticVsLimit: div(ours, limit), getPageVsLimit: div(getPage, limit) };
}

/** One row's rounds summed: req/s over all its requests, the median p50, the worst p99. */
function combine(
  name: string,
  server: ThroughputRow['server'],
  path: string,
  metered: boolean,
  rounds: AcResult[],
): ThroughputRow {
  const parts = rounds.map((r) => row(name, server, path, metered, r));
  const statusCounts: Record<string, number> = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries(p.statusCounts)) statusCounts[k] = (statusCounts[k] ?? 0) + v;
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    name,
    server,
    path,
    metered,
    reqPerSec: avg(parts.map((p) => p.reqPerSec)),
    p50Ms: mid(parts.map((p) => p.p50Ms)),
    p99Ms: Math.max(...parts.map((p) => p.p99Ms)),
    bytesPerSec: avg(parts.map((p) => p.bytesPerSec)),
    requests: parts.reduce((a, p) => a + p.requests, 0),
    statusCounts,
    errors: parts.reduce((a, p) => a + p.errors, 0),
  };
}

/**
 * All four servers run at once (idle but for the row being measured), and the rows take turns in
 * `rounds` short rounds: on a shared machine, load from elsewhere then falls on every row alike instead of
 * on whichever ran at the wrong moment, so the ratios of one run mean something.
 */
export async function runThroughput(opts: {
  distDir: string;
  dataDir: string;
  seconds: number;
  connections: number;
  rounds?: number;
}): Promise<ThroughputRow[]> {
  const env = { BENCH_DIST_DIR: opts.distDir, BENCH_DATA_DIR: opts.dataDir, BENCH_TRUST_PROXY: '1' };
  const rounds = Math.max(1, opts.rounds ?? Math.min(4, opts.seconds));
  const fork = (mode?: string) =>
    mode
      ? forkServer(join(import.meta.dirname, 'plain-static.ts'), { args: [opts.distDir, mode] })
      : forkServer(join(import.meta.dirname, 'serve.ts'), { env });
  const servers: ChildServer[] = [];
  try {
    const [ours, plain, sirvServer, limit] = await Promise.all([fork(), fork('plain'), fork('sirv'), fork('memory')]);
    servers.push(ours!, plain!, sirvServer!, limit!);
    const plan: [string, ChildServer, ThroughputRow['server'], string, boolean][] = [
      ['static file (markdown twin)', ours!, 'ours', '/pricing.md', false],
      ['getPage JSON (metered)', ours!, 'ours', '/api/v1/pages/pricing', true],
      ['static file (markdown twin)', plain!, 'plain node', '/pricing.md', false],
      ['page JSON file', plain!, 'plain node', '/api/v1/pages/pricing.json', false],
      ['static file (markdown twin)', sirvServer!, 'sirv', '/pricing.md', false],
      ['static file (markdown twin)', limit!, 'limit', '/pricing.md', false],
    ];
    // Warm up.
    for (const [, server, , path, metered] of plan) await cannon(server.url + path, 1, opts.connections, metered);
    const results: AcResult[][] = plan.map(() => []);
    const slice = Math.max(1, Math.round(opts.seconds / rounds));
    for (let round = 0; round < rounds; round++) {
      for (const [i, [, server, , path, metered]] of plan.entries()) {
        results[i]!.push(await cannon(server.url + path, slice, opts.connections, metered));
      }
    }
    return plan.map(([name, , kind, path, metered], i) => combine(name, kind, path, metered, results[i]!));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
