/**
 * The embedded store never takes the site down and never acknowledges a lead it cannot read back, on real SQLite
 * files and real processes: a corrupt database at start, a write lock held by another
 * process, the database removed under a running server, kill -9 with a damaged WAL, the checkpoint on exit, and
 * `npm run leads:backup`. No timings: what is asserted is order (a page answered while a lead waits for the
 * lock) and what the files hold.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { closeSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps } from '../../src/adapters/composition-root.ts';
import {
  backupDatabase,
  createSqliteSink,
  createSqliteStore,
  readLeads,
} from '../../src/adapters/sqlite-store/index.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

const STORE = join(PROJECT_ROOT, 'src/adapters/sqlite-store/index.ts');
const tempDir = () => mkdtempSync(join(tmpdir(), 'kartage-embedded-'));
const leadBody = (n: number | string) =>
  JSON.stringify({ name: `Sam ${n}`, email: `sam${n}@harbourline.example`, company: 'Harbourline Removals' });

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** A node child running `script` (an ES module; `STORE` is importable), with its stdout lines as they come. */
function child(script: string, env: Record<string, string> = {}) {
  const c = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(c);
  const lines: string[] = [];
  let waiting: { match: RegExp; resolve: (line: string) => void }[] = [];
  let buffer = '';
  let stderr = '';
  c.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  c.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      const matched = waiting.filter((w) => w.match.test(line));
      waiting = waiting.filter((w) => !matched.includes(w));
      for (const w of matched) w.resolve(line);
      nl = buffer.indexOf('\n');
    }
  });
  const exited = new Promise<number | null>((r) => c.on('exit', (code) => r(code)));
  return {
    process: c,
    lines,
    stderr: () => stderr,
    exited,
    /** Resolves with the first line (already printed or to come) matching `match`. */
    line: (match: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines.find((l) => match.test(l));
        if (seen) return resolve(seen);
        waiting.push({ match, resolve });
        void exited.then((code) => reject(new Error(`child exited (${code}) before ${match}: ${stderr}`)));
      }),
  };
}

/** Starts `node server/main.ts` on `varDir`; resolves with its URL and the process. */
function serverProcess(varDir: string) {
  const c = spawn(process.execPath, [join(PROJECT_ROOT, 'server/main.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', KARTAGE_VAR_DIR: varDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(c);
  let out = '';
  c.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<{ url: string; process: ChildProcess; output: () => string }>((resolve, reject) => {
    c.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, process: c, output: () => out });
    });
    c.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const postLead = (url: string, n: number | string) =>
  fetch(`${url}/api/lead`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `embedded-${n}-${Math.random()}` },
    body: leadBody(n),
  });

