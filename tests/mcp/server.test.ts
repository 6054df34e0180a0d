/**
 * /mcp over real HTTP with the SDK's own client, the HTTP rules around it, and the official conformance
 * suite's scenarios that apply to this server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOLS } from '../../src/contract/mcp.ts';
import { LIMITS, policyOf } from '../../src/contract/limits.ts';
import { READ_POLICY, refusalText } from '../../src/core/rate-limit.ts';
import { ListPagesResponseSchema, SearchQuerySchema, SearchResponseSchema } from '../../src/contract/schemas.ts';
import { createDeps, loadContent } from '../../src/adapters/composition-root.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { operations } from '../../src/operations/index.ts';
import { MCP_BATCH_MAX } from '../../src/mcp/transport.ts';
import type { ContentData } from '../../src/core/content.ts';
import { markdownTwin } from '../../src/core/markdown-doc.ts';
import { openApiText } from '../../src/mcp/resources.ts';
import { MCP_DEFAULTS } from '../../src/mcp/tool-schemas.ts';
import { graphemeCut, PART_CHARS, splitExact, splitMarkdown } from '../../src/mcp/split.ts';
import { isQuestion } from '../../src/mcp/tools.ts';
import { startTestServer, PROJECT_ROOT } from '../helpers/server.ts';
import { postJson, send } from '../helpers/http.ts';
import { timedRequest, type RawAnswer } from '../helpers/raw-http.ts';
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

type Block = { type: string; text?: string; uri?: string; name?: string };
const text = (r: Record<string, unknown>) =>
  (r.content as Block[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
const PART_NOTE = /\n\n\[Part \d+ of \d+: .*\]$/;

describe('tools through the SDK client', () => {
  it('lists the four read-only tools: schemas without noise, icons, a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const origin = server.deps.content.origin;
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, idempotentHint: true });
      expect(t.icons).toEqual([{ src: `${origin}/favicon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }]);
    }
    // No zod noise: no +-2^53 bounds, no long regexes (the date pattern), no $schema or $defs indirection.
    const json = JSON.stringify(tools);
    expect(json).not.toMatch(/9007199254740991|\$schema|\$defs|\$ref/);
    for (const m of json.matchAll(/"pattern":"((?:[^"\\]|\\.)*)"/g)) expect(m[1]!.length, m[1]).toBeLessThan(40);
    expect(client.getInstructions()).toMatch(/POST \/api\/lead/);
    expect(client.getServerVersion()).toMatchObject({
      name: 'kartage-site',
      description: expect.stringMatching(/Kartage/),
      icons: [{ src: `${origin}/favicon.svg` }],
    });
  });

  it('advertises no listChanged: a stateless server can never send the notification', async () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.tools).toEqual({});
    expect(caps.resources).toEqual({});
    expect(caps.completions).toEqual({});
    expect(caps.prompts).toBeUndefined();
  });

  it('the search tool takes queries up to the length REST takes (one contract)', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_kartage_site')!;
    const restMax = (z.toJSONSchema(SearchQuerySchema, { io: 'input' }) as any).properties.q.maxLength;
    expect(restMax).toBe(500);
    expect((search.inputSchema.properties as any).query).toMatchObject({
      minLength: LIMITS.searchMinLength,
      maxLength: restMax,
    });
    const long = `${`storage ${'billing '.repeat(80)}`.slice(0, restMax - 1)}x`;
    expect((await client.callTool({ name: 'search_kartage_site', arguments: { query: long } })).isError).toBeFalsy();
    expect((await send(`${server.url}/api/v1/search?q=${encodeURIComponent(long)}`)).status).toBe(200);
    expect((await client.callTool({ name: 'search_kartage_site', arguments: { query: `${long}x` } })).isError).toBe(
      true,
    );
    expect((await send(`${server.url}/api/v1/search?q=${encodeURIComponent(`${long}x`)}`)).status).toBe(400);
  });

  it('search_kartage_site returns what GET /api/v1/search returns, with a resource_link per result', async () => {
    const r = await client.callTool({ name: 'search_kartage_site', arguments: { query: 'storage billing', limit: 5 } });
    expect(r.isError).toBeFalsy();
    const rest = (await send(`${server.url}/api/v1/search?q=storage%20billing&limit=5`)).json();
    type Hit = { slug: string; markdown_url: string };
    // The REST answer, each markdown_url moved to the result's resource_link.
    const lean = rest.results.map(({ markdown_url: _m, ...x }: Hit) => x);
    expect(r.structuredContent).toEqual({ ...rest, results: lean, match: 'all' });
    expect(SearchResponseSchema.parse(r.structuredContent).results.map((x) => x.slug)).toEqual(
      lean.map((x: Hit) => x.slug),
    );
    expect(text(r)).toContain(`1. ${rest.results[0].title} (${rest.results[0].slug})`);
    const links = (r.content as Block[]).filter((c) => c.type === 'resource_link');
    expect(links.map((l) => [l.name, l.uri])).toEqual(rest.results.map((x: Hit) => [x.slug, x.markdown_url]));
    const read = await client.readResource({ uri: links[0]!.uri! });
    const page = (await send(`${server.url}/api/v1/pages/${rest.results[0].slug}`)).json();
    // The resource is the page's `.md` twin: front matter, then the JSON's markdown (first part of it).
    const twin = markdownTwin(page);
    const got = (read.contents[0] as { text: string }).text;
    expect(got.length).toBeGreaterThan(Math.min(twin.length, 2000) - 1);
    expect(twin.startsWith(got.replace(/\n\n\[Part 1 of \d+ of [^\]]+\]$/, ''))).toBe(true);
  });

  it('reads a query as a question when it ends with "?", starts with a question word, or has 5+ words', () => {
    for (const q of [
      'Is there a free trial?',
      'trial?',
      'how do I bill storage',
      "What's the price of Growth",
      'does the crew app work offline',
      'Can I import jobs',
      'storage billing for self storage operators',
    ])
      expect(isQuestion(q), q).toBe(true);
    for (const q of ['storage billing', 'crew app', 'pricing', 'Xero MYOB sync', 'however storage'])
      expect(isQuestion(q), q).toBe(false);
  });

  it('a question gets the answering sections first (heading, text, section URL), then the same page results', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOLS]);
    const validate = new Ajv({ strict: false }).compile(
      tools.find((t) => t.name === 'search_kartage_site')!.outputSchema!,
    );
    const origin = server.deps.content.origin;
    const question = 'Is there a free trial?';
    const r = await client.callTool({ name: 'search_kartage_site', arguments: { query: question, limit: 5 } });
    expect(r.isError).toBeFalsy();
    expect(validate(r.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    type Section = { slug: string; title: string; heading: string | null; url: string; text: string };
    const { answer, ...pages } = r.structuredContent as {
      answer: { answered: boolean; answer: string; sections: Section[]; handoff: unknown };
    };
    // The page results are exactly what the keyword form gives: GET /api/v1/search's, markdown_url moved to links.
    const rest = (await send(`${server.url}/api/v1/search?q=${encodeURIComponent(question)}&limit=5`)).json();
    const lean = rest.results.map(({ markdown_url: _m, ...x }: { markdown_url: string }) => x);
    expect(pages).toEqual({ ...rest, results: lean, match: 'all' });
    // The answer is POST /api/v1/ask's, with only the sections it quotes.
    const asked = (await postJson(`${server.url}/api/v1/ask`, { question })).json();
    const quoted = asked.sources
      .filter((x: { role: string }) => x.role === 'answer')
      .map(({ role: _r, ...x }: { role: string }) => x);
    expect(answer).toEqual({ answered: true, answer: asked.answer, sections: quoted, handoff: asked.handoff });
    expect(answer.sections.length).toBeGreaterThan(0);
    const top = answer.sections[0]!;
    // A section that says what the trial is (the FAQ's, the pricing page's or the terms' own).
    expect(top.text).toMatch(/30-day (free )?trial/);
    expect(answer.answer).toMatch(/30-day (free )?trial/);
    // The section URL lands on the section: the page URL, the heading's anchor, the quoted sentence.
    expect(top.url).toMatch(new RegExp(`^${origin}/${top.slug}#[a-z0-9-]+(:~:text=.+)?$`));
    // In the text, the answer and its sections come first, then the ranked pages as before.
    const body = text(r);
    const at = (needle: string) => {
      expect(body).toContain(needle);
      return body.indexOf(needle);
    };
    expect(at('Answer from the Kartage website')).toBe(0);
    expect(at(answer.answer)).toBeLessThan(at(top.url));
    expect(at(top.url)).toBeLessThan(at(top.text));
    expect(at(top.text)).toBeLessThan(at(`${rest.count} results for "${question}"`));
    expect(at(`1. ${rest.results[0].title} (${rest.results[0].slug})`)).toBeGreaterThan(at(top.text));
    const links = (r.content as Block[]).filter((c) => c.type === 'resource_link');
    expect(links.map((l) => l.uri)).toEqual(rest.results.map((x: { markdown_url: string }) => x.markdown_url));
  });

  it('a keyword query has no answer; every shape of the answer fits the declared outputSchema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOLS]);
    const schema = tools.find((t) => t.name === 'search_kartage_site')!.outputSchema!;
    expect(Object.keys(schema.properties as object)).toContain('answer');
    expect(schema.required).not.toContain('answer');
    const validate = new Ajv({ strict: false }).compile(schema);
    const call = (query: string) => client.callTool({ name: 'search_kartage_site', arguments: { query } });

    const keyword = await call('storage billing');
    expect(keyword.structuredContent).not.toHaveProperty('answer');
    expect(text(keyword)).toMatch(/^\d+ results for "storage billing":/);
    expect(validate(keyword.structuredContent), JSON.stringify(validate.errors)).toBe(true);

    // A question the site does not answer: `answered` false, no sections, a person to turn to.
    const off = await call('What is the capital of France?');
    expect(validate(off.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    expect((off.structuredContent as { answer: unknown }).answer).toMatchObject({
      answered: false,
      sections: [],
      handoff: { intent: 'contact', url: expect.stringMatching(/\/contact$/) },
    });
    expect(text(off)).toMatch(/^Answer from the Kartage website:\n\nThe Kartage website doesn't answer that/);
    // No page at all: the answer still comes first, then "no page matches".
    const none = await call('zzqxv qqzvx wwzq?');
    expect(validate(none.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    expect(none.structuredContent).toMatchObject({ count: 0, results: [], answer: { answered: false } });
    expect(text(none)).toMatch(/doesn't answer that[\s\S]*No page matches "zzqxv qqzvx wwzq\?"/);
    // A pricing question: the answer shows its working; every source is a section of the pricing page.
    const price = await call('How much is Growth with 3 extra office users a month?');
    expect(validate(price.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    const priced = (price.structuredContent as { answer: { answer: string; sections: { url: string }[] } }).answer;
    expect(priced.answer).toMatch(/\$1,025/);
    for (const x of priced.sections) expect(x.url).toMatch(/\/pricing#/);
  });

  it('list and search default to 25 and 20 entries; limit still reaches the contract maximum', async () => {
    const search = await client.callTool({ name: 'search_kartage_site', arguments: { query: 'storage' } });
    expect((search.structuredContent as { count: number }).count).toBe(MCP_DEFAULTS.searchLimit);
    const fifty = await client.callTool({
      name: 'search_kartage_site',
      arguments: { query: 'storage', limit: LIMITS.searchLimit.max },
    });
    expect((fifty.structuredContent as { count: number }).count).toBeGreaterThan(MCP_DEFAULTS.searchLimit);
    const list = ListPagesResponseSchema.parse(
      (await client.callTool({ name: 'list_kartage_pages', arguments: {} })).structuredContent,
    );
    expect(list.count).toBe(MCP_DEFAULTS.listLimit);
    expect(list.nextCursor).toBe(list.pages.at(-1)!.slug);
    const all = ListPagesResponseSchema.parse(
      (await client.callTool({ name: 'list_kartage_pages', arguments: { limit: LIMITS.listLimit.max } }))
        .structuredContent,
    );
    expect(all.count).toBe(Math.min(LIMITS.listLimit.max, server.deps.content.entries().length));
  });

  it('a long question no page matches whole gets ranked partial matches; nonsense gets nothing', async () => {
    const question = 'how do I reduce damage claims on interstate moves with zzqxv';
    const strict = (await send(`${server.url}/api/v1/search?q=${encodeURIComponent(question)}`)).json();
    expect(strict.count).toBe(0);
    const r = await client.callTool({ name: 'search_kartage_site', arguments: { query: question } });
    const s = r.structuredContent as { match: string; count: number; results: { slug: string; matched: string[] }[] };
    expect(s.match).toBe('partial');
    expect(s.count).toBeGreaterThan(0);
    expect(s.results[0]!.matched.length).toBeGreaterThanOrEqual(2);
    expect(s.results[0]!.matched).not.toContain('zzqxv');
    for (let i = 1; i < s.results.length; i++)
      expect(s.results[i]!.matched.length).toBeLessThanOrEqual(s.results[i - 1]!.matched.length);
    expect(text(r)).toMatch(/No page holds every word/);
    const none = await client.callTool({ name: 'search_kartage_site', arguments: { query: 'zzqxv qqzvx wwzq' } });
    expect(none.structuredContent).toMatchObject({ count: 0, results: [] });
  });

  it('get_kartage_page returns the page markdown once, its fields, a resource_link, and parts when asked', async () => {
    const r = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'pricing' } });
    const rest = (await send(`${server.url}/api/v1/pages/pricing`)).json();
    expect(r.structuredContent).toMatchObject({
      slug: 'pricing',
      title: rest.title,
      url: rest.url,
      part: 1,
      parts: 1,
      chars: rest.markdown.length,
    });
    expect(r.structuredContent).not.toHaveProperty('markdown');
    expect(text(r)).toBe(rest.markdown);
    // The markdown appears once in the whole result.
    const probe = JSON.stringify(rest.markdown.slice(200, 260)).slice(1, -1);
    expect(JSON.stringify(r).split(probe).length - 1).toBe(1);
    expect(r.content).toContainEqual({
      type: 'resource_link',
      uri: rest.markdown_url,
      name: 'pricing',
      mimeType: 'text/markdown',
    });
    const dev = (await send(`${server.url}/api/v1/pages/developers`)).json();
    const parts: string[] = [];
    for (let part = 1; ; part++) {
      const p = await client.callTool({
        name: 'get_kartage_page',
        arguments: { slug: 'developers', part, maxChars: 2000 },
      });
      const s = p.structuredContent as { chars: number; parts: number };
      const body = text(p).replace(PART_NOTE, '');
      expect(body.length).toBe(s.chars);
      expect(s.chars).toBeLessThanOrEqual(2000);
      parts.push(body);
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
    const second = ListPagesResponseSchema.parse(
      (
        await client.callTool({
          name: 'list_kartage_pages',
          arguments: { prefix: 'blog/', limit: 10, cursor: page1.nextCursor },
        })
      ).structuredContent,
    );
    expect(second.pages[0]!.slug > page1.pages.at(-1)!.slug).toBe(true);
  });

  it('a cursor that cannot be a nextCursor is refused, saying so; any slug-shaped one pages on', async () => {
    for (const cursor of ['!!garbage!!', 'Blog/X', 'x'.repeat(301)]) {
      const r = await client.callTool({ name: 'list_kartage_pages', arguments: { cursor } });
      expect(r.isError, cursor).toBe(true);
      expect(text(r)).toMatch(/cursor/);
    }
    const gone = ListPagesResponseSchema.parse(
      (await client.callTool({ name: 'list_kartage_pages', arguments: { cursor: 'blog/a-removed-post' } }))
        .structuredContent,
    );
    expect(gone.pages[0]!.slug > 'blog/a-removed-post').toBe(true);
  });

  it('get_kartage_pricing gives the plans and a recommendation with reasons', async () => {
    const all = await client.callTool({ name: 'get_kartage_pricing', arguments: {} });
    const s = all.structuredContent as { plans: { name: string; monthly: number }[]; recommendation?: unknown };
    expect(s.plans.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Professional', 'Enterprise']);
    expect(s.recommendation).toBeUndefined();
    const rec = await client.callTool({
      name: 'get_kartage_pricing',
      arguments: { segment: 'Military & government', warehouses: '1', moves: 'Under 500' },
    });
    expect(
      (rec.structuredContent as { recommendation: { plan: string; reasons: string[] } }).recommendation,
    ).toMatchObject({ plan: 'enterprise', reasons: expect.arrayContaining([expect.stringMatching(/Military/)]) });
    const growth = await client.callTool({
      name: 'get_kartage_pricing',
      arguments: { warehouses: '1', moves: '500-2,000' },
    });
    expect((growth.structuredContent as { recommendation: { plan: string } }).recommendation.plan).toBe('growth');
    expect(text(growth)).toMatch(/Recommended: \*\*Growth\*\*/);
  });

  it('an unknown slug or bad arguments are tool errors with a useful message, not protocol failures', async () => {
    const missing = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'no-such-page' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/No page with slug "no-such-page".*search_kartage_site/);
    const beyond = await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'pricing', part: 9 } });
    expect(beyond.isError).toBe(true);
    for (const [name, args, field] of [
      ['search_kartage_site', { query: 'a' }, 'query'],
      ['search_kartage_site', { query: 'storage', limit: 0 }, 'limit'],
      ['get_kartage_page', { slug: 'Bad Slug!' }, 'slug'],
      ['list_kartage_pages', { limit: 101 }, 'limit'],
      ['get_kartage_pricing', { moves: 'lots' }, 'moves'],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r)).toMatch(new RegExp(`^Invalid arguments for ${name}: ${field}: `));
      expect(text(r)).not.toMatch(/[[{]\s*"/);
    }
  });
});

