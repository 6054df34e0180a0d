/** @module The discovery files: shapes against their specs, and that the derive step writes them. */
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCatalog,
  ardJson,
  DISCOVERY_PATHS,
  MCP_TOOLS,
  mcpServerJson,
  sandboxInfo,
  SERVER_SCHEMA_URL,
} from '../../src/build/discovery-files.ts';
import { deriveSite } from '../../src/build/derive.ts';
import { SKILL_PATH } from '../../src/build/agent-skills.ts';
import { fileOf, machineFiles } from '../../src/contract/links.ts';
import { htmlFileOfSlug, pageJsonPathOfSlug, twinPathOfSlug } from '../../src/contract/slugs.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { CONTENT_FILE } from '../../src/core/content.ts';
import { staticRewrites } from '../../src/contract/routes.ts';
import { routes } from '../../src/operations/index.ts';
import {
  DIALCODE_PATTERN,
  INTENTS,
  LEAD_FIELDS,
  LeadSchema,
  LeadValidationSchema,
  MOVES,
  SEGMENTS,
  WAREHOUSES,
} from '../../src/contract/schemas.ts';
import pkg from '../../package.json' with { type: 'json' };

const origin = 'https://kartage.example';
const underOrigin = (u: unknown) => typeof u === 'string' && new URL(u).origin === origin;

