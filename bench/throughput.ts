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

function row(name: string, server: ThroughputRow['server'], path: string, metered: boolean, r: AcResult): ThroughputRow {
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
export function ratios(rows: ThroughputRow[]): { staticVsSirv?: number; staticVsLimit?: number; getPageVsLimit?: number } {
  const rate = (server: ThroughputRow['server'], metered: boolean) => rows.find((r) => r.server === server && r.metered === metered && r.path === '/pricing.md')?.reqPerSec;
  const ours = rate('ours', false);
  const sirvRate = rate('sirv', false);
  const limit = rate('limit', false);
  const getPage = rows.find((r) => r.server === 'ours' && r.metered)?.reqPerSec;
  const div = (a?: number, b?: number) => (a && b ? Math.round((a / b) * 100) / 100 : undefined);
  return { staticVsSirv: div(ours, sirvRate), staticVsLimit: div(ours, limit), getPageVsLimit: div(getPage, limit) };
}

export async function runThroughput(opts: { distDir: string; dataDir: string; seconds: number; connections: number }): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  const env = { BENCH_DIST_DIR: opts.distDir, BENCH_DATA_DIR: opts.dataDir, BENCH_TRUST_PROXY: '1' };
  const run = async (name: string, server: ChildServer, kind: ThroughputRow['server'], path: string, metered: boolean) => {
    await cannon(server.url + path, 1, opts.connections, metered); // warm-up
    rows.push(row(name, kind, path, metered, await cannon(server.url + path, opts.seconds, opts.connections, metered)));
  };
  const ours = await forkServer(join(import.meta.dirname, 'serve.ts'), { env });
  try {
    await run('static file (markdown twin)', ours, 'ours', '/pricing.md', false);
    await run('getPage JSON (metered)', ours, 'ours', '/api/v1/pages/pricing', true);
  } finally {
    await ours.stop();
  }
  const plain = await forkServer(join(import.meta.dirname, 'plain-static.ts'), { args: [opts.distDir] });
  try {
    await run('static file (markdown twin)', plain, 'plain node', '/pricing.md', false);
    await run('page JSON file', plain, 'plain node', '/api/v1/pages/pricing.json', false);
  } finally {
    await plain.stop();
  }
  const sirvServer = await forkServer(join(import.meta.dirname, 'plain-static.ts'), { args: [opts.distDir, 'sirv'] });
  try {
    await run('static file (markdown twin)', sirvServer, 'sirv', '/pricing.md', false);
  } finally {
    await sirvServer.stop();
  }
  const limit = await forkServer(join(import.meta.dirname, 'plain-static.ts'), { args: [opts.distDir, 'memory'] });
  try {
    await run('static file (markdown twin)', limit, 'limit', '/pricing.md', false);
  } finally {
    await limit.stop();
  }
  return rows;
}
