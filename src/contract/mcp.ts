/**
 * @module What the MCP server is called and what it offers, in one place for the server, the discovery
 * files (/.well-known/mcp.json, ard.json), the OpenAPI description and the tests.
 */
import type { PageKind } from './content.ts';
import { sectionOf } from './slugs.ts';
import pkg from '../../package.json' with { type: 'json' };

/** Registry name: reverse DNS of kartage.com.au, one slash (server.json schema 2025-12-11). */
export const MCP_SERVER_NAME = 'au.com.kartage/site';
/** The server's version: the package's, so /.well-known/mcp.json and `initialize` agree. */
export const MCP_SERVER_VERSION: string = pkg.version;

/** The four tools (SPEC.md "POST /mcp", with the service's own name). */
export const MCP_TOOLS = [
  'search_kartage_site',
  'get_kartage_page',
  'list_kartage_pages',
  'get_kartage_pricing',
] as const;
export type McpToolName = (typeof MCP_TOOLS)[number];

/**
 * Pages offered as fixed resources besides llms.txt, the sitemap and the OpenAPI document: the home and
 * pricing pages (by kind, from their front matter) and the product and solutions sections.
 */
export const isKeyPage = (p: { slug: string; kind?: PageKind }) =>
  p.kind === 'home' || p.kind === 'pricing' || KEY_SECTIONS.has(sectionOf(p.slug));
const KEY_SECTIONS = new Set(['product', 'solutions']);