describe('MCP registry server.json', () => {
  const s = mcpServerJson(origin, '3.4.5');

  it('uses only fields of the 2025-12-11 schema', () => {
    const fields = [
      '$schema',
      '_meta',
      'name',
      'title',
      'description',
      'version',
      'websiteUrl',
      'repository',
      'icons',
      'packages',
      'remotes',
    ];
    expect(Object.keys(s).filter((k) => !fields.includes(k))).toEqual([]);
    expect(s.$schema).toBe(SERVER_SCHEMA_URL);
    expect(s.$schema).toContain('/2025-12-11/server.schema.json');
  });

  it('has a reverse-DNS name with exactly one slash, short texts and the exact version', () => {
    expect(s.name).toBe('au.com.kartage/site');
    expect(s.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(s.name.split('/')).toHaveLength(2);
    expect(s.description.length).toBeGreaterThan(0);
    expect(s.description.length).toBeLessThanOrEqual(100);
    expect(s.title.length).toBeLessThanOrEqual(100);
    expect(s.version).toBe('3.4.5');
    expect(underOrigin(s.websiteUrl)).toBe(true);
  });

  it('names one Streamable HTTP remote at /mcp', () => {
    expect(s.remotes).toEqual([{ type: 'streamable-http', url: `${origin}/mcp` }]);
  });

  it('links the MCP server card in publisher-provided metadata', () => {
    expect(s._meta['io.modelcontextprotocol.registry/publisher-provided'].serverCard).toEqual({
      url: `${origin}/.well-known/mcp/server-card.json`,
      type: 'application/mcp-server-card+json',
    });
  });
});

describe('ARD manifest', () => {
  const a = ardJson(origin);

  it('is a 1.0 manifest with a host object', () => {
    expect(a.specVersion).toBe('1.0');
    expect(a.host.displayName).toBe('Kartage');
    expect(underOrigin(a.host.documentationUrl)).toBe(true);
  });

  it('gives every entry a domain-anchored URN, a type, exactly one url and 2 to 5 queries', () => {
    expect(a.entries.length).toBe(6);
    expect(new Set(a.entries.map((e) => e.identifier)).size).toBe(a.entries.length);
    for (const e of a.entries) {
      expect(e.identifier).toMatch(/^urn:air:kartage\.com\.au:site:[a-z0-9-]+$/);
      expect(e.identifier).toMatch(/^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/);
      expect(e.displayName.length).toBeGreaterThan(0);
      expect(e.type).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
      expect(underOrigin(e.url)).toBe(true);
      expect('data' in e).toBe(false);
      expect(e.representativeQueries.length).toBeGreaterThanOrEqual(2);
      expect(e.representativeQueries.length).toBeLessThanOrEqual(5);
      expect(e.description.length).toBeGreaterThan(0);
    }
  });

  it('lists the MCP server card, the registry server.json, the skills, the OpenAPI, llms.txt and the sandbox', () => {
    const byType = Object.fromEntries(a.entries.map((e) => [e.type, e.url]));
    // The card type names the card only; the registry server.json is plain JSON.
    expect(byType['application/mcp-server-card+json']).toBe(`${origin}/.well-known/mcp/server-card.json`);
    expect(a.entries.find((e) => e.url === `${origin}/.well-known/mcp.json`)?.type).toBe('application/json');
    expect(a.entries.find((e) => e.url === `${origin}/.well-known/agent-skills/index.json`)?.type).toBe(
      'application/json',
    );
    expect(byType['application/openapi+json']).toBe(`${origin}/openapi.json`);
    expect(a.entries.find((e) => e.url === `${origin}/llms.txt`)).toBeDefined();
    expect(a.entries.find((e) => e.url === `${origin}/api/v1/sandbox`)).toBeDefined();
    const mcp = a.entries[0]!;
    for (const tool of MCP_TOOLS) expect(mcp.description).toContain(tool);
  });
});

describe('RFC 9727 API catalog', () => {
  const c = apiCatalog(origin);

  it('is a linkset whose anchors and hrefs are absolute URLs under the origin', () => {
    expect(Object.keys(c)).toEqual(['linkset']);
    expect(c.linkset.length).toBeGreaterThan(0);
    for (const context of c.linkset) {
      expect(underOrigin(context.anchor)).toBe(true);
      for (const [rel, targets] of Object.entries(context)) {
        if (rel === 'anchor') continue;
        // RFC 9264 section 4.2: a relation's value is always an array of target objects with an href.
        expect(Array.isArray(targets)).toBe(true);
        for (const t of targets as { href: string; type: string }[]) {
          expect(underOrigin(t.href)).toBe(true);
          expect(typeof t.type).toBe('string');
        }
      }
    }
  });

  it('describes /api/v1 with the OpenAPI documents and the developer guide', () => {
    const v1 = c.linkset.find((l) => l.anchor === `${origin}/api/v1`)!;
    expect(v1['service-desc']).toEqual([
      { href: `${origin}/openapi.json`, type: 'application/openapi+json' },
      { href: `${origin}/openapi.yaml`, type: 'application/yaml' },
    ]);
    expect(v1['service-doc']).toEqual([{ href: `${origin}/developers`, type: 'text/html' }]);
  });
});

describe('sandbox info', () => {
  const s = sandboxInfo(origin);

  it('points at the sandbox and at lead submission', () => {
    expect(s.sandbox).toMatchObject({ method: 'POST', url: `${origin}/api/v1/lead/validate` });
    expect(s.submitLead).toMatchObject({ method: 'POST', url: `${origin}/api/lead` });
    expect(
      routes.some((r) => r.path === '/api/v1/lead/validate' && (r.methods as readonly string[]).includes('POST')),
    ).toBe(true);
  });

  it("states the contract's fields, limits, enumerations, pattern and defaults", () => {
    expect([...s.fields.required, ...s.fields.optional].sort()).toEqual([...LEAD_FIELDS].sort());
    expect(s.fields.maxLength).toEqual(LIMITS.lead_fields);
    expect(s.fields.enums).toEqual({ intent: INTENTS, segment: SEGMENTS, warehouses: WAREHOUSES, moves: MOVES });
    expect(s.fields.patterns.dialcode).toBe(DIALCODE_PATTERN.source);
    const { dialcode, intent } = LeadSchema.parse({ name: 'A', email: 'a@example.com' });
    expect(s.fields.defaults).toEqual({ dialcode, intent });
    expect(s.outcomes.truncate.when.map((w) => w.field).sort()).toEqual([
      'company',
      'country',
      'message',
      'name',
      'phone',
    ]);
  });

  it('counts as a read and names every response status', () => {
    expect(s.rateLimit).toMatchObject({
      limit: LIMITS.read.limit,
      windowSeconds: LIMITS.read.windowSeconds,
      policy: '120;w=60',
    });
    expect(Object.keys(s.responses).sort()).toEqual(['200', '400', '413', '422', '429']);
  });

  it('has examples whose bodies are valid LeadValidation answers', () => {
    expect(s.examples.length).toBeGreaterThan(0);
    for (const ex of s.examples) {
      const body = LeadValidationSchema.parse(ex.response.body);
      expect(ex.response.status === 200).toBe(body.problems.length === 0);
    }
    expect(LeadSchema.safeParse(s.examples[0]!.request).success).toBe(true);
  });
});

describe('where the files are served', () => {
  it('writes the files the route table rewrites to', () => {
    const destinations = staticRewrites.map((r) => r.destination);
    expect(destinations).toContain(DISCOVERY_PATHS.apiCatalog);
    expect(destinations).toContain(DISCOVERY_PATHS.sandbox);
  });
});

describe('the derive step', () => {
  let dir = '';
  const html = `<!doctype html><html><head><title>Home | Kartage</title>
<meta name="description" content="Operating software for movers.">
<link rel="canonical" href="${origin}/"><meta name="kartage:slug" content="index">
</head><body><main><h1>Kartage</h1><p>Software for moving companies.</p></main></body></html>`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kartage-discovery-'));
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'dist', 'index.html'), html);
    await deriveSite({ distDir: join(dir, 'dist'), dataDir: join(dir, 'data'), origin, pagefind: false });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const read = async (path: string) => JSON.parse(await readFile(join(dir, 'dist', path), 'utf8'));

  it('writes the four discovery files into the output', async () => {
    expect(await read(DISCOVERY_PATHS.mcp)).toEqual(mcpServerJson(origin, pkg.version));
    expect(await read(DISCOVERY_PATHS.ard)).toEqual(ardJson(origin));
    expect(await read(DISCOVERY_PATHS.apiCatalog)).toEqual(apiCatalog(origin));
    expect(await read(DISCOVERY_PATHS.sandbox)).toEqual(sandboxInfo(origin));
  });

  it('links them from llms.txt', async () => {
    const llms = await readFile(join(dir, 'dist', 'llms.txt'), 'utf8');
    const paths = [
      '/.well-known/mcp.json',
      '/.well-known/ard.json',
      '/.well-known/api-catalog',
      '/api/v1/sandbox',
      '/auth.md',
      '/api-deprecation-policy',
      '/sitemap.md',
      '/.well-known/mcp/server-card.json',
      '/.well-known/agent-skills/index.json',
    ];
    for (const path of paths) {
      expect(llms).toContain(`](${origin}${path})`);
    }
  });

  it('writes every file of the machine-readable files list, and no machine file the list leaves out', async () => {
    const written = (await readdir(join(dir, 'dist'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => `/${relative(join(dir, 'dist'), join(e.parentPath, e.name)).split(sep).join('/')}`);
    const listed = machineFiles().map(fileOf);
    for (const f of listed) expect(written, f).toContain(f);
    // Besides the list: the page (its HTML, twin and JSON) and the skill the agent-skills index lists.
    const page = [`/${htmlFileOfSlug('index')}`, twinPathOfSlug('index'), pageJsonPathOfSlug('index')];
    expect(written.filter((f) => !listed.includes(f)).sort()).toEqual([...page, SKILL_PATH].sort());
  });

  it('lists them among the static files (so they are not 404s)', async () => {
    const data = JSON.parse(await readFile(join(dir, 'data', CONTENT_FILE), 'utf8')) as { files: string[] };
    for (const path of Object.values(DISCOVERY_PATHS)) expect(data.files).toContain(path);
  });
});
