/**
 * @module Deprecation headers (SPEC.md "Versioning" rule 3): an operation marked `deprecated` in the route
 * table answers with `Deprecation: @<epoch seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and
 * `Link: <replacement>; rel="deprecation"`, and is `deprecated: true` in the OpenAPI document.
 * Nothing is deprecated today; the machinery is tested with a test-only route.
 */
import { functionPath, routes, type Deprecation, type RouteSpec } from '../contract/routes.ts';

/** The three headers for a deprecation. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(Date.parse(d.since) / 1000)}`,
    Sunset: new Date(d.sunset).toUTCString(),
    Link: `<${d.link}>; rel="deprecation"; type="text/html"`,
  };
}

const patternOf = (path: string) => new URLPattern({ pathname: path.replace(/\{(\w+)\}/g, ':$1+') });

/** The headers a response to `pathname` carries because its route is deprecated (usually none). */
export function routeHeadersFor(pathname: string, table: readonly RouteSpec[] = routes): Record<string, string> {
  for (const r of table) {
    if (!r.deprecated) continue;
    // A route's own function may see its file path (`/api/mcp` for `/mcp`); an alias (`like`) shares
    // another route's function, whose path must not inherit the alias's deprecation.
    const paths = r.fn && !r.like ? [r.path, functionPath(r.fn)] : [r.path];
    if (paths.some((p) => patternOf(p).test({ pathname }))) return deprecationHeaders(r.deprecated);
  }
  return {};
}
