/**
 * A local server over the real build whose lead path can be made to hold and to fail, for the tests that need
 * every kind of lead answer (tests/server/error-caching.test.ts, lead-cors.test.ts): a lead from "Slow…" is held
 * by the sink until `release()`; one from "Unrecorded…" finds no durable place (the CRM and the outbox both down:
 * the 502). Its clock is the test's: fixed, or a second on per reading while `ticking` is set (a request waiting
 * for another one's Idempotency-Key).
 */
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import { createDeps, type Deps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { RunningServer } from '../../server/main.ts';
import { PROJECT_ROOT, startTestServer } from './server.ts';

export interface LeadServer {
  /** The running server and its dependencies (set once `beforeAll` ran). */
  server: RunningServer;
  deps: Deps;
  /** While true, every reading of the clock moves it a second on. */
  ticking: boolean;
  /** Lets the held "Slow…" leads through. */
  release(): void;
}

/** Starts the server before the file's tests and stops it after; the clock starts at `start`. */
export function useLeadServer(start: number): LeadServer {
  let clock = start;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const ctx = { ticking: false, release: () => release() } as LeadServer;
  const now = () => (ctx.ticking ? (clock += 1000) : clock);
  beforeAll(async () => {
    const store = createMemoryStore({ now });
    const push = store.outboxPush.bind(store);
    store.outboxPush = async (id, payload) => {
      if (payload.includes('Unrecorded')) throw new Error('outbox down (test)');
      return push(id, payload);
    };
    ctx.deps = createDeps({
      env: process.env,
      dataDir: join(PROJECT_ROOT, 'build'),
      store,
      now,
      log: () => {},
      sink: {
        name: 'test sink',
        deliver: async (record) => {
          if (record.lead.name.startsWith('Slow')) await held;
          if (record.lead.name.startsWith('Unrecorded')) throw new Error('CRM down (test)');
        },
      },
      notifier: { name: 'test notifier', notify: async () => {} },
    });
    ctx.server = await startTestServer({ deps: ctx.deps });
  });
  afterAll(async () => {
    release();
    await ctx.server?.close();
  });
  return ctx;
}
