// Behind a proxy we run (TRUST_PROXY), every spelling of one client address in X-Forwarded-For is one budget
// over real HTTP: ports, brackets, IPv4-mapped IPv6 (dotted and hex), leading zeros.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

// A fixed clock: the read window cannot roll over mid-test.
const NOW = Date.parse('2026-11-25T02:00:00Z');
let server: RunningServer;

beforeAll(async () => {
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore({ now: () => NOW }),
    now: () => NOW,
  });
  server = await startTestServer({ deps, trustProxy: true });
});
afterAll(async () => {
  await server?.close();
});

const remaining = async (forwardedFor: string) => {
  const res = await fetch(`${server.url}/api/v1/pages?limit=1`, { headers: { 'X-Forwarded-For': forwardedFor } });
  await res.arrayBuffer();
  return Number(res.headers.get('ratelimit-remaining'));
};

describe('X-Forwarded-For behind a trusted proxy', () => {
  it('one address in any spelling spends one budget', async () => {
    const spellings = [
      '203.0.113.7',
      '203.0.113.7:5555',
      '::ffff:203.0.113.7',
      '::ffff:cb00:7107',
      '[::ffff:203.0.113.7]:443',
      '203.000.113.007',
      '198.51.100.1, 203.0.113.7',
    ];
    const seen: number[] = [];
    for (const s of spellings) seen.push(await remaining(s));
    expect(seen).toEqual(spellings.map((_, i) => 119 - i));
  });

  it('IPv6 with a port and brackets, in upper case, is the same /64 budget', async () => {
    const a = await remaining('2001:db8:1:2::1');
    const b = await remaining('[2001:DB8:1:2::FFFF]:5555');
    expect(b).toBe(a - 1);
  });

  it("several hops: only the last, which our proxy appended, counts; the hops before it are the client's to write", async () => {
    const first = await remaining('10.9.8.7, 192.0.2.10, 198.51.100.77');
    // Whatever the client writes before the last hop, the budget is the last hop's.
    expect(await remaining('1.2.3.4, 5.6.7.8, 198.51.100.77')).toBe(first - 1);
    expect(await remaining('198.51.100.77')).toBe(first - 2);
    // A different last hop is a different client.
    expect(await remaining('10.9.8.7, 192.0.2.10, 198.51.100.78')).toBe(119);
  });

  it('several X-Forwarded-For lines are one list: the last hop of the last line counts', async () => {
    const res = await fetch(`${server.url}/api/v1/pages?limit=1`, {
      headers: [
        ['X-Forwarded-For', '203.0.113.200, 198.51.100.90'],
        ['X-Forwarded-For', '198.51.100.91'],
      ],
    });
    await res.arrayBuffer();
    expect(Number(res.headers.get('ratelimit-remaining'))).toBe(119);
    expect(await remaining('198.51.100.91')).toBe(118);
  });
});

describe('X-Forwarded-For without a trusted proxy (TRUST_PROXY unset)', () => {
  it("is ignored: every spelling and every hop list is the socket's one budget", async () => {
    const deps = createDeps({
      env: process.env,
      dataDir: join(PROJECT_ROOT, 'build'),
      store: createMemoryStore({ now: () => NOW }),
      now: () => NOW,
    });
    const plain = await startTestServer({ deps });
    try {
      const seen: number[] = [];
      for (const xff of ['203.0.113.7', '198.51.100.1, 203.0.113.8', '192.0.2.55']) {
        const res = await fetch(`${plain.url}/api/v1/pages?limit=1`, { headers: { 'X-Forwarded-For': xff } });
        await res.arrayBuffer();
        seen.push(Number(res.headers.get('ratelimit-remaining')));
      }
      expect(seen).toEqual([119, 118, 117]);
    } finally {
      await plain.close();
    }
  });
});
