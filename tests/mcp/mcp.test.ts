/**
 * /mcp over real HTTP with the SDK's own client, the HTTP rules around it, and the official conformance
 * suite's scenarios that apply to this server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOLS } from '../../src/contract/mcp.ts';
import { ListPagesResponseSchema, SearchResponseSchema } from '../../src/contract/schemas.ts';
import { splitMarkdown } from '../../src/mcp/server.ts';
import { startTestServer, PROJECT_ROOT } from '../helpers/server.ts';
import { postJson, send } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

let server: RunningServer;
let client: Client;
/** The server as a client reaches it by name (the conformance suite needs a localhost URL). */
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.url.replace('127.0.0.1', 'localhost');
  client = new Client({ name: 'kartage-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const text = (r: Record<string, unknown>) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('tools through the SDK client', () => {
  it('lists the four read-only tools with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, idempotentHint: true });
    }
    expect(client.getInstructions()).toMatch(/POST \/api\/lead/);
  });

  it('search_kartage_site returns what GET /api/v1/search returns', async () => {
    const r = await client.callTool({ name: 'search_kartage_site', arguments: { query: 'storage billing', limit: 5 } });
    expect(r.isError).toBeFalsy();
    const rest = (await send(`${server.url}/api/v1/search?q=storage%20billing&limit=5`)).json();
    expect(SearchResponseSchema.parse(r.structuredContent)).toEqual(rest);
    expect(text(r)).toContain(rest.results[0].url);
  });

  it('get_kartage_page returns the page markdown, in parts when asked', async () => {
    const r = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'pricing' } });
    const rest = (await send(`${server.url}/api/v1/pages/pricing`)).json();
    expect(r.structuredContent).toMatchObject({ slug: 'pricing', title: rest.title, url: rest.url, markdown: rest.markdown, part: 1, parts: 1 });
    const dev = (await send(`${server.url}/api/v1/pages/developers`)).json();
    const parts: string[] = [];
    for (let part = 1; ; part++) {
      const p = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'developers', part, maxChars: 2000 } });
      const s = p.structuredContent as { markdown: string; parts: number };
      expect(s.markdown.length).toBeLessThanOrEqual(2000);
      parts.push(s.markdown);
      if (part === s.parts) break;
      expect(text(p)).toContain(`part ${part + 1}`);
    }
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('').replace(/\s+/g, '')).toBe(dev.markdown.replace(/\s+/g, ''));
  });

  it('list_kartage_pages pages through like GET /api/v1/pages', async () => {
    const first = await client.callTool({ name: 'list_kartage_pages', arguments: { prefix: 'blog/', limit: 10 } });
    const page1 = ListPagesResponseSchema.parse(first.structuredContent);
    expect(page1.count).toBe(10);
    expect(page1).toEqual((await send(`${server.url}/api/v1/pages?prefix=blog/&limit=10`)).json());
    const second = ListPagesResponseSchema.parse((await client.callTool({ name: 'list_kartage_pages', arguments: { prefix: 'blog/', limit: 10, cursor: page1.nextCursor } })).structuredContent);
    expect(second.pages[0]!.slug > page1.pages.at(-1)!.slug).toBe(true);
  });

  it('get_kartage_pricing gives the plans and a recommendation with reasons', async () => {
    const all = await client.callTool({ name: 'get_kartage_pricing', arguments: {} });
    const s = all.structuredContent as { plans: { name: string; monthly: number }[]; recommendation?: unknown };
    expect(s.plans.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Professional', 'Enterprise']);
    expect(s.recommendation).toBeUndefined();
    const rec = await client.callTool({ name: 'get_kartage_pricing', arguments: { segment: 'Military & government', warehouses: '1', moves: 'Under 500' } });
    expect((rec.structuredContent as { recommendation: { plan: string; reasons: string[] } }).recommendation).toMatchObject({ plan: 'enterprise', reasons: expect.arrayContaining([expect.stringMatching(/Military/)]) });
    const growth = await client.callTool({ name: 'get_kartage_pricing', arguments: { warehouses: '1', moves: '500-2,000' } });
    expect((growth.structuredContent as { recommendation: { plan: string } }).recommendation.plan).toBe('growth');
    expect(text(growth)).toMatch(/Recommended: \*\*Growth\*\*/);
  });

  it('an unknown slug or bad arguments are tool errors with a useful message, not protocol failures', async () => {
    const missing = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'no-such-page' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/No page with slug "no-such-page".*search_kartage_site/);
    const beyond = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'pricing', part: 9 } });
    expect(beyond.isError).toBe(true);
    for (const [name, args] of [
      ['search_kartage_site', { query: 'a' }],
      ['search_kartage_site', { query: 'storage', limit: 0 }],
      ['get_kartage_page', { slug: 'Bad Slug!' }],
      ['list_kartage_pages', { limit: 101 }],
      ['get_kartage_pricing', { moves: 'lots' }],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r)).toMatch(/Invalid arguments|validation/i);
    }
  });
});

