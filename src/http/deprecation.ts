/**
 * @module Deprecation headers (SPEC.md "Versioning" rule 3): an operation declared `deprecated` answers
 * with `Deprecation: @<epoch seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and
 * `Link: <replacement>; rel="deprecation"`, and is `deprecated: true` in the OpenAPI document.
 * The pipeline adds them to every answer of the operation. Nothing is deprecated today; the machinery is
 * tested with a test-only operation.
 */
import type { Deprecation } from '../contract/routes.ts';

/** The three headers for a deprecation. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(Date.parse(d.since) / 1000)}`,
    Sunset: new Date(d.sunset).toUTCString(),
    Link: `<${d.link}>; rel="deprecation"; type="text/html"`,
  };
}
