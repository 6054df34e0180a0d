/**
 * @module Vercel Routing Middleware: the pipeline's middleware (src/http/middleware.ts) with this
 * instance's dependencies. The local server runs the same `createMiddleware` for the same matcher.
 *
 * `config` must stay a literal: Vercel reads it statically, and outside Next.js it accepts path strings
 * only (no `has` conditions). The matcher is narrow on purpose, because every match is a billed
 * invocation: the function paths and the published static files never reach the middleware.
 * tests/server/vercel-build.test.ts checks the built matcher against the route table.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContentFiles } from './src/adapters/content-files.ts';
import { parseConfig } from './src/adapters/config.ts';
import { createDeps, type Deps } from './src/adapters/deps.ts';
import { createMiddleware } from './src/http/middleware.ts';
import { matchOperation, routes } from './src/operations/index.ts';

export const config = {
  runtime: 'nodejs',
  matcher: [
    // getPage (/api/v1/pages/{slug}) and the real 404s of unknown API paths. Left out: the function
    // paths (they answer for themselves) and the static /api/v1/sandbox.
    '/api/((?!(?:v1/pages|v1/pages/batch|v1/search|v1/ask|v1/lead/validate|lead|mcp|cron/leads-flush|v1/sandbox)$).*)',
    // Page URLs (no dot): markdown negotiation and `Vary: Accept`. /mcp is a function (rewritten).
    '/((?!api/|mcp$|_astro/|pagefind/)[^.]*)',
    // The pages' `.md` twins: their markdown headers (canonical page URL, token estimate, content signals).
    '/((?!_astro/|pagefind/).*\\.md)',
    // Paths whose extension the site never publishes: only ever 404s, markdown ones when asked for.
    '/((?!_astro/|pagefind/).*\\.(?!(?:html|json|md|svg|txt|xml|yaml)$)[^.\\/]*)',
    // Percent-encoded paths: whether a platform matches the pattern above on the raw or the decoded path,
    // `/%61pi/v1/pages/x.json` (= `/api/v1/pages/x.json`) must reach the metered getPage step, never the file.
    '/(.*%.*)',
  ],
};

/**
 * The data files the middleware reads (its content needs: one entry by slug for getPage and the pages'
 * headers, the static paths for real 404s; `dataFilesFor(['entry', 'files'])`, which a test checks), each
 * named by a literal URL beside this module: Vercel's file tracing then copies them into the middleware's
 * bundle (vercel.json `includeFiles` reaches the functions only), and the middleware does not depend on
 * the working directory.
 */
export const MIDDLEWARE_DATA = [
  new URL('./build/entries.idx.json', import.meta.url),
  new URL('./build/entries.pack', import.meta.url),
  new URL('./build/files.json', import.meta.url),
  new URL('./build/meta.json', import.meta.url),
  new URL('./build/slugs.json', import.meta.url),
];

let deps: Deps | undefined;

/** This instance's dependencies, its content from the files above. */
function middlewareDeps(): Deps {
  if (!deps) {
    const config = parseConfig(process.env);
    // The folder as a string the tracer does not follow (a folder URL would make it copy all of build/);
    // KARTAGE_DATA_DIR, when set, wins (the bench's cold starts over a large corpus).
    const file = fileURLToPath(MIDDLEWARE_DATA[0]!);
    const dir = config.dataDirGiven ? config.dataDir : file.slice(0, file.lastIndexOf(sep));
    deps = createDeps({ config, content: createContentFiles(dir) });
  }
  return deps;
}

export default createMiddleware({ matchOperation, routes }, middlewareDeps);
