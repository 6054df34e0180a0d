/**
 * @module The project's post-build step over another build (the benchmark's synthetic corpus), exactly as
 * `astro build` runs it after rendering (src/build/integration.ts: deriveSite with Pagefind alongside), but
 * written to folders of our choosing. deriveSite reports its own timings: the pages alone (HTML -> Page,
 * twins, JSON, over worker threads), the whole derive work (waiting for Pagefind left out), Pagefind's own
 * run, and the step's wall clock. BENCH_DERIVE_WORKERS sets the worker count (default: one per core).
 *
 * `--no-pagefind` runs the derive step alone (the figure compared with the render).
 *
 *   node bench/derive.ts [--no-pagefind] <distDir> <dataDir> [origin]   # prints one JSON line of timings
 */
import { fileURLToPath } from 'node:url';
import { deriveSite, type DeriveTimings as StepTimings } from '../src/build/derive.ts';

export interface DeriveTimings extends StepTimings {
  pages: number;
  workers: number | undefined;
}

export async function timedDerive(
  distDir: string,
  dataDir: string,
  origin: string,
  pagefind = true,
): Promise<DeriveTimings> {
  const workers = Number(process.env.BENCH_DERIVE_WORKERS) || undefined;
  const { pages, timings } = await deriveSite({ distDir, dataDir, origin, workers, pagefind });
  return { pages: pages.length, workers, ...timings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const alone = args[0] === '--no-pagefind';
  const [distDir, dataDir, origin = 'http://localhost:4321'] = alone ? args.slice(1) : args;
  if (!distDir || !dataDir) {
    console.error('usage: node bench/derive.ts [--no-pagefind] <distDir> <dataDir> [origin]');
    process.exit(2);
  }
  console.log(JSON.stringify(await timedDerive(distDir, dataDir, origin, !alone)));
}
