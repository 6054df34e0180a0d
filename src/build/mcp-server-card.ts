/**
 * @module The MCP server card (`/.well-known/mcp/server-card.json`), written at build time from the server's
 * own definitions (src/mcp/server.ts: server info, tools, resources), so it cannot drift from what
 * `initialize`, `tools/list` and `resources/list` answer. Format: the Server Card draft of SEP-2127
 * (modelcontextprotocol/experimental-ext-server-card, schema v1, `$schema`
 * https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json): identity, icons, the
 * streamable-http remote and its protocol versions. The draft lists no primitives itself and keeps vendor
 * data in `_meta`, so the tools, resources and the page template go under `_meta["au.com.kartage/primitives"]`
 * exactly as the protocol lists them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { fileOf, MACHINE_READABLE } from '../contract/links.ts';
import { MCP_SERVER_NAME } from '../contract/mcp.ts';
import type { Page } from '../contract/schemas.ts';
import type { PageKind } from '../contract/content.ts';
import { resourceList, serverInfo, toolList } from '../mcp/server.ts';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** `_meta` key (reverse DNS of kartage.com.au) holding the tools, resources and resource templates. */
export const PRIMITIVES_KEY = 'au.com.kartage/primitives';

export function mcpServerCard(origin: string, pages: readonly (Page & { kind?: PageKind })[]) {
  const info = serverInfo(origin);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: MCP_SERVER_NAME,
    title: info.title,
    description: info.description,
    version: info.version,
    websiteUrl: info.websiteUrl,
    icons: info.icons,
    remotes: [
      { type: 'streamable-http', url: `${origin}/mcp`, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] },
    ],
    _meta: { [PRIMITIVES_KEY]: { tools: toolList(origin), ...resourceList(origin, pages) } },
  };
}

/** Writes the card into the build output (called by the derive step). */
export async function writeMcpServerCard(
  distDir: string,
  origin: string,
  pages: readonly (Page & { kind?: PageKind })[],
): Promise<void> {
  const file = join(distDir, fileOf(MACHINE_READABLE.serverCard));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(mcpServerCard(origin, pages), null, 2)}\n`);
}