describe('resources through the SDK client', () => {
  /** Every part of a resource, part notes removed, joined: the whole text. */
  async function readAll(uri: string): Promise<string> {
    let all = '';
    for (let part = 1; ; part++) {
      const read = await client.readResource({ uri: part === 1 ? uri : `${uri}?part=${part}` });
      const body = (read.contents[0] as { text: string }).text;
      const m = /\n\n\[Part (\d+) of (\d+) of [^\]]*\]$/.exec(body);
      if (!m) return all + body;
      expect(m.index).toBeLessThanOrEqual(PART_CHARS);
      all += body.slice(0, m.index);
    }
  }

  it('lists the machine files and key pages, each read in bounded parts that make the served file', async () => {
    const { resources } = await client.listResources();
    const origin = server.deps.content.origin;
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        `${origin}/llms.txt`,
        `${origin}/sitemap.xml`,
        `${origin}/openapi.json`,
        `${origin}/index.md`,
        `${origin}/pricing.md`,
        `${origin}/product/storage.md`,
      ]),
    );
    expect(uris.filter((u) => /\/(product|solutions)\//.test(u)).length).toBe(16);
    for (const r of resources) {
      const body = await readAll(r.uri);
      const served = await send(`${server.url}${new URL(r.uri).pathname}`);
      expect(served.status, r.uri).toBe(200);
      if (r.uri.endsWith('.json')) expect(JSON.parse(body)).toEqual(served.json());
      else expect(body, r.uri).toBe(served.text);
    }
    const llms = await client.readResource({ uri: `${origin}/llms.txt` });
    expect((llms.contents[0] as { text: string }).text).toMatch(
      /\[Part 1 of \d+ of \S+\/llms\.txt: read \S+\/llms\.txt\?part=2 for more\.\]$/,
    );
  });

  it('the template reads any page and completes slugs; an unknown page is -32002 (not found)', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    const origin = server.deps.content.origin;
    const read = await client.readResource({ uri: `${origin}/blog/planning-for-peak-season.md` });
    expect((read.contents[0] as { text: string }).text).toBe(
      (await send(`${server.url}/blog/planning-for-peak-season.md`)).text,
    );
    const done = await client.complete({
      ref: { type: 'ref/resource', uri: resourceTemplates[0]!.uriTemplate },
      argument: { name: 'slug', value: 'blog/pl' },
    });
    expect(done.completion.values).toContain('blog/planning-for-peak-season');
    for (const uri of [
      `${origin}/no/such/page.md`,
      `${origin}/pricing.md?part=9`,
      'https://elsewhere.example/pricing.md',
    ]) {
      const e = await client.readResource({ uri }).then(
        () => undefined,
        (x: { code: number; message: string }) => x,
      );
      expect(e?.code, uri).toBe(-32002);
      expect(e!.message).toMatch(/Resource not found/);
      expect(e!.message).not.toMatch(/MCP error -32002: MCP error/);
    }
  });
});

