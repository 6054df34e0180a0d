/**
 * The outbox's promises that no test held before, on real stores and real processes:
 * - a flusher killed (SIGKILL) while it holds claimed entries gives them back when its lease ends, not before,
 *   on the SQLite file and on Upstash through redis-server (a lease that never ended would park them for ever);
 * - the flush itself quarantines an entry it cannot read, and delivers the rest (quarantine was tested in the
 *   store only).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, readQuarantine } from '../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../src/adapters/upstash-store/index.ts';
import { flushOutbox } from '../../src/core/leads.ts';
import type { LeadRecord, LeadSink, Store } from '../../src/core/ports.ts';
import { useEngines } from '../helpers/engines.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const { bridge } = useEngines();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

const record = (id: string): LeadRecord => ({
  id,
  receivedAt: new Date().toISOString(),
  lead: { name: `Sam ${id}`, email: `${id}@harbourline.example`, dialcode: '+61', intent: 'enquiry' },
});
const entry = (id: string) => JSON.stringify({ record: record(id) });

/**
 * A flusher in another process: it claims up to 10 entries with a lease of `leaseSeconds`, says which, and
 * then hangs (as one stuck on a CRM would) until it is killed.
 */
function flusher(storeCode: string, leaseSeconds: number): Promise<{ claimed: string[]; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `${storeCode}
       const items = await store.outboxClaim(10, ${leaseSeconds});
       console.log(JSON.stringify(items.map((i) => i.id)));
       setInterval(() => {}, 1000);`,
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ claimed: JSON.parse(d.toString()) as string[], child }));
    child.once('exit', (code) => reject(new Error(`flusher exited (${code}) before claiming`)));
  });
}

const kill = async (child: ChildProcess) => {
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
};

describe('a flusher killed while it holds a lease', () => {
  it('SQLite: its entries come back when the lease ends, not before', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kartage-lease-')), 'kartage.db');
    const clock = { t: Date.now() };
    const store = createSqliteStore({ file, now: () => clock.t });
    for (const id of ['a', 'b']) await store.outboxPush(id, entry(id));
    const { claimed, child } = await flusher(
      `import { createSqliteStore } from './src/adapters/sqlite-store/index.ts';
       const store = createSqliteStore({ file: ${JSON.stringify(file)} });`,
      300,
    );
    expect(claimed.sort()).toEqual(['a', 'b']);
    await kill(child);
    // Within the lease: leased to the dead flusher, nothing to claim.
    clock.t = Date.now() + 290_000;
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    // Past it: both come back, their attempt counted.
    clock.t = Date.now() + 301_000;
    const back = await store.outboxClaim(10, 60);
    expect(back.map((i) => i.id).sort()).toEqual(['a', 'b']);
    expect(back.every((i) => i.attempts === 2)).toBe(true);
  });

  it('Upstash (redis-server behind the bridge): its entries come back when the lease ends, not before', async () => {
    const prefix = `lease${process.pid}`;
    const opts = { url: bridge().url, token: bridge().token, prefix };
    const store: Store = createUpstashStore(opts);
    for (const id of ['c', 'd']) await store.outboxPush(id, entry(id));
    const { claimed, child } = await flusher(
      `import { createUpstashStore } from './src/adapters/upstash-store/index.ts';
       const store = createUpstashStore(${JSON.stringify(opts)});`,
      2,
    );
    expect(claimed.sort()).toEqual(['c', 'd']);
    await kill(child);
    expect(await store.outboxClaim(10, 60)).toEqual([]);
    // The lease is 2 s of Redis's clock: wait for the entries, bounded.
    const deadline = Date.now() + 10_000;
    let back: Awaited<ReturnType<Store['outboxClaim']>> = [];
    while (!back.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      back = await store.outboxClaim(10, 60);
    }
    expect(back.map((i) => i.id).sort()).toEqual(['c', 'd']);
    expect(back.every((i) => i.attempts === 2)).toBe(true);
  });
});

describe('the flush and an entry it cannot read', () => {
  it('quarantines it, delivers the others, and leaves nothing queued', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kartage-quarantine-')), 'kartage.db');
    const store = createSqliteStore({ file });
    await store.outboxPush('good-1', entry('good-1'));
    await store.outboxPush('torn', '{"record":{"id":"torn","recei');
    await store.outboxPush('good-2', entry('good-2'));
    const delivered: string[] = [];
    const sink: LeadSink = { name: 'recording', deliver: async (r) => void delivered.push(r.id) };
    const result = await flushOutbox({ sink, store, log: () => {} });
    expect(result).toMatchObject({ delivered: 2, quarantined: 1, remaining: 0 });
    expect(delivered.sort()).toEqual(['good-1', 'good-2']);
    expect(readQuarantine(file).map((q) => q.payload)).toEqual(['{"record":{"id":"torn","recei']);
    expect(await store.outboxSize()).toBe(0);
  });
});
