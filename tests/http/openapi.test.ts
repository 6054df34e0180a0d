import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { LIMITS } from '../../src/contract/limits.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { operations } from '../../src/operations/index.ts';
import { PROJECT_ROOT } from '../../server/main.ts';

const OPERATIONS = ['listPages', 'getPage', 'searchSite', 'getPagesBatch', 'validateLead', 'submitLead'];

describe('OpenAPI document', () => {
  const doc = buildOpenApi('https://kartage.com.au', operations) as any;

  it('passes a real OpenAPI 3.1 validator', async () => {
    const api = (await SwaggerParser.validate(structuredClone(doc))) as { openapi?: string };
    expect(api.openapi).toBe('3.1.0');
  });

  it('has every operation of the contract with its operationId, path and method', () => {
    const found: Record<string, string> = {};
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const [m, op] of Object.entries<any>(item)) found[op.operationId] = `${m.toUpperCase()} ${path}`;
    expect(found).toMatchObject({
      listPages: 'GET /api/v1/pages',
      getPage: 'GET /api/v1/pages/{slug}',
      searchSite: 'GET /api/v1/search',
      getPagesBatch: 'POST /api/v1/pages/batch',
      validateLead: 'POST /api/v1/lead/validate',
      submitLead: 'POST /api/lead',
      mcp: 'POST /mcp',
    });
    expect(doc.paths['/mcp'].get.responses['405']).toBeDefined();
  });

  it('documents the contract bounds, statuses and headers', () => {
    const s = doc.components.schemas;
    expect(s.Lead.properties.name.maxLength).toBe(120);
    expect(s.Lead.properties.email.maxLength).toBe(200);
    expect(s.Lead.properties.message.maxLength).toBe(4000);
    expect(s.Lead.properties.dialcode.pattern).toBe('^\\+\\d{1,4}$');
    expect(s.Lead.properties.dialcode.default).toBe('+61');
    expect(s.Lead.properties.intent.enum).toEqual(['demo', 'enquiry']);
    expect(s.Lead.properties.moves.enum).toEqual(['Under 500', '500-2,000', '2,000-10,000', '10,000+']);
    expect(s.Lead.required).toEqual(['name', 'email']);
    expect(s.Page.required).toEqual(expect.arrayContaining(['slug', 'title', 'url', 'markdown']));
    expect(s.Error.required).toEqual(['error']);
    const list = doc.paths['/api/v1/pages'].get;
    expect(list.parameters.find((p: any) => p.name === 'limit').schema).toMatchObject({
      minimum: 1,
      maximum: 100,
      default: 100,
    });
    const search = doc.paths['/api/v1/search'].get;
    expect(search.parameters.find((p: any) => p.name === 'q')).toMatchObject({ required: true });
    expect(search.parameters.find((p: any) => p.name === 'limit').schema).toMatchObject({
      minimum: 1,
      maximum: 50,
      default: 10,
    });
    const lead = doc.paths['/api/lead'].post;
    expect(Object.keys(lead.responses)).toEqual(expect.arrayContaining(['200', '400', '429', '502']));
    expect(lead.responses['429'].headers).toHaveProperty('Retry-After');
    expect(lead.responses['200'].headers).toHaveProperty('Idempotency-Replayed');
    expect(lead.parameters[0]).toMatchObject({ name: 'Idempotency-Key', in: 'header', schema: { maxLength: 200 } });
    expect(doc.paths['/api/v1/lead/validate'].post.responses['422']).toBeDefined();
    expect(doc.paths['/api/v1/pages/{slug}'].get.responses['200'].content).toHaveProperty('text/markdown');
    for (const id of OPERATIONS) {
      const op = Object.values<any>(doc.paths)
        .flatMap((i) => Object.values<any>(i))
        .find((o) => o.operationId === id);
      expect(op.responses['429'].headers, id).toHaveProperty('Retry-After');
    }
  });

  it('is served by the build as JSON and the same document as YAML', () => {
    const json = JSON.parse(readFileSync(join(PROJECT_ROOT, 'dist/openapi.json'), 'utf8'));
    const yaml = parseYaml(readFileSync(join(PROJECT_ROOT, 'dist/openapi.yaml'), 'utf8'));
    expect(yaml).toEqual(json);
    expect(json.paths).toEqual(buildOpenApi(json.servers[0].url, operations).paths);
  });
});