describe('a large site (10,000 more slugs, and a page that is one long line of emoji)', () => {
  let big: RunningServer;
  let bigClient: Client;
  let dir: string;
  const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
  const EMOJI_MD = `x${FAMILY.repeat(700)}`;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kartage-mcp-'));
    const data = JSON.parse(await readFile(join(PROJECT_ROOT, 'build/content.json'), 'utf8')) as ContentData;
    const model = data.pages.find((p) => p.slug.startsWith('blog/'))!;
    const extra = Array.from({ length: 10_000 }, (_, i) => ({
      ...model,
      slug: `blog/zz-${String(i).padStart(5, '0')}`,
    }));
    data.pages = [...data.pages, ...extra, { ...model, slug: 'blog/zz-emoji', markdown: EMOJI_MD }].sort((a, b) =>
      a.slug < b.slug ? -1 : 1,
    );
    await writeFile(join(dir, 'content.json'), JSON.stringify(data));
    await copyFile(join(PROJECT_ROOT, 'build/search-index.json'), join(dir, 'search-index.json'));
    big = await startTestServer({ deps: createDeps({ env: process.env, dataDir: dir }) });
    bigClient = new Client({ name: 'kartage-tests', version: '1.0.0' });
    await bigClient.connect(
      new StreamableHTTPClientTransport(new URL(`${big.url.replace('127.0.0.1', 'localhost')}/mcp`)),
    );
  });
  afterAll(async () => {
    await bigClient?.close();
    await big?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('slug completion reports the true total and hasMore', async () => {
    const { resourceTemplates } = await bigClient.listResourceTemplates();
    const ref = { type: 'ref/resource' as const, uri: resourceTemplates[0]!.uriTemplate };
    const done = await bigClient.complete({ ref, argument: { name: 'slug', value: 'blog/zz' } });
    expect(done.completion.values).toHaveLength(100);
    expect(done.completion.total).toBe(10_001);
    expect(done.completion.hasMore).toBe(true);
    const few = await bigClient.complete({ ref, argument: { name: 'slug', value: 'blog/zz-0000' } });
    expect(few.completion).toMatchObject({ total: 10, hasMore: false });
  });

  it('a hard cut in one long line never splits an emoji: every part is whole grapheme clusters', async () => {
    const parts: string[] = [];
    for (let part = 1; ; part++) {
      const p = await bigClient.callTool({
        name: 'get_kartage_page',
        arguments: { slug: 'blog/zz-emoji', part, maxChars: 1000 },
      });
      const body = text(p).replace(PART_NOTE, '');
      expect(body.length).toBeLessThanOrEqual(1000);
      expect(body).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      parts.push(body);
      if (part === (p.structuredContent as { parts: number }).parts) break;
    }
    expect(parts.length).toBeGreaterThan(5);
    for (const body of parts.slice(1)) expect(body.replaceAll(FAMILY, ''), 'only whole families').toBe('');
    expect(parts.join('')).toBe(EMOJI_MD);
  });
});

