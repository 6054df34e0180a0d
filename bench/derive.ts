/**
 * @module The project's post-build step over another build (the benchmark's synthetic corpus), timed in
 * two phases: `deriveSite` without Pagefind (markdown twins, page JSON, search index, site files), then
 * Pagefind over the same folder with the same calls `deriveSite` makes. Together they are exactly what
 * `astro build` runs after rendering (src/build/integration.ts), but written to folders of our choosing.
 *
 *   node bench/derive.ts <distDir> <dataDir> [origin]   # prints one JSON line of timings
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveSite } from '../src/build/derive.ts';

export interface DeriveTimings {
  pages: number;
  deriveMs: number;
  pagefindMs: number;
}

export async function timedDerive(distDir: string, dataDir: string, origin: string): Promise<DeriveTimings> {
  let started = performance.now();
  const { pages } = await deriveSite({ distDir, dataDir, origin, pagefind: false });
  const deriveMs = performance.now() - started;
  started = performance.now();
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
  const added = await index.addDirectory({ path: distDir, glob: '**/*.html' });
  if (added.errors.length) throw new Error(`pagefind: ${added.errors.join('; ')}`);
  await index.writeFiles({ outputPath: join(distDir, 'pagefind') });
  await pagefind.close();
  return { pages: pages.length, deriveMs, pagefindMs: performance.now() - started };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [distDir, dataDir, origin = 'http://localhost:4321'] = process.argv.slice(2);
  if (!distDir || !dataDir) {
    console.error('usage: node bench/derive.ts <distDir> <dataDir> [origin]');
    process.exit(2);
  }
  console.log(JSON.stringify(await timedDerive(distDir, dataDir, origin)));
}
