/**
 * Vercel Routing Middleware: markdown negotiation on page URLs, getPage over the per-page static files,
 * and real 404s for unknown API paths. The local server runs the same `handleEdge` first.
 * `config` must stay a literal (Vercel reads it statically); a test checks it against the route table.
 */
import { next, rewrite } from '@vercel/functions';
import { handleEdge } from './src/core/edge.ts';
import { deps } from './src/adapters/deps.ts';

export const config = {
  runtime: 'nodejs',
  matcher: [
    '/api/:path*',
    '/((?!_astro/|pagefind/)[^.]*)',
    { source: '/(.*)', has: [{ type: 'header', key: 'accept', value: '(.*)text/(x-)?markdown(.*)' }] },
  ],
};

export default async function middleware(request: Request): Promise<Response> {
  const d = deps();
  const decision = await handleEdge(request, { content: d.content(), meterRead: (r) => d.meter(r) });
  if (decision.type === 'respond') return decision.response;
  if (decision.type === 'rewrite') return rewrite(new URL(decision.path, request.url), { headers: decision.headers });
  return next({ headers: decision.headers });
}