describe('/mcp over HTTP', () => {
  const init = (version: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const mcpHeaders = { Accept: 'application/json, text/event-stream' };
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  it('negotiates protocol versions 2025-06-18 and 2025-11-25', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const r = await postJson(`${base}/mcp`, init(v), { headers: mcpHeaders });
      expect(r.status).toBe(200);
      expect(r.json().result.protocolVersion).toBe(v);
      expect(r.json().result.capabilities).toEqual({ tools: {}, resources: {}, completions: {} });
      expect(r.headers['ratelimit-policy']).toBe('120;w=60');
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('a whole session works on 2025-06-18 as on 2025-11-25: tools, links, bounded reads, completion', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const h = { headers: { ...mcpHeaders, 'Mcp-Protocol-Version': v }, from: '127.0.0.24' };
      const call = async (method: string, params: unknown) => {
        const r = await postJson(`${server.url}/mcp`, { jsonrpc: '2.0', id: 3, method, params }, h);
        expect(r.status, `${v} ${method}`).toBe(200);
        expect(r.json().error, `${v} ${method}`).toBeUndefined();
        return r.json().result;
      };
      expect(
        (await postJson(`${server.url}/mcp`, init(v), { headers: mcpHeaders, from: '127.0.0.24' })).json().result
          .protocolVersion,
      ).toBe(v);
      expect((await call('tools/list', {})).tools).toHaveLength(MCP_TOOLS.length);
      const found = await call('tools/call', { name: 'search_kartage_site', arguments: { query: 'crew app' } });
      expect(found.content.filter((c: Block) => c.type === 'resource_link').length).toBe(found.structuredContent.count);
      const llms = await call('resources/read', { uri: `${server.deps.content.origin}/llms.txt` });
      expect(llms.contents[0].text.length).toBeLessThan(PART_CHARS + 200);
      const ref = { type: 'ref/resource', uri: `${server.deps.content.origin}/{+slug}.md{?part}` };
      expect((await call('completion/complete', { ref, argument: { name: 'slug', value: 'pri' } })).completion).toEqual(
        {
          values: ['pricing', 'privacy'],
          total: 2,
          hasMore: false,
        },
      );
    }
  });

  it('every method but POST and OPTIONS is 405 with one Allow; bad Accept or JSON is a 4xx', async () => {
    // (HEAD is checked in tests/fuzz/mcp.test.ts with the raw client.)
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const r = await send(`${base}/mcp`, { method, headers: mcpHeaders });
      expect(r.status, method).toBe(405);
      expect(r.headers.allow, method).toBe('POST, OPTIONS');
      expect(r.json()).toMatchObject({ status: 405, error: expect.stringMatching(/POST only/) });
    }
    expect((await postJson(`${base}/mcp`, init('2025-11-25'))).status).toBe(406);
    expect((await postJson(`${base}/mcp`, '{"jsonrpc":', { headers: mcpHeaders })).status).toBe(400);
    expect(
      (
        await send(`${base}/mcp`, {
          method: 'POST',
          body: 'x',
          headers: { ...mcpHeaders, 'Content-Type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    const preflight = await send(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Protocol-Version');
  });

  it('malformed params are -32602 with a readable message, not -32603 with a zod dump', async () => {
    const h = { headers: { ...mcpHeaders, 'Mcp-Protocol-Version': '2025-11-25' }, from: '127.0.0.25' };
    for (const [message, field] of [
      [{ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } }, 'params.name'],
      [{ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 5 } }, 'params.uri'],
      [{ jsonrpc: '2.0', id: 7, method: 'resources/read', params: {} }, 'params.uri'],
      [{ jsonrpc: '2.0', id: 7, method: 'completion/complete', params: { ref: { type: 'ref/resource' } } }, 'params'],
      [{ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, 'params.c'],
    ] as const) {
      const r = await postJson(`${server.url}/mcp`, message, h);
      expect(r.status).toBe(200);
      const { error } = r.json();
      expect(error?.code, JSON.stringify(message)).toBe(-32602);
      expect(error.message).toMatch(new RegExp(`^Invalid params for ${message.method}: ${field.replace('.', '\\.')}`));
      expect(error.message).not.toMatch(/[[{]\s*"/);
    }
    const unknown = (
      await postJson(`${server.url}/mcp`, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nope' } }, h)
    ).json();
    expect(unknown.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown tool "nope"; the tools are search_kartage_site/),
    });
  });

  it('refuses foreign Hosts and plain-http foreign Origins; accepts https agents; ignores Authorization', async () => {
    const evilHost = await postJson(`${server.url}/mcp`, init('2025-11-25'), {
      headers: { ...mcpHeaders, Host: 'evil.example.com' },
    });
    expect(evilHost.status).toBe(400);
    expect(evilHost.json().error).toMatch(/DNS-rebinding/);
    const evilOrigin = await postJson(`${base}/mcp`, init('2025-11-25'), {
      headers: { ...mcpHeaders, Origin: 'http://evil.example.com' },
    });
    expect(evilOrigin.status).toBe(400);
    const agent = await postJson(`${base}/mcp`, init('2025-11-25'), {
      headers: { ...mcpHeaders, Origin: 'https://agent.example', Authorization: 'Bearer whatever' },
    });
    expect(agent.status).toBe(200);
    expect(agent.headers['www-authenticate']).toBeUndefined();
  });

  // One POST was one read unit whatever it carried (100 calls, up to 6.3 MB back, a 4 MiB body).
  it('refuses JSON-RPC batches for protocol 2025-06-18 and later (header or initialize in the batch)', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const r = await postJson(`${server.url}/mcp`, [ping(1), ping(2)], {
        headers: { ...mcpHeaders, 'Mcp-Protocol-Version': v },
        from: '127.0.0.21',
      });
      expect(r.status).toBe(400);
      expect(r.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringMatching(/batches are not supported in protocol .*one message per POST/),
        },
      });
      const withInit = await postJson(`${server.url}/mcp`, [init(v), ping(2)], {
        headers: mcpHeaders,
        from: '127.0.0.21',
      });
      expect(withInit.status).toBe(400);
      expect(withInit.json().error.code).toBe(-32600);
    }
  });

  it('older protocols: each message of a batch spends a read unit; the budget ends the batch', async () => {
    const from = '127.0.0.22';
    const before = await postJson(`${server.url}/mcp`, ping(1), { headers: mcpHeaders, from });
    const left = Number(before.headers['ratelimit-remaining']);
    const batch = await postJson(
      `${server.url}/mcp`,
      Array.from({ length: 5 }, (_, i) => ping(i + 2)),
      { headers: { ...mcpHeaders, 'Mcp-Protocol-Version': '2025-03-26' }, from },
    );
    expect(batch.status).toBe(200);
    expect(batch.json()).toHaveLength(5);
    expect(Number(batch.headers['ratelimit-remaining'])).toBe(left - 5);
    expect(MCP_BATCH_MAX, 'docs/agents.md, MCP: at most 10 messages a batch').toBe(10);
    // Batches of the most messages allowed until one finds fewer units left than it holds: a 429.
    let last = batch;
    for (let i = 0; last.status === 200 && i <= LIMITS.read.limit / 10; i++)
      last = await postJson(
        `${server.url}/mcp`,
        Array.from({ length: 10 }, (_, j) => ping(j + 10)),
        { headers: mcpHeaders, from },
      );
    expect(last.status).toBe(429);
    // The 429 every metered answer gives (the one builder): its budget's headers, never cached, CORS open.
    const retryAfter = Number(last.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(last.json()).toEqual({ error: refusalText(READ_POLICY, retryAfter), status: 429 });
    expect(last.headers).toMatchObject({
      'cache-control': 'no-store',
      'ratelimit-limit': String(LIMITS.read.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(retryAfter),
      'ratelimit-policy': policyOf(LIMITS.read),
      'access-control-allow-origin': '*',
    });
  });

  it('a body over 64 KB is a 413 with the Error body, as on every other endpoint', async () => {
    const pad = 'x'.repeat(LIMITS.readBodyBytes);
    const r = await postJson(
      `${server.url}/mcp`,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_kartage_site', arguments: { query: 'storage', pad } },
      },
      { headers: mcpHeaders, from: '127.0.0.23' },
    );
    expect(r.status).toBe(413);
    expect(r.json()).toEqual({ error: `Request body is larger than ${LIMITS.readBodyBytes} bytes`, status: 413 });
    expect(r.headers['access-control-allow-origin']).toBe('*');
    const fits = await postJson(
      `${server.url}/mcp`,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_kartage_site', arguments: { query: 'storage', pad: pad.slice(0, 60_000) } },
      },
      { headers: mcpHeaders, from: '127.0.0.23' },
    );
    expect(fits.status).toBe(200);
  });
});

