/**
 * @module vercel.json, generated from the route table (`npm run gen:vercel`); a test proves the committed
 * file equals this output, so Vercel and the local server cannot drift.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CRONS, functionRoutes, headerRules, rewrites } from '../contract/routes.ts';
import { DATA_DIR } from '../core/content.ts';

export function buildVercelConfig() {
  const functions: Record<string, { maxDuration: number; memory: number; includeFiles?: string }> = {};
  for (const r of functionRoutes()) {
    functions[`api/${r.fn}.ts`] = { maxDuration: r.id === 'submitLead' || r.id === 'leadsFlush' ? 60 : 10, memory: 1024, includeFiles: `${DATA_DIR}/**` };
  }
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    framework: 'astro',
    buildCommand: 'npm run build',
    outputDirectory: 'dist',
    cleanUrls: true,
    trailingSlash: false,
    functions,
    crons: CRONS,
    rewrites: rewrites(),
    headers: headerRules.map((r) => ({ source: r.source, headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })) })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = fileURLToPath(new URL('../../vercel.json', import.meta.url));
  writeFileSync(out, JSON.stringify(buildVercelConfig(), null, 2) + '\n');
  console.log(`wrote ${out}`);
}
