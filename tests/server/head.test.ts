// HEAD answers like GET without a body, everywhere: API reads, pages, their JSON, and a 405 for an endpoint that
// takes POST, through the test server (whose contract check reads a clone of every answer: a teed body).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

it.each([
  ['/api/v1/pages?limit=1', 200],
  ['/api/v1/search?q=storage', 200],
  ['/api/v1/pages/pricing', 200],
  ['/pricing', 200],
  ['/pricing.md', 200],
  ['/api/lead', 405],
])('HEAD %s answers %i with no body', async (path, status) => {
  const r = await fetch(`${s.url}${path}`, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
  expect(r.status).toBe(status);
  expect((await r.arrayBuffer()).byteLength).toBe(0);
});
