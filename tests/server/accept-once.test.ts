// A request's Accept header is parsed once: a 14 KB header used to be parsed about six times
// a request (markdown or not, then which of HTML, JSON and markdown ranks first). Over real HTTP, in-process, so
// the parse counter is the server's own.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acceptParses } from '../../src/http/accept.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

let runs = 0;
/** An 11 KB Accept header no earlier request sent, that asks for markdown. */
const longAccept = (n: number) =>
  ['text/markdown', ...Array.from({ length: 520 }, (_, i) => `application/x-${n}-${i};q=0.1`), 'text/html;q=0.5'].join(
    ', ',
  );

it.each([
  ['a page', '/pricing'],
  ['a page through the API', '/api/v1/pages/pricing'],
  ['an unknown page', '/no-such-page'],
])('%s parses its Accept header once', async (_, path) => {
  const accept = longAccept(++runs);
  expect(accept.length).toBeGreaterThan(11_000);
  const before = acceptParses();
  const res = await fetch(`${s.url}${path}`, { headers: { Accept: accept } });
  const body = await res.text();
  expect(res.status, body.slice(0, 200)).toBe(path === '/no-such-page' ? 404 : 200);
  expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
  expect(acceptParses() - before).toBe(1);
});
