// Behind a proxy we run (TRUST_PROXY), every spelling of one client address in X-Forwarded-For is one budget
// over real HTTP (issue 25, point 7): ports, brackets, IPv4-mapped IPv6 (dotted and hex), leading zeros.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/deps.ts';
import { createMemoryStore } from '../../src/adapters/memory-store.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

// A fixed clock: the read window cannot roll over mid-test.
const NOW = Date.parse('2026-11-25T02:00:00Z');
let server: RunningServer;

beforeAll(async () => {
  const deps = createDeps({
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
});
