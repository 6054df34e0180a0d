/**
 * Prism (@stoplight/prism-cli), a validating proxy, in front of the local server with the document the server
 * serves: a run of real calls through it, MCP included, gets no request or response violation. Prism reports a
 * violation in an `sl-violations` header of the answer and in its log; it checks requests and responses against
 * the document (status, headers, media type, body), offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCP_TOOLS } from '../../src/contract/mcp.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
let prism: ChildProcess | undefined;
let proxy: string;
const log: string[] = [];

/** A port free on loopback now (other engineers' test runs share the machine: no fixed port). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

beforeAll(async () => {
  server = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'prism-'));
  const doc = join(dir, 'openapi.json');
  writeFileSync(doc, await (await fetch(`${server.url}/openapi.json`)).text());
  const port = await freePort();
  proxy = `http://127.0.0.1:${port}`;
  const bin = join(PROJECT_ROOT, 'node_modules', '.bin', 'prism');
  prism = spawn(bin, ['proxy', doc, server.url, '--host', '127.0.0.1', '--port', String(port)], { cwd: dir });
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.push(...chunk.toString().split('\n'));
      if (/Prism is listening/.test(chunk.toString())) resolve();
    };
    prism!.stdout!.on('data', onData);
    prism!.stderr!.on('data', onData);
    prism!.on('exit', (code) => reject(new Error(`prism exited (${code}): ${log.join('\n')}`)));
  });
});

afterAll(async () => {
  prism?.kill();
  await server?.close();
});

/** One call through Prism: its status and the violations Prism saw. */
async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${proxy}${path}`, init);
  const body = await res.text();
  const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as { message: string }[];
  return { status: res.status, type: res.headers.get('content-type'), body, violations };
}
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const MCP_ACCEPT = { Accept: 'application/json, text/event-stream' };
const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example', message: 'Through the validating proxy.' };

describe('Prism proxy in front of the local server', () => {
  it('sees no violation on a run of real calls, MCP included', async () => {
    const mcpHeaders = { ...MCP_ACCEPT, 'MCP-Protocol-Version': '2025-06-18' };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'prism-test', version: '1' } },
    };
    const calls: [string, string, RequestInit?][] = [
      ['list pages', '/api/v1/pages?limit=3&prefix=product/'],
      ['read a page', '/api/v1/pages/pricing'],
      ['read a page as markdown', '/api/v1/pages/pricing', { headers: { Accept: 'text/markdown' } }],
      ['a missing page', '/api/v1/pages/no-such-page'],
      ['search', '/api/v1/search?q=storage%20billing&limit=3'],
      ['batch', '/api/v1/pages/batch', json({ slugs: ['pricing', 'no-such-page'] })],
      ['sandbox', '/api/v1/lead/validate', json(lead)],
      ['ask', '/api/v1/ask', json({ question: 'Is there a free trial?' })],
      ['lead', '/api/lead', json(lead, { 'Idempotency-Key': crypto.randomUUID() })],
      ['mcp initialize', '/mcp', json(initialize, MCP_ACCEPT)],
      ['mcp initialized', '/mcp', json({ jsonrpc: '2.0', method: 'notifications/initialized' }, mcpHeaders)],
      ['mcp tools/list', '/mcp', json({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, mcpHeaders)],
      ['mcp without both Accept types', '/mcp', json({ jsonrpc: '2.0', id: 3, method: 'tools/list' })],
    ];
    const seen: Record<string, { status: number; violations: string[] }> = {};
    const answers: Record<string, Awaited<ReturnType<typeof call>>> = {};
    for (const [name, path, init] of calls) {
      const r = await call(path, init);
      answers[name] = r;
      seen[name] = { status: r.status, violations: r.violations.map((v) => v.message) };
    }
    const none = (status: number) => ({ status, violations: [] });
    expect(seen).toEqual({
      'list pages': none(200),
      'read a page': none(200),
      'read a page as markdown': none(200),
      'a missing page': none(404),
      search: none(200),
      batch: none(200),
      sandbox: none(200),
      ask: none(200),
      lead: none(200),
      'mcp initialize': none(200),
      'mcp initialized': none(202),
      'mcp tools/list': none(200),
      'mcp without both Accept types': none(406),
    });
    expect(answers['read a page as markdown']!.type).toMatch(/^text\/markdown/);
    const tools = JSON.parse(answers['mcp tools/list']!.body) as { result: { tools: { name: string }[] } };
    expect(tools.result.tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    expect(log.filter((l) => /violation/i.test(l))).toEqual([]);
  });

  it('reports what breaks the document: a request body that is not JSON-RPC', async () => {
    const r = await call('/mcp', json({ method: 'tools/list' }, MCP_ACCEPT));
    expect(r.violations.map((v) => v.message).join('\n')).toMatch(/request body/i);
  });
});
