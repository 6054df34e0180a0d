// A refused lead body spends a read (docs/leads-and-limits.md) and its answer carries the
// RateLimit-* headers of that read (contract, Limits rule 1), over real HTTP on the local server with an
// injected clock, so the read window cannot roll over between requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import type { LeadRecord } from '../../src/core/ports.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

const NOW = Date.parse('2026-11-25T02:00:20Z');
let server: RunningServer;
const delivered: LeadRecord[] = [];

beforeAll(async () => {
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore({ now: () => NOW }),
    sink: { name: 'test sink', deliver: async (record) => void delivered.push(record) },
    notifier: { name: 'test notifier', notify: async () => {} },
    now: () => NOW,
  });
  server = await startTestServer({ deps });
});
afterAll(async () => {
  await server?.close();
});

const post = (body: string, headers: Record<string, string>) =>
  fetch(`${server.url}/api/lead`, { method: 'POST', body, headers });

/** The read budget's headers, with the remaining count `remaining`. */
function expectReadHeaders(res: Response, remaining: number) {
  expect(res.headers.get('ratelimit-limit')).toBe('120');
  expect(res.headers.get('ratelimit-policy')).toBe('120;w=60');
  expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(res.headers.get('ratelimit-reset'));
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
  expect(res.headers.get('retry-after')).toBeNull();
}

describe('a refused lead body', () => {
  it('answers its 400 or 413 with the RateLimit-* headers of the read it spent', async () => {
    const json = { 'Content-Type': 'application/json' };
    // 1. no name: the domain refuses it
    const noName = await post(JSON.stringify({ email: 'sam@harbourline.example' }), json);
    expect(noName.status).toBe(400);
    expect((await noName.json()).status).toBe(400);
    expectReadHeaders(noName, 119);

    // 2. not JSON
    const notJson = await post('{"name": "Sam"', json);
    expect(notJson.status).toBe(400);
    await notJson.arrayBuffer();
    expectReadHeaders(notJson, 118);

    // 3. the no-JavaScript form without a name: the HTML page
    const form = await post('email=sam%40harbourline.example&intent=demo', {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'text/html',
    });
    expect(form.status).toBe(400);
    await form.arrayBuffer();
    expectReadHeaders(form, 117);

    // 4. too large
    const big = await post(
      JSON.stringify({ name: 'Sam', email: 'sam@x.example', message: 'x'.repeat(LIMITS.leadBodyBytes) }),
      json,
    );
    expect(big.status).toBe(413);
    await big.arrayBuffer();
    expectReadHeaders(big, 116);

    // The same budget as a metered read, and no lead was recorded
    const read = await fetch(`${server.url}/api/v1/pages?limit=1`);
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    expectReadHeaders(read, 115);
    expect(delivered).toEqual([]);
  });

  it('an accepted lead still carries the lead budget, not the read one', async () => {
    const ok = await post(JSON.stringify({ name: 'Sam Taylor', email: 'sam@harbourline.example' }), {
      'Content-Type': 'application/json',
    });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    expect(ok.headers.get('ratelimit-policy')).toBe('5;w=3600');
    expect(ok.headers.get('ratelimit-remaining')).toBe('4');
    expect(delivered).toHaveLength(1);
  });
});