describe('resources through the SDK client', () => {
  it('lists llms.txt, the sitemap, the OpenAPI description and the key pages, each readable and equal to the served file', async () => {
    const { resources } = await client.listResources();
    const origin = server.deps.content().data.origin;
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([`${origin}/llms.txt`, `${origin}/sitemap.xml`, `${origin}/openapi.json`, `${origin}/index.md`, `${origin}/pricing.md`, `${origin}/product/storage.md`]));
    expect(uris.filter((u) => /\/(product|solutions)\//.test(u)).length).toBe(16);
    for (const r of resources) {
      const read = await client.readResource({ uri: r.uri });
      const body = (read.contents[0] as { text: string }).text;
      const served = await send(`${server.url}${new URL(r.uri).pathname}`);
      expect(served.status, r.uri).toBe(200);
      if (r.uri.endsWith('.json')) expect(JSON.parse(body)).toEqual(served.json());
      else expect(body, r.uri).toBe(served.text);
    }
  });

  it('the page template reads any page by slug and completes slugs', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    const origin = server.deps.content().data.origin;
    const read = await client.readResource({ uri: `${origin}/blog/planning-for-peak-season.md` });
    expect((read.contents[0] as { text: string }).text).toBe((await send(`${server.url}/blog/planning-for-peak-season.md`)).text);
    const done = await client.complete({ ref: { type: 'ref/resource', uri: resourceTemplates[0]!.uriTemplate }, argument: { name: 'slug', value: 'blog/pl' } });
    expect(done.completion.values).toContain('blog/planning-for-peak-season');
    await expect(client.readResource({ uri: `${origin}/no/such/page.md` })).rejects.toThrow(/No page/);
  });
});

describe('/mcp over HTTP', () => {
  const init = (version: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const mcpHeaders = { Accept: 'application/json, text/event-stream' };

  it('negotiates protocol versions 2025-06-18 and 2025-11-25', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const r = await postJson(`${base}/mcp`, init(v), { headers: mcpHeaders });
      expect(r.status).toBe(200);
      expect(r.json().result.protocolVersion).toBe(v);
      expect(r.headers['ratelimit-policy']).toBe('120;w=60');
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('GET and DELETE are 405; a missing Accept or bad JSON is a 4xx from the SDK, never 5xx', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await send(`${base}/mcp`, { method, headers: mcpHeaders });
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('POST, OPTIONS');
      expect(r.json().status).toBe(405);
    }
    expect((await postJson(`${base}/mcp`, init('2025-11-25'))).status).toBe(406);
    expect((await postJson(`${base}/mcp`, '{"jsonrpc":', { headers: mcpHeaders })).status).toBe(400);
    expect((await send(`${base}/mcp`, { method: 'POST', body: 'x', headers: { ...mcpHeaders, 'Content-Type': 'text/plain' } })).status).toBe(415);
    const preflight = await send(`${base}/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Protocol-Version');
  });

  it('refuses foreign Host headers and plain-http foreign origins; accepts https browser agents; ignores Authorization', async () => {
    const evilHost = await postJson(`${server.url}/mcp`, init('2025-11-25'), { headers: { ...mcpHeaders, Host: 'evil.example.com' } });
    expect(evilHost.status).toBe(400);
    expect(evilHost.json().error).toMatch(/DNS-rebinding/);
    const evilOrigin = await postJson(`${base}/mcp`, init('2025-11-25'), { headers: { ...mcpHeaders, Origin: 'http://evil.example.com' } });
    expect(evilOrigin.status).toBe(400);
    const agent = await postJson(`${base}/mcp`, init('2025-11-25'), { headers: { ...mcpHeaders, Origin: 'https://agent.example', Authorization: 'Bearer whatever' } });
    expect(agent.status).toBe(200);
    expect(agent.headers['www-authenticate']).toBeUndefined();
  });
});

describe('the official conformance suite', () => {
  const cli = join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  // The scenarios that apply to a server with these tools; README "MCP" lists the others and why not.
  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']) {
    it(scenario, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'server', '--url', `${base}/mcp`, '--scenario', scenario], { timeout: 60_000 }).catch((e) => e);
      const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout ?? '');
      expect(m, stdout).not.toBeNull();
      expect(Number(m![3]), stdout).toBe(0);
      expect(Number(m![1])).toBe(Number(m![2]));
    }, 90_000);
  }
});

describe('splitMarkdown', () => {
  it('cuts at paragraph breaks within the limit and loses nothing', () => {
    const md = Array.from({ length: 40 }, (_, i) => `## Section ${i}\n\n${'word '.repeat(60 + i)}`).join('\n\n');
    const parts = splitMarkdown(md, 1_000);
    expect(parts.length).toBeGreaterThan(10);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1_000);
    expect(parts.join('').replace(/\s+/g, '')).toBe(md.replace(/\s+/g, ''));
    expect(splitMarkdown('x'.repeat(2_500), 1_000).map((p) => p.length)).toEqual([1_000, 1_000, 500]);
  });
});
