/**
 * @module Vercel Routing Middleware: markdown negotiation on page URLs, getPage over the per-page static
 * files (metered), and real 404s for unknown API paths. The local server runs the same `handleEdge` first.
 *
 * `config` must stay a literal: Vercel reads it statically, and outside Next.js it accepts path strings
 * only (no `has` conditions). The matcher is narrow on purpose, because every match is a billed
 * invocation: the function paths and the published static files never reach the middleware.
 * tests/vercel/output.test.ts checks the built matcher against the route table.
 */
import { readFileSync } from 'node:fs';
import { next, rewrite } from '@vercel/functions';
import { handleEdge } from './src/core/edge.ts';
import { indexContent, type Content, type ContentData } from './src/core/content.ts';
import { deps } from './src/adapters/deps.ts';
import { errorResponse } from './src/adapters/http.ts';
import { createLog } from './src/adapters/log.ts';
import type { Log } from './src/core/ports.ts';

export const config = {
  runtime: 'nodejs',
  matcher: [
    // getPage (/api/v1/pages/{slug}) and the real 404s of unknown API paths. Left out: the function
    // paths (they answer for themselves) and the static /api/v1/sandbox.
    '/api/((?!(?:v1/pages|v1/pages/batch|v1/search|v1/lead/validate|lead|mcp|cron/leads-flush|v1/sandbox)$).*)',
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

let content: Content | undefined;

/**
 * The content the edge step needs, read from `build/content.json` beside this module. The literal URL
 * makes Vercel's file tracing copy that file into the middleware's bundle: vercel.json `includeFiles`
 * reaches the functions only, and the middleware must not depend on the working directory.
 */
function edgeContent(): Content {
  return (content ??= indexContent(JSON.parse(readFileSync(new URL('./build/content.json', import.meta.url), 'utf8')) as ContentData));
}

export default async function middleware(request: Request): Promise<Response> {
  let log: Log | undefined;
  try {
    const d = deps();
    log = d.log;
    const decision = await handleEdge(request, { content: edgeContent(), meterRead: (r) => d.meter(r) });
    if (decision.type === 'respond') return decision.response;
    if (decision.type === 'rewrite') return rewrite(new URL(decision.path, request.url), { headers: decision.headers });
    return next({ headers: decision.headers });
  } catch (e) {
    // Fail open: a broken middleware must not take every page down. Pages go on to the static files;
    // API paths get the contract's Error body instead of the platform's error page.
    const id = crypto.randomUUID();
    (log ?? createLog())('middleware_failed', { level: 'error', id, error: String((e as Error)?.stack ?? e) });
    if (new URL(request.url).pathname.startsWith('/api/')) return errorResponse(500, `Internal error (reference ${id}); please retry`);
    return next();
  }
}
