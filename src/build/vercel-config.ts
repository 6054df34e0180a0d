/**
 * @module vercel.json, generated from the route table (`npm run gen:vercel`); a test proves the committed
 * file equals this output, so Vercel and the local server cannot drift.
 *
 * Clean URLs (`/pricing` served from `pricing.html`) are spelled out instead of `cleanUrls: true`: Vercel's
 * cleanUrls redirect `^/(?:(.+)/)?index(?:\.html)?/?$` runs before the middleware and would send getPage
 * for the home page (`/api/v1/pages/index`) to `/api/v1/pages` with a 308. The rules below do what the
 * local server does: `.html` URLs redirect to the clean URL, and a clean URL that is not a file is
 * rewritten to its `.html` file after the filesystem check. Neither touches `/api/`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CRONS, headerRules } from '../contract/routes.ts';
import { DATA_DIR } from '../core/content.ts';
import { dataFilesFor } from '../adapters/content-files.ts';
import { functionOf, type Operation } from '../http/operation.ts';
import { operations, rewrites } from '../operations/index.ts';

/**
 * Function settings: the lead endpoint and the outbox replay wait on the CRM, so they get longer. Local
 * state (`var/`: the local lead file, personal data) and test or bench output never ship, even when file
 * tracing follows a path into them.
 */
export function functionSettings(op: Operation) {
  const data = dataFilesFor(op.data);
  return {
    maxDuration: (typeof op.serve === 'object' && op.serve.maxDuration) || 10,
    memory: 1024,
    // Only the data files of what the operation reads (issue 14 part 3): listPages ships the entries,
    // search its index and snippet text, the lead functions nothing.
    ...(data.length
      ? { includeFiles: data.length === 1 ? `${DATA_DIR}/${data[0]}` : `${DATA_DIR}/{${data.join(',')}}` }
      : {}),
    excludeFiles: '{var,test-results,bench,.tools,dist}/**',
  };
}

/**
 * Redirects of `.html` URLs to their clean URL (what the local server does; 404.html and /api/ stay). The
 * page part never starts with `/` and holds no `\` or `%`, so the target cannot be `//host/…` or `/\host`
 * (another origin), whether the platform matches the raw or the decoded path.
 */
export const htmlRedirects = [
  { source: '/index.html', destination: '/', permanent: true },
  { source: '/:page((?!api/|404\\.html$)[^/\\\\%][^\\\\%]*)\\.html', destination: '/:page', permanent: true },
] as const;

/**
 * The trailing-slash redirect (`/pricing/` -> `/pricing`), written here rather than with `trailingSlash:
 * false`, whose generated rule `^/(.*)/$` -> `/$1` sends `//evil.example/` to `//evil.example`, another
 * origin. Here the path kept starts with neither `/` nor `\` and holds no `%`.
 */
export const trailingSlashRedirect = {
  source: '/:path((?![/\\\\%])[^\\\\%]*)/',
  destination: '/:path',
  permanent: true,
} as const;

/** After the filesystem and the route table's rewrites: a clean page URL is served from its `.html` file. */
export const cleanUrlRewrite = { source: '/:page((?!api/|_astro/|pagefind/).+)', destination: '/:page.html' } as const;

export function buildVercelConfig() {
  const functions: Record<string, ReturnType<typeof functionSettings>> = {};
  for (const op of operations) if (functionOf(op)) functions[`api/${functionOf(op)}.ts`] = functionSettings(op);
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    framework: 'astro',
    // Builds the site unless build/ is current (always on Vercel, where build/ is not in the checkout);
    // locally it leaves a current dist/ and build/ alone, which other processes may be reading.
    buildCommand: 'node server/build-check.ts',
    outputDirectory: 'dist',
    cleanUrls: false,
    functions,
    crons: CRONS,
    redirects: [trailingSlashRedirect, ...htmlRedirects],
    rewrites: [...rewrites(), cleanUrlRewrite],
    headers: headerRules.map((r) => ({
      source: r.source,
      headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })),
    })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = fileURLToPath(new URL('../../vercel.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(buildVercelConfig(), null, 2)}\n`);
  console.log(`wrote ${out}`);
}