// Without MCP-Protocol-Version, a batch of 100 searches (490-character queries, limit 50) was
// one request: 3.96 MB out, the event loop held 1.2-1.6 s, a concurrent GET /pricing waited over a second;
// and every read of the OpenAPI resource built the document again.
describe('one unit of bounded work per request', () => {
  const mcpHeaders = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
  let own: RunningServer;
  let origin: string;
  /** The loop turn (counted by `tick` while `ticking`) at each search the server ran. */
  const searches: number[] = [];
  let turns = 0;
  let ticking = false;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  let onSearch: (() => void) | undefined;

  beforeAll(async () => {
    const varDir = await mkdtemp(join(tmpdir(), 'kartage-mcp-bounded-'));
    const content = loadContent(join(PROJECT_ROOT, 'build'));
    // The content as the server sees it, with every search counted (the tools' work).
    const counted = new Proxy(content, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop === 'searchIndex')
          return () => {
            searches.push(turns);
            onSearch?.();
            return content.searchIndex();
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    own = await startTestServer({
      deps: createDeps({ content: counted, env: { ...process.env, KARTAGE_VAR_DIR: varDir } }),
    });
    origin = own.deps.content.origin;
  });
  afterAll(async () => {
    await own?.close();
  });

  const search = (id: number, query: string, limit?: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search_kartage_site', arguments: limit ? { query, limit } : { query } },
  });
  const post = (body: unknown, from: string) =>
    timedRequest(`${own.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(body), from });

  it('a batch of 11 is a 413 with the Error body before any work; a batch of 10 works', async () => {
    const from = '127.0.0.30';
    const first = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, from);
    const left = Number(first.headers['ratelimit-remaining']);
    searches.length = 0;
    const eleven = await post(
      Array.from({ length: 11 }, (_, i) => search(i + 2, 'storage billing')),
      from,
    );
    expect(eleven.status).toBe(413);
    expect(eleven.json()).toEqual({
      error: 'A JSON-RPC batch holds at most 10 messages, not 11; send the rest in further POSTs',
      status: 413,
    });
    expect(eleven.headers['access-control-allow-origin']).toBe('*');
    // No work: no search ran, and only the request's own read unit was spent (not one a message).
    expect(searches).toEqual([]);
    expect(Number(eleven.headers['ratelimit-remaining'])).toBe(left - 1);

    const ten = await post(
      Array.from({ length: 10 }, (_, i) => search(i + 2, 'storage billing')),
      from,
    );
    expect(ten.status).toBe(200);
    const answers = ten.json() as { id: number; result: { isError?: boolean; structuredContent: { count: number } } }[];
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
    for (const a of answers) {
      expect(a.result.isError).toBeFalsy();
      expect(a.result.structuredContent.count).toBeGreaterThan(0);
    }
    expect(searches).toHaveLength(10);
    expect(Number(ten.headers['ratelimit-remaining'])).toBe(left - 11);
  });

  it('the messages of a batch run a loop turn apart: a static page is answered during the worst batch', async () => {
    // The worst batch: 10 searches of 490-character questions (the assistant answers them too) whose words
    // are all on the site but never on one page (the partial search runs word by word), limit 50.
    const words = (
      'storage billing crew app quoting dispatch scheduling invoicing portal reporting removalist warehouse ' +
      'international moves pricing trial onboarding containers inventory customers xero myob office'
    ).split(' ');
    const query = (i: number) => {
      let q = `how does zzqv${i}`;
      for (let w = i; q.length < 490; w++) q += ` ${words[w % words.length]}`;
      return q.slice(0, 490);
    };
    const batch = Array.from({ length: 10 }, (_, i) => search(i + 1, query(i), 50));
    expect(batch.every((m) => m.params.arguments.query.length === 490)).toBe(true);
    expect((await send(`${own.url}/pricing`)).status).toBe(200); // the page is cached, as on a warm instance

    const order: string[] = [];
    let page: Promise<RawAnswer> | undefined;
    // The static request starts when the batch's first search does: the batch's work is under way.
    onSearch = () => {
      page ??= timedRequest(`${own.url}/pricing`, { from: '127.0.0.32' }).then((a) => {
        order.push('static page');
        return a;
      });
    };
    searches.length = 0;
    ticking = true;
    setImmediate(tick);
    const answer = await post(batch, '127.0.0.31').finally(() => {
      order.push('batch');
      ticking = false;
      onSearch = undefined;
    });
    expect(answer.status).toBe(200);
    const results = answer.json() as { result: { isError?: boolean; structuredContent: { count: number } } }[];
    expect(results).toHaveLength(10);
    for (const r of results) expect(r.result.isError).toBeFalsy();
    expect(results.some((r) => r.result.structuredContent.count > 10)).toBe(true);
    expect((await page!).status).toBe(200);
    // Each search ran at least a loop turn after the one before (the old code ran all ten in one turn) ...
    expect(searches).toHaveLength(10);
    for (let i = 1; i < searches.length; i++) expect(searches[i], `search ${i + 1}`).toBeGreaterThan(searches[i - 1]!);
    // ... so the page, asked for once the batch had started, was answered before the batch was.
    expect(order).toEqual(['static page', 'batch']);
  });

  /** Every part of a resource read over raw JSON-RPC, part notes removed, joined. */
  async function readWhole(url: string, uri: string, from: string): Promise<string> {
    let all = '';
    for (let part = 1; part < 100; part++) {
      const r = await timedRequest(`${url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, 'Mcp-Protocol-Version': '2025-11-25' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: part,
          method: 'resources/read',
          params: { uri: part === 1 ? uri : `${uri}?part=${part}` },
        }),
        from,
      });
      expect(r.status).toBe(200);
      const body = r.json().result.contents[0].text as string;
      const m = /\n\n\[Part (\d+) of (\d+) of [^\]]*\]$/.exec(body);
      if (!m) return all + body;
      all += body.slice(0, m.index);
    }
    throw new Error('too many parts');
  }

  it('the OpenAPI resource is the built file (dist/openapi.json) byte for byte, as served', async () => {
    const built = await readFile(join(PROJECT_ROOT, 'dist/openapi.json'), 'utf8');
    expect(await readWhole(own.url, `${origin}/openapi.json`, '127.0.0.33')).toBe(built);
    expect((await send(`${own.url}/openapi.json`)).text).toBe(built);
  });

  it('the OpenAPI resource is read from the build once per instance; without a build of its own it is built', async () => {
    // A build folder of its own (KARTAGE_DATA_DIR) with a dist/openapi.json that no source would build.
    const root = await mkdtemp(join(tmpdir(), 'kartage-mcp-openapi-'));
    const data = join(root, 'build');
    await mkdir(data);
    await mkdir(join(root, 'dist'));
    await copyFile(join(PROJECT_ROOT, 'build/content.json'), join(data, 'content.json'));
    await copyFile(join(PROJECT_ROOT, 'build/search-index.json'), join(data, 'search-index.json'));
    const doc = JSON.parse(await readFile(join(PROJECT_ROOT, 'dist/openapi.json'), 'utf8'));
    const mine = JSON.stringify({ ...doc, 'x-built-by': 'this test' }, null, 1);
    const file = join(root, 'dist/openapi.json');
    await writeFile(file, mine);
    const varDir = join(root, 'var');
    const other = await startTestServer({
      deps: createDeps({ env: { ...process.env, KARTAGE_DATA_DIR: data, KARTAGE_VAR_DIR: varDir } }),
    });
    try {
      const uri = `${other.deps.content.origin}/openapi.json`;
      expect(await readWhole(other.url, uri, '127.0.0.34')).toBe(mine);
      // Read once: a later change to the file is not read again by this instance.
      await writeFile(file, '{}');
      expect(await readWhole(other.url, uri, '127.0.0.34')).toBe(mine);
    } finally {
      await other.close();
    }
    // No file, or one built for another origin: the document built from the operations, as the build writes it.
    const fresh = JSON.stringify(buildOpenApi(origin, operations), null, 2);
    expect(openApiText(origin, join(root, 'absent/openapi.json'), () => fresh)).toBe(fresh);
    const elsewhere = join(root, 'dist/elsewhere.json');
    await writeFile(elsewhere, JSON.stringify({ ...doc, servers: [{ url: 'https://elsewhere.example' }] }));
    expect(openApiText(origin, elsewhere, () => fresh)).toBe(fresh);
    await rm(root, { recursive: true, force: true });
  });
});

