/**
 * @module Every operation of the service, in one list. The route table, the OpenAPI document, vercel.json,
 * the middleware's routing and the local server all derive from it: to add an operation, write its file
 * beside these and add it here (docs/add-an-operation.md).
 */
import { functionPath, staticRewrites, staticRoutes, type RouteSpec } from '../contract/routes.ts';
import { functionOf, type Operation } from '../http/operation.ts';
import { askSite } from './ask-site.ts';
import { getPage } from './get-page.ts';
import { getPagesBatch } from './get-pages-batch.ts';
import { leadsFlush } from './leads-flush.ts';
import { listPages } from './list-pages.ts';
import { mcpOperation } from './mcp.ts';
import { buildOpenApi } from '../http/openapi.ts';
import { searchSite } from './search-site.ts';
import { submitLead } from './submit-lead.ts';
import { validateLead } from './validate-lead.ts';

/** The OpenAPI document's text per origin, built once per instance from this list (the MCP resource's fallback). */
const openApiTexts = new Map<string, string>();
const openApiText = (origin: string) => {
  let text = openApiTexts.get(origin);
  if (text === undefined) openApiTexts.set(origin, (text = JSON.stringify(buildOpenApi(origin, operations), null, 2)));
  return text;
};

/** POST /mcp, offering this list's OpenAPI document. */
export const mcp = mcpOperation(openApiText);

export const operations: readonly Operation[] = [
  listPages,
  getPage,
  searchSite,
  getPagesBatch,
  askSite,
  validateLead,
  submitLead,
  leadsFlush,
  mcp,
];

/**
 * The operation at a (decoded) path, with its path parameters, or undefined. A path ending in `{name}`
 * takes everything after its prefix as that parameter, slashes and emptiness included (`blog/x`, ``), so
 * every request under `/api/v1/pages/` reaches getPage and is metered; its handler decides what exists.
 * Exact paths win: `/api/v1/pages/batch` is the batch operation, not getPage with slug "batch".
 */
export function matchOperation(path: string): { op: Operation; params: Record<string, string> } | undefined {
  const exact = exactPaths.get(path);
  if (exact) return { op: exact, params: {} };
  for (const { prefix, name, op } of prefixes) {
    if (path.startsWith(prefix)) return { op, params: { [name]: path.slice(prefix.length) } };
  }
  return undefined;
}

const exactPaths = new Map(operations.filter((op) => !op.path.includes('{')).map((op) => [op.path, op]));
const prefixes = operations.flatMap((op) => {
  const m = /^(.*\/)\{(\w+)\}$/.exec(op.path);
  return m ? [{ prefix: m[1]!, name: m[2]!, op }] : [];
});

/** An operation's row in the route table. */
function routeOf(op: Operation): RouteSpec {
  const fn = functionOf(op);
  return {
    id: op.id,
    path: op.path,
    methods: [op.method],
    serve: fn ? 'function' : 'middleware',
    ...(fn ? { fn } : {}),
    meter: op.meter,
    cache: op.cache,
    cors: op.cors,
    ...(op.deprecated ? { deprecated: op.deprecated } : {}),
    summary: op.summary,
  };
}

/** The route table: every operation's route, then the static routes. */
export const routes: readonly RouteSpec[] = [...operations.map(routeOf), ...staticRoutes];

/** Routes answered by a function in `api/`. */
export const functionRoutes = (): (RouteSpec & { fn: string })[] =>
  routes.filter((r): r is RouteSpec & { fn: string } => r.serve === 'function' && r.fn !== undefined);

/** Rewrites in the order Vercel applies them after the filesystem: function aliases, then static aliases. */
export function rewrites(): { source: string; destination: string }[] {
  const fnAliases = functionRoutes()
    .filter((r) => functionPath(r.fn) !== r.path)
    .map((r) => ({ source: r.path, destination: functionPath(r.fn) }));
  return [...fnAliases, ...staticRewrites];
}
