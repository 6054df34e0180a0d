/**
 * @module The project's post-build step over another build (the benchmark's synthetic corpus), exactly as
 * `astro build` runs it after rendering (src/build/integration.ts: deriveSite with Pagefind alongside), but
 * written to folders of our choosing. deriveSite reports its own timings: the pages alone (HTML -> Page,
 * twins, JSON, over worker threads), the whole derive work (waiting for Pagefind left out), Pagefind's own
 * run, and the step's wall clock. BENCH_DERIVE_WORKERS sets the worker count (default: one per core).
 *
 * `--no-pagefind` runs the derive step alone (the figure compared with the render); `--cache=<dir>` uses the
 * content-hash page cache there (a rebuild: only pages whose HTML changed are derived again).
 * `KARTAGE_DERIVE_TIMINGS=1` makes the step log each phase's time to stderr (list, pages, search index, ...).
 *
 *   node bench/derive.ts [--no-pagefind] [--cache=<dir>] <distDir> <dataDir> [origin]   # one JSON line
 */
import { fileURLToPath } from 'node:url';
import { deriveSite, type DeriveTimings as StepTimings } from '../src/build/derive.ts';
import { readEnv } from '../src/config.ts';

export interface DeriveTimings extends StepTimings {
  pages: number;
  workers: number | undefined;
}

export async function timedDerive(
  distDir: string,
  dataDir: string,
  origin: string,
  pagefind = true,
  cacheDir?: string,
): Promise<DeriveTimings> {
  const workers = Number(process.env.BENCH_DERIVE_WORKERS) || undefined;
  const { pages, timings } = await deriveSite({
    distDir,
    dataDir,
    origin,
    workers,
    pagefind,
    cacheDir,
    timings: readEnv(process.env).KARTAGE_DERIVE_TIMINGS,
  });
  return { pages: pages.length, workers, ...timings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const alone = flags.includes('--no-pagefind');
  const cacheDir = flags.find((f) => f.startsWith('--cache='))?.slice('--cache='.length);
  const [distDir, dataDir, origin = 'http://localhost:4321'] = args;
  if (!distDir || !dataDir) {
    console.error('usage: node bench/derive.ts [--no-pagefind] <distDir> <dataDir> [origin]');
    process.exit(2);
  }
  console.log(JSON.stringify(await timedDerive(distDir, dataDir, origin, !alone, cacheDir)));
}