describe('OpenAPI document as typed clients read it', () => {
  const doc = buildOpenApi('https://kartage.com.au', operations) as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi');
  const schemaOf = (pointer: string) => ajv.compile({ $ref: `openapi#${pointer}` });

  it('makes a batch result a union on `found`: a page when found, an error when not', () => {
    const batch = schemaOf('/components/schemas/BatchResponse');
    const page = { slug: 'pricing', title: 'Pricing', url: 'https://kartage.com.au/pricing', markdown: '# Pricing' };
    const body = (...results: unknown[]) => ({ count: results.length, results });
    expect(batch(body({ slug: 'pricing', found: true, page }, { slug: 'x', found: false, error: 'No page' }))).toBe(
      true,
    );
    expect(batch(body({ slug: 'pricing', found: true }))).toBe(false);
    expect(batch(body({ slug: 'x', found: false }))).toBe(false);
    expect(batch(body({ slug: 'x', found: true, error: 'No page' }))).toBe(false);
  });

  it('describes JSON request bodies in their input form: a field with a default is optional, to generators too', () => {
    const bodies = Object.values<any>(doc.paths)
      .flatMap((item) => Object.values<any>(item))
      .filter((op) => op.requestBody)
      .map((op) => [op.operationId, op.requestBody.content['application/json'].schema] as const);
    expect(bodies.map(([id]) => id)).toEqual(
      expect.arrayContaining(['getPagesBatch', 'askSite', 'validateLead', 'submitLead']),
    );
    for (const [id, schema] of bodies) {
      // openapi-typescript makes a component's field with a default required: a body is never such a component.
      const component = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : undefined;
      const defaulted = Object.entries<any>(component?.properties ?? {}).filter(([, f]) => f.default !== undefined);
      expect(
        defaulted.map(([name]) => name),
        id,
      ).toEqual([]);
    }
    const lead = ajv.compile({ $ref: 'openapi#/paths/~1api~1lead/post/requestBody/content/application~1json/schema' });
    expect(lead({ name: 'Sam', email: 'sam@harbourline.example' })).toBe(true);
    expect(lead({ name: 'Sam', email: 'sam@harbourline.example', dialcode: '+64', intent: 'demo' })).toBe(true);
    expect(lead({ email: 'sam@harbourline.example' })).toBe(false);
    expect(lead({ name: 'Sam', email: 'sam@harbourline.example', dialcode: '64', intent: 'other' })).toBe(false);
  });

  it("declares POST /mcp's body: a JSON-RPC 2.0 request, notification or response, or a batch of them", () => {
    const body = ajv.compile({ $ref: 'openapi#/paths/~1mcp/post/requestBody/content/application~1json/schema' });
    const request = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } };
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(body(request)).toBe(true);
    expect(body({ jsonrpc: '2.0', id: 'a', method: 'tools/list' })).toBe(true);
    expect(body(notification)).toBe(true);
    expect(body({ jsonrpc: '2.0', id: 7, result: {} })).toBe(true);
    expect(body([request, notification])).toBe(true);
    expect(body({})).toBe(false);
    expect(body({ jsonrpc: '1.0', id: 1, method: 'tools/list' })).toBe(false);
    expect(body({ jsonrpc: '2.0', id: null, method: 'tools/list' })).toBe(false);
    expect(body([])).toBe(false);
    expect(body(Array.from({ length: LIMITS.mcpBatchMax + 1 }, () => request))).toBe(false);
  });
});
