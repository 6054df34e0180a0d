/**
 * @module RFC 8288 `Link` header values that point agents at the machine-readable files: every HTML page
 * carries the site's set plus its own markdown alternate, API answers the API's set, markdown answers
 * their page's canonical URL. The middleware (pages, getPage), the functions (API answers) and the route
 * table's header rules (the home page) all build them here, so the values cannot drift.
 */
import { twinPathOfSlug } from './slugs.ts';

/** Where the MCP server card is published (SEP-2127 draft well-known path). */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';
/** Where the agent-skills index is published. */
export const AGENT_SKILLS_PATH = '/.well-known/agent-skills/index.json';
/** Media type of an MCP server card (SEP-2127 draft). */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';

/** The API's descriptions: RFC 9727 api-catalog, RFC 8631 service-desc and service-doc. */
export const API_LINKS: readonly string[] = [
  '</.well-known/api-catalog>; rel="api-catalog"',
  '</openapi.json>; rel="service-desc"; type="application/openapi+json"',
  '</developers>; rel="service-doc"; type="text/html"',
];

/** What every HTML page advertises: the API's links, the ARD catalogue, llms.txt and the MCP server card. */
export const SITE_LINKS: readonly string[] = [
  ...API_LINKS,
  '</.well-known/ard.json>; rel="ard"; type="application/json"',
  '</llms.txt>; rel="describedby"; type="text/plain"',
  `<${SERVER_CARD_PATH}>; rel="mcp-server-card"; type="${SERVER_CARD_TYPE}"`,
];

/** The `Link` value of a page's HTML answer: the site's links and the page's markdown twin. */
export function pageLinkHeader(slug: string): string {
  return [...SITE_LINKS, `<${twinPathOfSlug(slug)}>; rel="alternate"; type="text/markdown"`].join(', ');
}

/** The `Link` value of a markdown answer: the page it is the markdown of (RFC 6596 canonical). */
export function canonicalLinkHeader(url: string): string {
  return `<${url}>; rel="canonical"`;
}
