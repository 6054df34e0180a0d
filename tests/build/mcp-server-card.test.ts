/**
 * The MCP server card: the served `/.well-known/mcp/server-card.json` validates against the Server Card
 * draft's schema (kept as data in tests/schemas/mcp-server-card.schema.json, SEP-2127 schema v1), is what
 * src/build/mcp-server-card.ts generates, and agrees with what the live server answers to `initialize`,
 * `tools/list`, `resources/list` and `resources/templates/list`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpServerCard, PRIMITIVES_KEY, SERVER_CARD_SCHEMA } from '../../src/build/mcp-server-card.ts';
import { SERVER_CARD_PATH } from '../../src/contract/links.ts';
import { MCP_SERVER_NAME } from '../../src/contract/mcp.ts';
import { startTestServer } from '../helpers/server.ts';
import { send } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

let server: RunningServer;
let validate: ReturnType<Ajv2020['compile']>;

beforeAll(async () => {
  server = await startTestServer();
  const schema = JSON.parse(
    await readFile(join(import.meta.dirname, '../schemas/mcp-server-card.schema.json'), 'utf8'),
  );
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  validate = ajv.compile(schema);
});
afterAll(async () => {
  await server?.close();
});

describe('the MCP server card', () => {
  it('is served at /.well-known/mcp/server-card.json as JSON and validates against the draft schema', async () => {
    const r = await send(`${server.url}${SERVER_CARD_PATH}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const card = r.json();
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card).toMatchObject({ $schema: SERVER_CARD_SCHEMA, name: MCP_SERVER_NAME });
  });

  it('the schema refuses what the draft refuses (so the check above can fail)', () => {
    const good = mcpServerCard('https://www.example.com', []);
    expect(validate(good)).toBe(true);
    expect(
      validate({
        ...good,
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server-card.schema.json',
      }),
    ).toBe(false);
    expect(validate({ ...good, name: 'no-slash' })).toBe(false);
    expect(validate({ ...good, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...good, remotes: [{ type: 'websocket', url: 'wss://x' }] })).toBe(false);
    const { version: _v, ...noVersion } = good;
    expect(validate(noVersion)).toBe(false);
  });

  it('is generated from the server definitions: it says what the live server answers', async () => {
    const card = (await send(`${server.url}${SERVER_CARD_PATH}`)).json();
    const content = server.deps.content;
    expect(card).toEqual(JSON.parse(JSON.stringify(mcpServerCard(content.origin, content.entries() as never))));
    const client = new Client({ name: 'card-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url.replace('127.0.0.1', 'localhost')}/mcp`)),
    );
    try {
      const info = client.getServerVersion()!;
      expect(card).toMatchObject({
        title: info.title,
        description: info.description,
        version: info.version,
        websiteUrl: info.websiteUrl,
        icons: info.icons,
      });
      expect(card.remotes).toEqual([
        {
          type: 'streamable-http',
          url: `${content.origin}/mcp`,
          supportedProtocolVersions: expect.arrayContaining(['2025-11-25', '2025-06-18']),
        },
      ]);
      const primitives = card._meta[PRIMITIVES_KEY];
      expect(primitives.tools).toEqual((await client.listTools()).tools);
      expect(primitives.resources).toEqual((await client.listResources()).resources);
      expect(primitives.resourceTemplates).toEqual((await client.listResourceTemplates()).resourceTemplates);
    } finally {
      await client.close();
    }
  });
});
