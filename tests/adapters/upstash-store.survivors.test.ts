/**
 * The deadline each lead-path script of the Upstash store carries (src/adapters/upstash-store/index.ts): the
 * caller's bound less a 100 ms margin, so a script Redis ran still has time to answer, but never less than
 * half the bound. Read off the requests the store hands to `fetch` (a stub answering as Upstash's REST API
 * does) on a fixed clock; store.test.ts holds what Redis does with a script that arrives late.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');

/** Stubs the global `fetch` Upstash's client calls; returns the commands sent (the JSON bodies). */
function upstashStub() {
  const sent: unknown[][] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as unknown[];
    // The client batches commands (auto-pipelining): a pipeline is a list of commands, answered in a list.
    const commands = (Array.isArray(body[0]) ? body : [body]) as unknown[][];
    sent.push(...commands);
    // Every script answers nil: the claim finds the key free; the push's answer is not read.
    const results = commands.map(() => ({ result: null }));
    return new Response(JSON.stringify(Array.isArray(body[0]) ? results : results[0]), { status: 200 });
  });
  return sent;
}

/** The deadline (ARGV[1]) of an EVALSHA command: after the script's sha, the key count, the keys. */
const deadlineOf = (command: unknown[]) => Number(command[3 + Number(command[2])]);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the deadline of a lead-path script', () => {
  it('is the bound less 100 ms: 1,400 ms after now with the default 1,500 ms bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const sent = upstashStub();
    const store = createUpstashStore({ url: 'https://upstash.test', token: 't', prefix: 'p' });
    await store.outboxPush('q0', '{}');
    expect(await store.claim('k', 'fp', 60)).toBeUndefined();
    expect(sent.map((c) => [c[0], deadlineOf(c)])).toEqual([
      ['evalsha', T0 + 1400],
      ['evalsha', T0 + 1400],
    ]);
  });

  it('is half the bound when the margin would leave less: 75 ms after now with a 150 ms bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const sent = upstashStub();
    const store = createUpstashStore({ url: 'https://upstash.test', token: 't', prefix: 'p', leadTimeoutMs: 150 });
    await store.outboxPush('q0', '{}');
    expect(sent.map((c) => deadlineOf(c))).toEqual([T0 + 75]);
  });
});
