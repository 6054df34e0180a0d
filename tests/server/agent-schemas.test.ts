/**
 * The discovery files the local server serves, validated against their published schemas (kept as data
 * files in tests/schemas, sources and versions in its README): the MCP registry server.json schema
 * 2025-12-11 (/.well-known/mcp.json), the ARD manifest schema 1.0 (/.well-known/ard.json) and the
 * sitemaps.org 0.9 XSD (/sitemap.xml, with libxml2's xmllint compiled to WebAssembly).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';
import { startTestServer } from '../helpers/server.ts';
import { send } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

const schema = (name: string) => readFileSync(new URL(`../schemas/${name}`, import.meta.url), 'utf8');
const withFormats = <T>(ajv: T): T => {
  (addFormats as unknown as (a: T) => T)(ajv);
  return ajv;
};

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('discovery files against their schemas', () => {
  it('/.well-known/mcp.json is a valid MCP registry server.json (schema 2025-12-11)', async () => {
    const ajv = withFormats(new Ajv({ strict: false, allErrors: true }));
    const validate = ajv.compile(JSON.parse(schema('mcp-server-2025-12-11.schema.json')));
    const served = (await send(`${server.url}/.well-known/mcp.json`)).json();
    expect(served.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(validate(served), JSON.stringify(validate.errors)).toBe(true);
    // The schema can fail: a name without its namespace slash is refused.
    expect(validate({ ...served, name: 'kartage' })).toBe(false);
  });

  it('/.well-known/ard.json is a valid ARD manifest (ai-catalog schema, specVersion 1.0)', async () => {
    const ajv = withFormats(new Ajv2020({ strict: false, allErrors: true }));
    const validate = ajv.compile(JSON.parse(schema('ard-ai-catalog-1.0.schema.json')));
    const served = (await send(`${server.url}/.well-known/ard.json`)).json();
    expect(validate(served), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...served, entries: [{ ...served.entries[0], identifier: 'kartage-mcp' }] })).toBe(false);
  });

  it('/sitemap.xml is valid against the sitemaps.org 0.9 XSD', async () => {
    const xml = (await send(`${server.url}/sitemap.xml`)).text;
    const xsd = { fileName: 'sitemap.xsd', contents: schema('sitemap-0.9.xsd') };
    const result = await validateXML({ xml: [{ fileName: 'sitemap.xml', contents: xml }], schema: [xsd] });
    expect(result.valid, result.rawOutput).toBe(true);
    const bad = { fileName: 'bad.xml', contents: xml.replace('<loc>', '<location>') };
    const broken = await validateXML({ xml: [bad], schema: [xsd] });
    expect(broken.valid).toBe(false);
  });
});