describe('the official conformance suite', () => {
  const cli = join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  // A server of its own, with its own store file: the suite's requests get a read budget of their own,
  // whatever ran before (the SQLite store is shared by every server on one KARTAGE_VAR_DIR).
  let own: RunningServer;
  let url: string;
  beforeAll(async () => {
    const varDir = await mkdtemp(join(tmpdir(), 'kartage-mcp-conformance-'));
    own = await startTestServer({ deps: createDeps({ env: { ...process.env, KARTAGE_VAR_DIR: varDir } }) });
    url = `${own.url.replace('127.0.0.1', 'localhost')}/mcp`;
  });
  afterAll(async () => {
    await own?.close();
  });
  // The scenarios that apply to a server with these tools; docs/agents.md (MCP) lists the others and why not.
  for (const version of ['2025-06-18', '2025-11-25']) {
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']) {
      it(`${scenario} (spec ${version})`, async () => {
        const args = [cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', version];
        const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 }).catch((e) => e);
        const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout ?? '');
        expect(m, stdout).not.toBeNull();
        expect(Number(m![3]), stdout).toBe(0);
        expect(Number(m![1])).toBe(Number(m![2]));
        expect(Number(m![2])).toBeGreaterThan(0);
      }, 90_000);
    }
  }
});

describe('splitting long texts', () => {
  it('splitMarkdown cuts at paragraph breaks within the limit and loses nothing', () => {
    const md = Array.from({ length: 40 }, (_, i) => `## Section ${i}\n\n${'word '.repeat(60 + i)}`).join('\n\n');
    const parts = splitMarkdown(md, 1_000);
    expect(parts.length).toBeGreaterThan(10);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1_000);
    expect(parts.join('').replace(/\s+/g, '')).toBe(md.replace(/\s+/g, ''));
    expect(splitMarkdown('x'.repeat(2_500), 1_000).map((p) => p.length)).toEqual([1_000, 1_000, 500]);
  });

  it('splitExact gives back the text byte for byte', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i} ${'é'.repeat(i % 50)}${i % 7 ? '' : '\n'}`).join(
      '\n',
    );
    const parts = splitExact(text, 1_000);
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1_000);
    expect(parts.join('')).toBe(text);
  });

  it('a hard cut lands on a grapheme boundary: surrogate pairs, ZWJ sequences, flags, combining marks', () => {
    for (const unit of [
      '\u{1F44D}',
      '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
      '\u{1F1E6}\u{1F1FA}',
      'e\u0301',
      '\u{1F44D}\u{1F3FD}',
    ]) {
      for (let pad = 0; pad < unit.length + 1; pad++) {
        const s = 'a'.repeat(pad) + unit.repeat(200);
        const parts = splitMarkdown(s, 100);
        expect(parts.join(''), unit).toBe(s);
        for (const p of parts.slice(1)) expect(p.replaceAll(unit, ''), JSON.stringify(unit)).toBe('');
      }
    }
    expect(graphemeCut('abc', 10)).toBe(3);
    // One cluster longer than the limit: a code point cut, never an empty part or a broken pair.
    const marks = `e${'\u0301'.repeat(300)}\u{1F44D}`;
    expect(splitMarkdown(marks, 100).join('')).toBe(marks);
    expect(graphemeCut('\u{1F44D}'.repeat(10), 5)).toBe(4);
  });
});
