/** The auxiliary GET paths of the contract ("Other GET paths", "Authentication") over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from '../../src/contract/mcp.ts';
import { startTestServer } from '../helpers/server.ts';
import { postJson, send } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

let server: RunningServer;
let origin: string;
beforeAll(async () => {
  server = await startTestServer();
  origin = server.deps.content().data.origin;
});
afterAll(() => server?.close());

describe('discovery files', () => {
  it('/.well-known/mcp.json names the streamable-http remote and the server version', async () => {
    const r = await send(`${server.url}/.well-known/mcp.json`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toMatchObject({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }] });
    expect(r.json().description.length).toBeLessThanOrEqual(100);
  });

  it('/.well-known/ard.json lists the MCP server, the OpenAPI and llms.txt with representative queries', async () => {
    const ard = (await send(`${server.url}/.well-known/ard.json`)).json();
    expect(ard.specVersion).toBe('1.0');
    const urls = ard.entries.map((e: { url: string }) => e.url);
    expect(urls).toEqual(expect.arrayContaining([`${origin}/.well-known/mcp.json`, `${origin}/openapi.json`, `${origin}/llms.txt`]));
    for (const e of ard.entries) {
      expect(e.identifier).toMatch(/^urn:air:/);
      expect(e.representativeQueries.length).toBeGreaterThanOrEqual(2);
      expect(e.representativeQueries.length).toBeLessThanOrEqual(5);
    }
  });

  it('/.well-known/api-catalog is an RFC 9727 linkset that names itself', async () => {
    const r = await send(`${server.url}/.well-known/api-catalog`);
    expect(r.headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
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
    for (const rel of ['ard', 'api-catalog', 'service-desc', 'service-doc', 'alternate']) expect(link).toContain(`rel="${rel}"`);
  });

  it('OAuth metadata paths are absent and no answer challenges for credentials', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const r = await send(`${server.url}${path}`, { headers: { Authorization: 'Bearer x' } });
      expect(r.status, path).toBe(404);
      expect(r.headers['www-authenticate']).toBeUndefined();
    }
    const withAuth = await send(`${server.url}/api/v1/pages?limit=1`, { headers: { Authorization: 'Bearer anything' } });
    expect(withAuth.status).toBe(200);
  });

  it('the sandbox examples at /api/v1/sandbox are what the sandbox answers to their requests, word for word', async () => {
    const info = (await send(`${server.url}/api/v1/sandbox`)).json() as { examples: { request: unknown; response: { status: number; body: unknown } }[] };
    expect(info.examples.length).toBeGreaterThanOrEqual(2);
    for (const ex of info.examples) {
      const real = await postJson(`${server.url}/api/v1/lead/validate`, ex.request);
      expect(real.status).toBe(ex.response.status);
      expect(real.json()).toEqual(ex.response.body);
    }
  });
});