describe('a corrupt database at start', () => {
  it('is moved aside, kept, and logged; the server serves pages, reads and leads on a fresh one', async () => {
    const dir = tempDir();
    const garbage = Buffer.from('this is not a SQLite database; '.repeat(200));
    writeFileSync(join(dir, 'kartage.db'), garbage);
    const server = await serverProcess(dir);
    expect((await fetch(`${server.url}/pricing`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/pages?limit=1`)).status).toBe(200);
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expect((await postLead(server.url, 'fresh')).status).toBe(200);
    const aside = readdirSync(dir).filter((f) => /^kartage\.db\.corrupt-[\dT-]+Z$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!))).toEqual(garbage);
    expect(server.output()).toMatch(/"event":"store_corrupt_moved_aside"/);
    server.process.kill('SIGTERM');
    await new Promise((r) => server.process.on('exit', r));
    expect(readLeads(join(dir, 'kartage.db')).map((l) => l.lead.email)).toEqual(['samfresh@harbourline.example']);
  });
});

describe('a write lock held by another process', () => {
  it('stalls no page or read; a lead waits for it off the event loop and is recorded once it is free', async () => {
    const dir = tempDir();
    const file = join(dir, 'kartage.db');
    const logs: string[] = [];
    const deps = createDeps({
      env: process.env,
      dataDir: join(PROJECT_ROOT, 'build'),
      store: createSqliteStore({ file }),
      sink: createSqliteSink(file),
      log: (event) => logs.push(event),
    });
    const server = await startTestServer({ deps });
    try {
      // Another process takes the write lock and keeps it until told on stdin.
      const locker = child(`
        import { DatabaseSync } from 'node:sqlite';
        const db = new DatabaseSync(${JSON.stringify(file)});
        db.exec('BEGIN IMMEDIATE');
        console.log('locked');
        process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); console.log('released'); process.exit(0); });`);
      await locker.line(/^locked$/);
      let leadDone = false;
      const lead = postLead(server.url, 'locked').then((r) => {
        leadDone = true;
        return r;
      });
      // The lead is waiting for the lock; the event loop is not: a page and a metered read are answered now.
      expect((await fetch(`${server.url}/pricing`)).status).toBe(200);
      const read = await fetch(`${server.url}/api/v1/pages?limit=1`);
      expect(read.status).toBe(200);
      expect(read.headers.get('ratelimit-limit')).toBeTruthy();
      expect(logs).toContain('store_fallback'); // the read budget counted in this instance meanwhile
      expect(leadDone).toBe(false);
      locker.process.stdin!.write('go\n');
      await locker.line(/^released$/);
      expect((await lead).status).toBe(200);
      expect(readLeads(file).map((l) => l.lead.email)).toContain('samlocked@harbourline.example');
    } finally {
      await server.close();
    }
  });
});

describe('the database file removed under a running server', () => {
  it('is noticed: the next lead goes to a fresh file at the path, never to the deleted one', async () => {
    const dir = tempDir();
    const file = join(dir, 'kartage.db');
    const deps = createDeps({
      env: process.env,
      dataDir: join(PROJECT_ROOT, 'build'),
      store: createSqliteStore({ file }),
      sink: createSqliteSink(file),
      log: () => {},
    });
    const server = await startTestServer({ deps });
    try {
      expect((await postLead(server.url, 'before')).status).toBe(200);
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      expect((await postLead(server.url, 'after')).status).toBe(200);
      expect(readLeads(file).map((l) => l.lead.email)).toEqual(['samafter@harbourline.example']);
    } finally {
      await server.close();
    }
  });
});

/** A child that records `count` leads in the local lead table, printing each id once it is acknowledged. */
const writer = (file: string, count: number, then: string) =>
  child(`
    import { createSqliteSink } from ${JSON.stringify(STORE)};
    const sink = createSqliteSink(${JSON.stringify(file)});
    for (let i = 0; i < ${count}; i++) {
      const id = 'lead-' + i;
      await sink.deliver({ id, receivedAt: new Date().toISOString(), lead: { name: 'Sam ' + i, email: 's' + i + '@x.example' } });
      console.log('acked ' + id);
    }
    console.log('done');
    ${then}`);

describe('kill -9 and a damaged WAL', () => {
  it('lose no acknowledged lead: each is in the main file once acknowledged', async () => {
    const file = join(tempDir(), 'kartage.db');
    const w = writer(file, 40, 'setInterval(() => {}, 1000);');
    await w.line(/^done$/);
    w.process.kill('SIGKILL');
    await w.exited;
    const acked = w.lines.filter((l) => l.startsWith('acked ')).map((l) => l.slice(6));
    expect(acked).toHaveLength(40);
    // Damage every frame of whatever the WAL still holds (SQLite then ignores it from the first bad frame).
    const wal = `${file}-wal`;
    if (existsSync(wal) && statSync(wal).size > 32) {
      const fd = openSync(wal, 'r+');
      for (let at = 32 + 24; at < statSync(wal).size; at += 4096 + 24) writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, at);
      closeSync(fd);
    }
    expect(readLeads(file).map((l) => l.id)).toEqual(acked);
  });
});

describe('the WAL on exit, and the backup', () => {
  it('a process that exits leaves every lead in the main file, so copying kartage.db alone copies them', async () => {
    const dir = tempDir();
    const file = join(dir, 'kartage.db');
    const w = writer(file, 40, 'process.exit(0);');
    expect(await w.exited).toBe(0);
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    const copy = join(tempDir(), 'kartage.db');
    copyFileSync(file, copy);
    expect(readLeads(copy)).toHaveLength(40);
  });

  it('npm run leads:backup FILE writes a consistent copy while the database is in use, never overwriting', async () => {
    const dir = tempDir();
    const file = join(dir, 'kartage.db');
    const store = createSqliteStore({ file });
    const sink = createSqliteSink(file);
    for (let i = 0; i < 5; i++)
      await sink.deliver({
        id: `b${i}`,
        receivedAt: new Date().toISOString(),
        lead: { name: 'S', email: 's@x.example', dialcode: '+61', intent: 'enquiry' },
      });
    await store.outboxPush('queued', JSON.stringify({ record: { id: 'queued' } }));
    const target = join(tempDir(), 'backup.db');
    const run = () =>
      spawnSync(process.execPath, [join(PROJECT_ROOT, 'server/leads-backup.ts'), target], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, KARTAGE_VAR_DIR: dir },
        encoding: 'utf8',
      });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/5 lead\(s\), 1 queued for the CRM/);
    expect(readLeads(target).map((l) => l.id)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    const again = run();
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/never overwrites/);
    expect(() => backupDatabase(file, target)).toThrow(/never overwrites/);
  });
});
