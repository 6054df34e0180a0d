// No cache keeps a refusal or a failure: over real HTTP on the local server, every operation is
// made to answer each 4xx and 5xx it documents, and a 405, and each such answer is `Cache-Control: no-store`.
// The one exception is the not-found (404), which a cache may keep: private, since a metered 404 (an unknown
// API path, getPage) carries the client's counters. A status an operation documents without a way
// to produce it here fails the test, so a new operation or status has to add one.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.ts';
import type { Operation } from '../../src/http/operation.ts';
import { operations } from '../../src/operations/index.ts';
import { send, type HttpAnswer } from '../helpers/http.ts';
import { useLeadServer } from '../helpers/lead-server.ts';

const lead = useLeadServer(Date.parse('2026-11-25T02:00:20Z'));

/** A fresh source address for each use: every case has its own budgets. */
let clientN = 0;
const nextClient = () => `127.24.${1 + Math.floor(++clientN / 250)}.${(clientN % 250) + 2}`;

type Call = { method?: string; body?: string; headers?: Record<string, string> };
const call = (path: string, c: Call, from: string) => send(`${lead.server.url}${path}`, { ...c, from });
const JSON_TYPE = { 'Content-Type': 'application/json' };
const json = (body: unknown): Call => ({
  method: 'POST',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: JSON_TYPE,
});
const MCP = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
const mcp = (body: string, headers: Record<string, string> = MCP): Call => ({ method: 'POST', body, headers });
const tooBig = (bytes: number) => json({ name: 'Sam', email: 'sam@example.com', message: 'x'.repeat(bytes) });
const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example' };

/** Sends `c` from one client until the answer is `status` (at most `times` tries): a budget spent to its end. */
async function until(path: string, c: Call, status: number, times: number): Promise<HttpAnswer> {
  const from = nextClient();
  let last: HttpAnswer | undefined;
  for (let i = 0; i < times && last?.status !== status; i++) last = await call(path, c, from);
  return last!;
}
const once = (c: Call) => (path: string) => call(path, c, nextClient());
const spent =
  (c: Call, times = LIMITS.read.limit + 1) =>
  (path: string) =>
    until(path, c, 429, times);

/** How to make each operation answer each of its error statuses. */
const recipes: Record<string, Record<number, (path: string) => Promise<HttpAnswer>>> = {
  listPages: { 400: once({}), 429: spent({}) },
  getPage: { 429: spent({}) },
  searchSite: { 400: once({}), 429: spent({}) },
  getPagesBatch: {
    400: once(json({ slugs: [] })),
    413: once(tooBig(LIMITS.readBodyBytes)),
    429: spent(json({ slugs: ['pricing'] })),
  },
  askSite: {
    400: once(json({ question: 'x' })),
    413: once(tooBig(LIMITS.readBodyBytes)),
    429: spent(json({ question: 'Is there a free trial?' })),
  },
  validateLead: {
    400: once(json([])),
    413: once(tooBig(LIMITS.leadBodyBytes)),
    422: once(json({ name: 'Sam' })),
    429: spent(json(LEAD)),
  },
  submitLead: {
    400: once(json({ email: 'sam@harbourline.example' })),
    409: async (path) => {
      const from = nextClient();
      const c = json({ name: 'Slow Sam', email: 'sam@harbourline.example' });
      const key = { ...JSON_TYPE, 'Idempotency-Key': 'held-key' };
      const first = call(path, { ...c, headers: key }, from);
      await new Promise((r) => setTimeout(r, 200)); // the first has claimed the key
      lead.ticking = true;
      const second = await call(path, { ...c, headers: key }, from).finally(() => {
        lead.ticking = false;
      });
      lead.release();
      expect((await first).status).toBe(200);
      return second;
    },
    413: once(tooBig(LIMITS.leadBodyBytes)),
    422: async (path) => {
      const from = nextClient();
      const key = { ...JSON_TYPE, 'Idempotency-Key': 'reused-key' };
      expect((await call(path, { ...json(LEAD), headers: key }, from)).status).toBe(200);
      return call(path, { ...json({ ...LEAD, company: 'Other' }), headers: key }, from);
    },
    429: spent(json(LEAD), LIMITS.lead.limit + 1),
    502: once(json({ name: 'Unrecorded Sam', email: 'sam@harbourline.example' })),
  },
  mcp: {
    400: once(mcp('{"jsonrpc":')),
    406: once(mcp('{}', JSON_TYPE)),
    413: once(mcp('x'.repeat(LIMITS.readBodyBytes + 1))),
    415: once(mcp('x', { ...MCP, 'Content-Type': 'text/plain' })),
    429: spent(mcp('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')),
  },
};

/** A path of `op` that makes its query or body refused where a recipe needs one. */
const pathOf = (op: Operation, status: number) => {
  const path = op.path.replace('{slug}', 'pricing');
  if (op.id === 'listPages' && status === 400) return `${path}?limit=0`;
  if (op.id === 'searchSite') return status === 400 ? `${path}?q=x` : `${path}?q=storage`;
  return path;
};

describe('4xx and 5xx answers are never cached', () => {
  for (const op of operations) {
    const documented = Object.keys(op.responses)
      .map(Number)
      .filter((s) => s >= 400 && s !== 404);
    it(`${op.id}: ${[...documented, 405].join(', ')} are no-store`, { timeout: 30_000 }, async () => {
      for (const status of documented) {
        const recipe = recipes[op.id]?.[status];
        expect(recipe, `${op.id} documents ${status}: add a way to produce it here`).toBeDefined();
        const ans = await recipe!(pathOf(op, status));
        expect(ans.status, `${op.id} ${status}`).toBe(status);
        expect(ans.headers['cache-control'], `${op.id} ${status}`).toBe('no-store');
      }
      const wrong = op.method === 'GET' ? 'DELETE' : 'PUT';
      const refused = await call(pathOf(op, 200), { method: wrong }, nextClient());
      expect(refused.status, `${op.id} ${wrong}`).toBe(405);
      expect(refused.headers['cache-control'], `${op.id} 405`).toBe('no-store');
    });
  }

  it('the not-found is the exception: a cacheable 404, private since it is metered (a read unit, as getPage)', async () => {
    const unknown = await call('/api/v1/nothing-here', {}, nextClient());
    expect(unknown.status).toBe(404);
    expect(unknown.headers['cache-control']).toBe('private, max-age=60');
    expect(unknown.headers['ratelimit-remaining']).toBeDefined();
    const page = await call('/api/v1/pages/no-such-page', {}, nextClient());
    expect(page.status).toBe(404);
    expect(page.headers['cache-control']).toMatch(/^private/);
  });
});
