/**
 * `npm run ask:report` (server/ask-report.ts) and what feeds it, `Deps.recordUnanswered`: questions counted
 * through the real dependencies into a SQLite file come out of the report as a table (and as JSON), scrubbed;
 * with the shared store unreachable (a refused port) or silent (a socket that never answers), counting
 * neither throws nor holds the caller, and the report exits 1 with one clear line, not a stack trace.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

/** Runs `npm run ask:report -- …args` as a shell would, with only the given store settings. */
function report(env: Record<string, string>, ...args: string[]) {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (/^(UPSTASH_|KV_REST_)/.test(k)) delete base[k];
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'ask:report', '--', ...args],
      { cwd: PROJECT_ROOT, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Dependencies over the store `env` names, collecting what `defer` and `log` get. */
function deps(env: Record<string, string>, now = () => T0) {
  const deferred: Promise<unknown>[] = [];
  const logs: { event: string; fields?: Record<string, unknown> }[] = [];
  const d = createDeps({
    env,
    now,
    defer: (work) => deferred.push(work),
    log: (event, fields) => logs.push({ event, fields }),
  });
  return { d, deferred, logs };
}

/** Counts each question through `record`, checking each call returned before its store write settled. */
async function ask(record: (q: string) => void, deferred: Promise<unknown>[], questions: string[]) {
  for (const q of questions) {
    const before = deferred.length;
    let settled = false;
    expect(() => record(q)).not.toThrow();
    expect(deferred).toHaveLength(before + 1);
    void deferred[before]!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // returned at once: the write had not even started
  }
  await expect(Promise.all(deferred)).resolves.toBeDefined(); // every write settles, none rejects
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

const held: Socket[] = [];
let silent: Server | undefined;
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => (silent ? silent.close(r) : r(undefined)));
});

/** A TCP server that accepts connections and never answers (a stalled Redis REST endpoint). */
async function silentPort(): Promise<number> {
  silent = createServer((socket) => held.push(socket));
  await new Promise<void>((r) => silent!.listen(0, '127.0.0.1', r));
  return (silent.address() as { port: number }).port;
}

describe('npm run ask:report over the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kartage-ask-report-'));
  const env = { KARTAGE_VAR_DIR: dir };

  it('says nothing was counted when there is no database yet', async () => {
    const r = await report({ KARTAGE_VAR_DIR: join(dir, 'empty') });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('No unanswered questions counted yet');
  });

  it('prints the most asked unanswered questions with their counts, scrubbed, as a table', async () => {
    let minute = 0;
    const { d, deferred, logs } = deps(env, () => T0 + minute++ * 60_000);
    await ask(d.recordUnanswered, deferred, [
      'Do you integrate with Xero?',
      'Is there a free trial? Call me on 0412 345 678',
      'do you integrate with XERO',
      'is there a free trial? call me on +61 499 111 222',
      'Do you integrate with Xero!',
      'Can I email jo.smith@example.com.au my quote?',
    ]);
    expect(logs).toEqual([]);
    const r = await report(env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^The 3 most asked questions the assistant could not answer \(embedded store \(SQLite /);
    expect(lines[0]).toContain(join(dir, 'kartage.db'));
    expect(lines.slice(1)).toEqual([
      '',
      'count  last asked (UTC)  question',
      '-----  ----------------  --------',
      '    3  2026-11-23 10:04  do you integrate with xero?',
      '    2  2026-11-23 10:03  is there a free trial? call me on [phone]',
      '    1  2026-11-23 10:05  can i email [email] my quote?',
    ]);
    expect(r.stdout).not.toMatch(/0412|499|jo\.smith/);
  });

  it('--limit N keeps the top N; --json prints them as JSON', async () => {
    const top = await report(env, '--limit', '1');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('do you integrate with xero?');
    expect(top.stdout).not.toContain('free trial');
    const json = await report(env, '--json', '--limit', '2');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { count: 3, lastAsked: '2026-11-23T10:04:00.000Z', text: 'do you integrate with xero?' },
      { count: 2, lastAsked: '2026-11-23T10:03:00.000Z', text: 'is there a free trial? call me on [phone]' },
    ]);
  });

  it('a bad --limit or an unknown option: one line and exit code 2', async () => {
    for (const args of [['--limit', '0'], ['--limit', 'ten'], ['--limit', '5001'], ['--bogus']]) {
      const r = await report(env, ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^ask:report: .*usage: npm run ask:report/);
    }
  });
});

describe('npm run ask:report lists only reportable questions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kartage-ask-report-listed-'));
  const env = { KARTAGE_VAR_DIR: dir };

  it('a link, text that is not language, a name or an address is counted but not listed, and said so', async () => {
    let minute = 1;
    const { d, deferred, logs } = deps(env, () => T0 + minute++ * 60_000);
    const spam = 'Cheap moving quotes at best-movers.example, click now';
    await ask(d.recordUnanswered, deferred, [
      ...Array.from({ length: 5 }, () => spam),
      ...Array.from({ length: 4 }, () => 'zzzz qqqq xxxx'),
      ...Array.from({ length: 3 }, () => 'My name is Jo Smith, do you do storage?'),
      'We are at 12 Smith Street, do you cover Richmond?',
      'Is there a free trial?',
      'Do you integrate with Xero?',
    ]);
    // A row counted by an older scrub is scrubbed again as it is read.
    await d.store.countQuestion('call me on 0412/345/678 about myob', 'call me on 0412/345/678 about myob', T0);
    expect(logs).toEqual([]);
    const r = await report(env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^The 3 most asked questions the assistant could not answer /);
    expect(lines.slice(4, 7).map((l) => l.replace(/^.{5} {2}.{16} {2}/, ''))).toEqual([
      'do you integrate with xero?',
      'is there a free trial?',
      'call me on [phone] about myob',
    ]);
    expect(lines.slice(7)).toEqual([
      '',
      'Not listed: 4 counted questions (1 carries a link or a host name, 1 is not language, ' +
        '2 may name a person or give an address).',
    ]);
    expect(r.stdout).not.toMatch(/best-movers|zzzz|smith|0412|345/i);
    const json = JSON.parse((await report(env, '--json')).stdout) as { text: string }[];
    expect(json.map((q) => q.text)).toEqual(lines.slice(4, 7).map((l) => l.replace(/^.{5} {2}.{16} {2}/, '')));
  });
});

describe('the report with the store down', () => {
  it('unreachable (refused): counting neither throws nor delays and is logged once; the report exits 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: 'test-token' };
    const { d, deferred, logs } = deps(env);
    await ask(d.recordUnanswered, deferred, ['do you support xero', 'is there a free trial', 'what about myob']);
    expect(logs.map((l) => l.event)).toEqual(['unanswered_not_counted']); // logged once, not per question
    const r = await report(env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^ask:report: cannot read the unanswered questions from Upstash Redis at 127\.0\.0\.1:\d+: /,
    );
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('silent (accepts, never answers): counting gives up at its bound, the report exits 1 in one line', async () => {
    const url = `http://127.0.0.1:${await silentPort()}`;
    const env = { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: 'test-token' };
    const { d, deferred, logs } = deps(env);
    await ask(d.recordUnanswered, deferred, ['do you support xero', 'is there a free trial']);
    expect(logs.map((l) => l.event)).toContain('unanswered_not_counted');
    const r = await report(env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^ask:report: cannot read the unanswered questions from Upstash Redis at 127\.0\.0\.1:\d+: /,
    );
  });
});
