/**
 * A request whose client closed the connection before its answer was written is logged as 499 "client closed
 * the connection", whether its handler threw or answered (a body read cut off by the client answers 400, which
 * the client never got): server/main.ts logs 499 when the response closed before it finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveMidBody, startFuzzServer, until, type FuzzServer } from './support.ts';

let s: FuzzServer;
beforeAll(async () => {
  s = await startFuzzServer();
});
afterAll(async () => {
  await s?.close();
});

describe('a client that disconnects mid-body', () => {
  it('is logged once as 499, the client-closed status, and not as an answer it never got', async () => {
    const cases: [string, string][] = [
      ['/api/v1/pages/batch', '{"slugs"'],
      ['/api/v1/lead/validate', '{"name"'],
      ['/api/lead', '{"name"'],
      ['/mcp', '{"jsonrpc"'],
    ];
    for (const [path, partial] of cases) await leaveMidBody(s, path, partial);
    const logged = (path: string) => s.requestLog().filter((e) => e.method === 'POST' && e.path === path);
    await until(
      () => cases.every(([path]) => logged(path).length > 0),
      () => `a request log line for each of ${cases.map(([p]) => p).join(', ')}`,
    );
    for (const [path] of cases) expect(logged(path), path).toEqual([{ method: 'POST', path, status: 499 }]);
    expect(s.errors()).toEqual([]);
    expect(s.fiveXX()).toEqual([]);
  });
});
