/** The auxiliary GET paths of the contract ("Other GET paths", "Authentication") over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from '../../src/contract/mcp.ts';
import { CONTENT_SIGNAL } from '../../src/contract/routes.ts';
import { markdownTokens } from '../../src/core/markdown-doc.ts';
import { startTestServer } from '../helpers/server.ts';
import { postJson, send } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

let server: RunningServer;
let origin: string;
beforeAll(async () => {
  server = await startTestServer();
  origin = server.deps.content.origin;
});
afterAll(() => server?.close());

describe('discovery files', () => {
  it('/.well-known/mcp.json names the streamable-http remote and the server version', async () => {
    const r = await send(`${server.url}/.well-known/mcp.json`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toMatchObject({
      name: MCP_SERVER_NAME,
      version: MCP_SERVER_VERSION,
      remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }],
    });
    expect(r.json().description.length).toBeLessThanOrEqual(100);
  });

  it('/.well-known/ard.json lists the MCP server, the OpenAPI and llms.txt with representative queries', async () => {
    const ard = (await send(`${server.url}/.well-known/ard.json`)).json();
    expect(ard.specVersion).toBe('1.0');
    const urls = ard.entries.map((e: { url: string }) => e.url);
    expect(urls).toEqual(
      expect.arrayContaining([`${origin}/.well-known/mcp.json`, `${origin}/openapi.json`, `${origin}/llms.txt`]),
    );
    for (const e of ard.entries) {
      expect(e.identifier).toMatch(/^urn:air:/);
      expect(e.representativeQueries.length).toBeGreaterThanOrEqual(2);
      expect(e.representativeQueries.length).toBeLessThanOrEqual(5);
    }
  });

  it('/.well-known/api-catalog is an RFC 9727 linkset that names itself', async () => {
    const r = await send(`${server.url}/.well-known/api-catalog`);
    expect(r.headers['content-type']).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(r.headers.link).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    const head = await send(`${server.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.headers.link).toContain('rel="api-catalog"');
    const set = r.json().linkset;
    expect(set[0]['service-desc'][0].href).toBe(`${origin}/openapi.json`);
  });

  it('/auth.md says no authentication is needed; /api-deprecation-policy and /api/v1/sandbox are served', async () => {
    const auth = await send(`${server.url}/auth.md`);
    expect(auth.status).toBe(200);
    expect(auth.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(auth.text).toMatch(/no authentication/i);
    expect((await send(`${server.url}/api-deprecation-policy`)).text).toMatch(/Sunset/);
    const sandbox = await send(`${server.url}/api/v1/sandbox`);
    expect(sandbox.json()).toMatchObject({ sandbox: { method: 'POST', url: `${origin}/api/v1/lead/validate` } });
  });

  it('the home page advertises them in Link headers', async () => {
    const link = (await send(`${server.url}/`)).headers.link;
    for (const rel of ['ard', 'api-catalog', 'service-desc', 'service-doc', 'alternate'])
      expect(link).toContain(`rel="${rel}"`);
  });

  it('every HTML page carries the discovery links, the server card and its own markdown alternate', async () => {
    const pages = server.deps.content.entries();
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const r = await send(new URL(page.url).pathname.replace(/^/, server.url));
      expect(r.headers['content-type'], page.slug).toMatch(/^text\/html/);
      expect(r.headers.vary, page.slug).toBe('Accept, User-Agent');
      const link = r.headers.link!;
      for (const rel of ['api-catalog', 'service-desc', 'service-doc', 'ard', 'describedby', 'mcp-server-card'])
        expect(link, `${page.slug} ${rel}`).toContain(`rel="${rel}"`);
      expect(link).toContain(
        '</.well-known/mcp/server-card.json>; rel="mcp-server-card"; type="application/mcp-server-card+json"',
      );
      expect(link).toContain(`</${page.slug}.md>; rel="alternate"; type="text/markdown"`);
    }
  });

  it('API answers point at the API description', async () => {
    for (const path of ['/api/v1/search?q=storage', '/api/v1/pages?limit=1', '/api/v1/pages/pricing']) {
      const link = (await send(`${server.url}${path}`)).headers.link;
      expect(link, path).toContain('</openapi.json>; rel="service-desc"');
      expect(link, path).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    }
  });

  it('OAuth metadata paths are absent and no answer challenges for credentials', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      const r = await send(`${server.url}${path}`, { headers: { Authorization: 'Bearer x' } });
      expect(r.status, path).toBe(404);
      expect(r.headers['www-authenticate']).toBeUndefined();
    }
    const withAuth = await send(`${server.url}/api/v1/pages?limit=1`, {
      headers: { Authorization: 'Bearer anything' },
    });
    expect(withAuth.status).toBe(200);
  });

  it('the sandbox examples at /api/v1/sandbox are what the sandbox answers to their requests, word for word', async () => {
    const info = (await send(`${server.url}/api/v1/sandbox`)).json() as {
      examples: { request: unknown; response: { status: number; body: unknown } }[];
    };
    expect(info.examples.length).toBeGreaterThanOrEqual(2);
    for (const ex of info.examples) {
      const real = await postJson(`${server.url}/api/v1/lead/validate`, ex.request);
      expect(real.status).toBe(ex.response.status);
      expect(real.json()).toEqual(ex.response.body);
    }
  });
});

describe('markdown answers an agent can use on its own', () => {
  const page = () => server.deps.content.page('pricing')!;

  it('an agent user agent without Accept (or with */*) gets the markdown twin; a browser and an agent asking for HTML get HTML', async () => {
    const twin = (await send(`${server.url}/pricing.md`)).text;
    const agents: Record<string, string>[] = [
      { 'User-Agent': 'ClaudeBot/1.0' },
      { 'User-Agent': 'Mozilla/5.0 (compatible; GPTBot/1.2)', Accept: '*/*' },
    ];
    for (const headers of agents) {
      const r = await send(`${server.url}/pricing`, { headers });
      expect(r.headers['content-type'], headers['User-Agent']).toBe('text/markdown; charset=utf-8');
      expect(r.text).toBe(twin);
      expect(r.headers.vary).toBe('Accept, User-Agent');
    }
    const browser = await send(`${server.url}/pricing`, {
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0', Accept: '*/*' },
    });
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    const agentAskingHtml = await send(`${server.url}/pricing`, {
      headers: { 'User-Agent': 'ClaudeBot/1.0', Accept: 'text/html' },
    });
    expect(agentAskingHtml.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.headers.vary).toBe('Accept, User-Agent');
  });

  it('every markdown answer (twin, negotiated, getPage) carries CORS, the canonical URL, tokens and content signals', async () => {
    const twin = await send(`${server.url}/pricing.md`);
    const answers = [
      twin,
      await send(`${server.url}/pricing`, { headers: { Accept: 'text/markdown' } }),
      await send(`${server.url}/pricing`, { headers: { 'User-Agent': 'Claude-User/1.0' } }),
      await send(`${server.url}/api/v1/pages/pricing`, { headers: { Accept: 'text/markdown' } }),
    ];
    for (const r of answers) {
      expect(r.text).toBe(twin.text);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['access-control-expose-headers']).toContain('x-markdown-tokens');
      expect(r.headers.link).toContain(`<${page().url}>; rel="canonical"`);
      expect(r.headers['x-markdown-tokens']).toBe(String(markdownTokens(twin.text)));
      expect(r.headers['content-signal']).toBe(CONTENT_SIGNAL);
    }
    expect(twin.headers['content-signal']).toBe(CONTENT_SIGNAL);
    expect(twin.headers['access-control-allow-origin']).toBe('*');
  });

  it('the twin is a standalone document: front matter, the H1 first, absolute links between pages', async () => {
    const origin = server.deps.content.origin;
    for (const p of server.deps.content.entries()) {
      const twin = (await send(`${server.url}/${p.slug}.md`)).text;
      const [, front, body] = twin.split(/^---$/m);
      expect(front, p.slug).toContain(`canonical_url: ${p.url}`);
      expect(front, p.slug).toMatch(/^title: "/m);
      if (p.updated) expect(front, p.slug).toContain(`last_updated: ${p.updated}`);
      expect(body!.trimStart(), p.slug).toMatch(/^# /);
      expect(body, p.slug).not.toMatch(/\]\(\/(?!\/)/);
      expect(twin.endsWith(server.deps.content.page(p.slug)!.markdown), p.slug).toBe(true);
    }
    expect((await send(`${server.url}/pricing.md`)).text).toContain(`](${origin}/`);
  });

  it('/sitemap.md lists every page with its title and absolute URL, grouped under headings', async () => {
    const r = await send(`${server.url}/sitemap.md`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(r.text).toMatch(/^# /);
    expect(r.text).toMatch(/^## Product$/m);
    for (const p of server.deps.content.entries()) expect(r.text, p.slug).toContain(`](${p.url})`);
  });

  it('robots.txt states the content signals in every group and links the markdown sitemap', async () => {
    const robots = (await send(`${server.url}/robots.txt`)).text;
    const groups = robots.split(/\n\n/).filter((g) => /^User-agent:/m.test(g));
    expect(groups.length).toBe(2);
    for (const g of groups) expect(g).toContain(`Content-Signal: ${CONTENT_SIGNAL}`);
    expect(robots).toContain('/sitemap.md');
  });
});
