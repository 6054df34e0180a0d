/**
 * `npm run faults`: the lead path's promises, proved black box. Real server processes (`node
 * server/main.ts`), `npm run leads:flush` processes, a fake HubSpot form API, and for the Upstash path a
 * real redis-server behind the Upstash-REST bridge; loopback only, bounded (about a minute). Scenarios:
 *
 * 1. 300 leads with the CRM down while three `npm run leads:flush` run at once (twice during the burst,
 *    then three again once the CRM is back): every lead answered 200 delivered, none lost.
 * 2. `kill -9` of the server mid-burst, restart, flush: every lead answered 200 delivered.
 * 3. Restart: a replayed Idempotency-Key still replays, a spent lead budget stays spent.
 * 4. Upstash with Redis paused (SIGSTOP), then answering in 1 s, two server processes: 600 concurrent
 *    leads from one address (at most 5 per process), the same key twice per process (one lead per
 *    process), 300 reads from one address per process (at most 120 per process).
 * 5. Six 502s (CRM down, Redis stalled), then recovery: the same request succeeds, the budget untouched.
 * 6. The embedded file attacked: a corrupt kartage.db at start (moved aside, the site serves, leads queue),
 *    another process holding its write lock (pages answered meanwhile, the waiting lead recorded after),
 *    then kill -9 and a damaged WAL: every lead answered 200 delivered after a restart and a flush.
 * 7. The CRM refuses for good: HubSpot's form lost a field we send (400 for every lead carrying it). After a
 *    flush every lead answered 200 is in the CRM or in the dead letters with a sales notice, none left in the
 *    outbox; once the form is fixed, `leads:requeue --all` and a flush deliver each refused lead exactly once.
 * 8. Upstash, a client over its budget: reads, unknown API paths and 405s all spend the read budget, and
 *    300 requests past it are refused with no Redis command (the instance remembers the refusal).
 * 9. Upstash, leads over the budget with keys: a client that spent its five leads sends 100 more, each with its own
 *    Idempotency-Key (as the forms and the chat do): all 429, with no Redis command (no claim, no release).
 *
 * Writes bench/faults.json and bench/faults.md (not with --check, as `npm test` runs it); exits 1 when a promise
 * does not hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BurstRequest } from './burst-worker.ts';
import { startFakeHubSpot, startFakeSlack } from '../tests/helpers/fake-crm.ts';
import { RespConnection, startRedis } from '../tests/helpers/redis-server.ts';
import { startUpstashBridge } from '../tests/helpers/upstash-bridge.ts';
import { BENCH_DIR, loopbackAddress, ROOT, send, sleep, table } from './lib.ts';

/** Waits (at most `seconds`) until at least `seconds` are left before the clock's next minute starts. */
async function awayFromMinuteEdge(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await sleep(left + 200);
}

const auth = { token: 'pat-faults', portalId: '77', formId: 'faults-form' };
const started = Date.now();

interface Check {
  scenario: string;
  figure: string;
  value: number | string;
  expected: string;
  ok: boolean;
}
const checks: Check[] = [];
/** A promise: a condition that can fail, and fails the run when it does. */
const check = (scenario: string, figure: string, value: number | string, expected: string, ok: boolean) => {
  checks.push({ scenario, figure, value, expected, ok });
  console.log(`[faults] ${ok ? 'ok  ' : 'FAIL'} ${scenario}: ${figure} = ${value} (${expected})`);
};
/** A figure reported for reading, not a check (it cannot fail the run). */
const figures: { scenario: string; figure: string; value: number | string }[] = [];
const report = (scenario: string, figure: string, value: number | string) => {
  figures.push({ scenario, figure, value });
  console.log(`[faults] fig  ${scenario}: ${figure} = ${value}`);
};

interface Server {
  url: string;
  child: ChildProcess;
}

/** `node server/main.ts` on a free port with `env`; resolves once it serves. */
function startServer(env: Record<string, string>): Promise<Server> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'server/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (c: Buffer) => {
      if (out.length < 20_000) out += c.toString();
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1]!, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`server exited with ${code}: ${out.slice(-2000)}`)));
  });
}

async function stop(s: Server, signal: NodeJS.Signals = 'SIGTERM') {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await exited;
}

/**
 * `npm run leads:flush`'s script with `env`; resolves with its exit code and last line. `aheadMs`: the flush runs
 * that much later than now, as far as its clock knows (an entry that failed often waits its backoff, minutes).
 */
function flush(env: Record<string, string>, aheadMs = 0): Promise<{ code: number | null; line: string }> {
  const later = aheadMs
    ? [
        '--import',
        `data:text/javascript,${encodeURIComponent(`const n = Date.now; Date.now = () => n() + ${aheadMs};`)}`,
      ]
    : [];
  return new Promise((ok) => {
    const child = spawn(process.execPath, [...later, join(ROOT, 'server/leads-flush.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (out += c));
    child.once('exit', (code) => ok({ code, line: out.trim().split('\n').at(-1) ?? '' }));
  });
}

/**
 * A `server/` script with `args` and `env`: its exit code, its outputs apart, and stdout's last line (the log
 * lines on stderr cannot end up after it, whatever order the two pipes are read in).
 */
function command(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string; line: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [join(ROOT, 'server', script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (err += c));
    child.once('exit', (code) => ok({ code, out, err, line: out.trim().split('\n').at(-1) ?? '' }));
  });
}

const leadBody = (marker: string) =>
  JSON.stringify({ name: `Fault ${marker}`, email: `${marker}@example.com`, message: marker });
const leadRequest = (base: string, marker: string, from: string, key?: string) => ({
  url: `${base}/api/lead`,
  method: 'POST',
  body: leadBody(marker),
  localAddress: from,
  headers: key ? { 'idempotency-key': key } : ({} as Record<string, string>),
  timeoutMs: 20_000,
});
const postLead = (base: string, marker: string, from: string, key?: string) => {
  const { url, ...opts } = leadRequest(base, marker, from, key);
  return send(new URL(url), opts);
};

/**
 * Sends `requests` all at once from a worker thread: their statuses, in order. The fakes and the bridge answer
 * from this thread, and a burst of hundreds sent from here too left them late on a loaded machine (the fake CRM
 * past the server's 300 ms bound), which failed a check for the harness's sake, not the server's.
 */
function burst(requests: BurstRequest[]): Promise<number[]> {
  return new Promise((ok, fail) => {
    const worker = new Worker(new URL('./burst-worker.ts', import.meta.url), { workerData: requests });
    worker.once('message', ok);
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the burst worker exited with ${code} before answering`)));
  });
}

/** Runs `jobs` with at most `width` in flight. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

const hubspot = await startFakeHubSpot(auth);
const crmEnv = {
  HUBSPOT_ACCESS_TOKEN: auth.token,
  HUBSPOT_PORTAL_ID: auth.portalId,
  HUBSPOT_FORM_ID: auth.formId,
  HUBSPOT_API_BASE: hubspot.url,
  // The CRM's bound stays the production default (5 s): the fake CRM is down (refused at once) or up, never slow,
  // and a shorter bound failed leads on a loaded machine when the fake answered late, not the server.
};
const delivered = () => new Set(hubspot.received.map((s) => String(s.fields.message)));
const dirs: string[] = [];
const servers: Server[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'kartage-faults-'));
  dirs.push(d);
  return d;
};

/**
 * After a kill: the server started again on `env`, the CRM back, one flush; which of `answers` were 200 and how many
 * of those never reached the CRM.
 */
async function restartAndFlush(env: Record<string, string>, answers: { marker: string; status: number }[]) {
  const restarted = await startServer(env);
  servers.push(restarted);
  hubspot.setMode('ok');
  const result = await flush(env);
  const ok = answers.filter((a) => a.status === 200);
  const got = delivered();
  const lost = ok.filter((a) => !got.has(a.marker)).length;
  return { restarted, result, ok, lost };
}

try {
  // 1. CRM down, 300 leads, three concurrent flushes during the burst and after.
  {
    const scenario = '300 leads, CRM down, 3 concurrent flushes';
    const env = { ...crmEnv, KARTAGE_VAR_DIR: await tempDir() };
    const server = await startServer(env);
    servers.push(server);
    hubspot.setMode('down');
    const jobs = Array.from(
      { length: 300 },
      (_, i) => () =>
        postLead(server.url, `s1-${i}`, loopbackAddress(61, i)).then((r) => ({ marker: `s1-${i}`, status: r.status })),
    );
    const burst = pool(jobs, 16);
    await sleep(300);
    const during = await Promise.all([flush(env), flush(env), flush(env)]);
    await sleep(300);
    during.push(...(await Promise.all([flush(env), flush(env), flush(env)])));
    const answers = await burst;
    hubspot.setMode('ok');
    const after = await Promise.all([flush(env), flush(env), flush(env)]);
    // A flush that found everything leased by the other two exits 1; one last flush sweeps up, two hours on: an
    // entry that failed on every flush during the burst waits its backoff (minutes), so it is delivered then.
    after.push(await flush(env, 7_200_000));
    const ok = answers.filter((a) => a.status === 200);
    const got = delivered();
    const lost = ok.filter((a) => !got.has(a.marker)).length;
    const copies = hubspot.received.filter((s) => String(s.fields.message).startsWith('s1-')).length;
    const distinct = [...got].filter((m) => m.startsWith('s1-')).length;
    check(scenario, 'answered 200', ok.length, '300', ok.length === 300);
    report(scenario, 'flushes run (6 of them during the burst)', during.length + after.length);
    check(scenario, 'lost (200 but never delivered)', lost, '0', lost === 0);
    report(scenario, 'duplicate deliveries (same delivery id, so the CRM can drop them)', copies - distinct);
    check(scenario, 'last flush', after.at(-1)!.line, 'outbox empty', /left in the outbox 0/.test(after.at(-1)!.line));
    await stop(server);
  }

  // 2. kill -9 mid-burst, restart, flush.
  {
    const scenario = 'kill -9 mid-burst, restart, flush';
    const env = { ...crmEnv, KARTAGE_VAR_DIR: await tempDir() };
    const server = await startServer(env);
    servers.push(server);
    hubspot.setMode('down');
    const answers: { marker: string; status: number }[] = [];
    const jobs = Array.from(
      { length: 300 },
      (_, i) => () =>
        postLead(server.url, `s2-${i}`, loopbackAddress(62, i))
          .then((r) => answers.push({ marker: `s2-${i}`, status: r.status }))
          .catch(() => answers.push({ marker: `s2-${i}`, status: 0 })),
    );
    const burst = pool(jobs, 16);
    while (answers.filter((a) => a.status === 200).length < 100) await sleep(10);
    server.child.kill('SIGKILL');
    await burst;
    const { restarted, result, ok, lost } = await restartAndFlush(env, answers);
    check(scenario, 'answered 200 before the kill', ok.length, '>= 100', ok.length >= 100);
    report(scenario, 'requests cut off by the kill', answers.filter((a) => a.status !== 200).length);
    check(scenario, 'lost (200 but never delivered)', lost, '0', lost === 0);
    check(scenario, 'flush after restart', result.line, 'outbox empty', /left in the outbox 0/.test(result.line));

    // 3. Restart: a replayed key replays, a spent budget stays spent.
    const s3 = 'restart keeps keys and budgets';
    const from = '127.63.0.9';
    const first = await postLead(restarted.url, 's3-keyed', from, 'restart-key');
    for (let i = 0; i < 4; i++) await postLead(restarted.url, `s3-${i}`, from);
    await stop(restarted, 'SIGKILL');
    const again = await startServer(env);
    servers.push(again);
    const replay = await postLead(again.url, 's3-keyed', from, 'restart-key');
    const sixth = await postLead(again.url, 's3-sixth', from);
    check(s3, 'first answer', first.status, '200', first.status === 200);
    check(
      s3,
      'same key after restart',
      `${replay.status} replayed=${replay.headers['idempotency-replayed'] ?? 'no'}`,
      '200 replayed=true',
      replay.status === 200 && replay.headers['idempotency-replayed'] === 'true',
    );
    check(s3, 'sixth lead after restart', sixth.status, '429', sixth.status === 429);
    check(
      s3,
      'copies of the keyed lead delivered',
      hubspot.received.filter((s) => s.fields.message === 's3-keyed').length,
      '1',
      hubspot.received.filter((s) => s.fields.message === 's3-keyed').length === 1,
    );
    await stop(again);
  }

  // 6. The embedded file attacked: corrupt at start, locked by another process, kill -9 and a damaged WAL.
  {
    const scenario = 'embedded file: corrupt, locked, kill -9 + damaged WAL';
    const dir = await tempDir();
    const file = join(dir, 'kartage.db');
    await writeFile(file, 'not a database '.repeat(500));
    const env = { ...crmEnv, KARTAGE_VAR_DIR: dir };
    const server = await startServer(env);
    servers.push(server);
    hubspot.setMode('down');
    const page = await send(new URL(`${server.url}/pricing`), {});
    const aside = (await readdir(dir)).filter((f) => f.startsWith('kartage.db.corrupt-'));
    check(
      scenario,
      'start on a corrupt file: /pricing, file kept aside',
      `${page.status}, ${aside.length} aside`,
      '200, 1 aside',
      page.status === 200 && aside.length === 1,
    );
    const answers: { marker: string; status: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await postLead(server.url, `s6-${i}`, loopbackAddress(66, i));
      answers.push({ marker: `s6-${i}`, status: r.status });
    }
    // Another process takes the write lock and holds it until told.
    const locker = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE'); console.log('locked');
         process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((ok) => locker.stdout!.once('data', () => ok()));
    const waiting = postLead(server.url, 's6-locked', loopbackAddress(66, 99));
    let pages = 0;
    for (let i = 0; i < 20; i++) if ((await send(new URL(`${server.url}/pricing`), {})).status === 200) pages++;
    locker.stdin!.write('go\n');
    await new Promise((ok) => locker.once('exit', ok));
    const locked = await waiting;
    answers.push({ marker: 's6-locked', status: locked.status });
    check(scenario, 'pages answered while another process held the lock', pages, '20', pages === 20);
    check(scenario, 'the lead that waited for the lock', locked.status, '200', locked.status === 200);
    server.child.kill('SIGKILL');
    await new Promise((ok) => server.child.once('exit', ok));
    // Damage every frame the WAL still holds.
    const wal = `${file}-wal`;
    const size = await stat(wal).then(
      (s) => s.size,
      () => 0,
    );
    if (size > 32) {
      const fd = await open(wal, 'r+');
      for (let at = 56; at < size; at += 4096 + 24) await fd.write(Buffer.alloc(64, 0xff), 0, 64, at);
      await fd.close();
    }
    const { restarted, result, ok, lost } = await restartAndFlush(env, answers);
    check(scenario, 'answered 200', ok.length, '21', ok.length === 21);
    check(scenario, 'lost after kill -9 and a damaged WAL (200 but never delivered)', lost, '0', lost === 0);
    check(scenario, 'flush after restart', result.line, 'outbox empty', /left in the outbox 0/.test(result.line));
    await stop(restarted);
  }

  // 7. The CRM refuses for good: the form lost `kartage_segment`, so HubSpot answers 400 to every lead with a
  // segment (and takes the others). Sales get a Slack notice for each lead the CRM did not take.
  {
    const scenario = 'CRM refuses for good (400: a field not on the form)';
    const slack = await startFakeSlack();
    try {
      const env = { ...crmEnv, KARTAGE_VAR_DIR: await tempDir(), SALES_WEBHOOK_URL: slack.url };
      const server = await startServer(env);
      servers.push(server);
      hubspot.setMode('ok');
      hubspot.setFormFields(
        ['email', 'firstname', 'lastname', 'company', 'phone', 'country', 'message'].concat(
          ['intent', 'warehouses', 'moves', 'lead_id'].map((f) => `kartage_${f}`),
        ),
      );
      const answers: { marker: string; status: number; refused: boolean }[] = [];
      for (let i = 0; i < 40; i++) {
        const marker = `s7-${i}`;
        const refused = i % 2 === 0;
        const body = JSON.parse(leadBody(marker));
        const r = await send(new URL(`${server.url}/api/lead`), {
          method: 'POST',
          body: JSON.stringify(refused ? { ...body, segment: 'International' } : body),
          localAddress: loopbackAddress(67, i),
          timeoutMs: 20_000,
        });
        answers.push({ marker, status: r.status, refused });
      }
      const result = await command('leads-flush.ts', [], env);
      const file = join(env.KARTAGE_VAR_DIR, 'dead-letters.jsonl');
      // The file first: a version without --dead-letters then writes its lead table there, not to a stray file.
      const exported = await command('leads-export.ts', [file, '--dead-letters'], env);
      const dead = new Set(
        (await readFile(file, 'utf8').catch(() => ''))
          .split('\n')
          .filter(Boolean)
          .map((l) => String(JSON.parse(l).record?.lead?.message)),
      );
      const notices = slack.received
        .filter((m) => /^A lead could not be delivered to the CRM/.test(String(m.text)))
        .map((m) => JSON.stringify(m));
      const noticed = (marker: string) => notices.some((n) => n.includes(JSON.stringify(marker)));
      const ok = answers.filter((a) => a.status === 200);
      const got = delivered();
      const parked = ok.filter((a) => !got.has(a.marker) && !(dead.has(a.marker) && noticed(a.marker)));
      check(scenario, 'answered 200', ok.length, '40', ok.length === 40);
      check(
        scenario,
        'in neither the CRM nor the dead letters with a notice (200 but parked)',
        parked.length,
        '0',
        parked.length === 0,
      );
      check(scenario, 'flush', result.line, 'outbox empty', /left in the outbox 0/.test(result.line));
      check(scenario, 'flush exit code', String(result.code), '3 (dead letters made)', result.code === 3);
      const inCrm = ok.filter((a) => got.has(a.marker)).length;
      report(scenario, 'in the CRM / in the dead letters / notices', `${inCrm} / ${dead.size} / ${notices.length}`);
      report(scenario, 'dead-letter export', exported.err.trim().split('\n').at(-1) ?? '');

      // The form fixed: every refused lead re-queued once and delivered exactly once.
      hubspot.setFormFields(undefined);
      const requeue = await command('leads-requeue.ts', ['--all'], env);
      const again = await command('leads-flush.ts', [], env);
      const copies = answers
        .filter((a) => a.refused)
        .map((a) => hubspot.received.filter((x) => x.fields.message === a.marker).length);
      check(scenario, 're-queue --all', String(requeue.code), '0', requeue.code === 0);
      check(
        scenario,
        'flush after the fix',
        again.line,
        'delivered 20, dead-lettered 0, outbox empty',
        /^delivered 20, retrying 0, dead-lettered 0, .*left in the outbox 0$/.test(again.line),
      );
      check(
        scenario,
        'copies of each refused lead in the CRM after the fix',
        [...new Set(copies)].join(' '),
        '1',
        copies.every((c) => c === 1),
      );
      await stop(server);
    } finally {
      hubspot.setFormFields(undefined);
      await slack.stop();
    }
  }

  // 4 and 5: Upstash through a real redis-server.
  const redisDir = await tempDir();
  const redis = await startRedis({ dir: redisDir });
  const bridge = await startUpstashBridge({ redisPort: redis.port });
  try {
    const env = {
      ...crmEnv,
      KARTAGE_VAR_DIR: await tempDir(),
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
    };
    const a = await startServer(env);
    const b = await startServer(env);
    servers.push(a, b);
    hubspot.setMode('ok');
    // Scripts loaded into Redis while it answers (a production Redis has them after the first requests).
    await postLead(a.url, 'warm-a', '127.64.9.1', 'warm-a');
    await postLead(b.url, 'warm-b', '127.64.9.2', 'warm-b');
    await send(new URL(`${a.url}/api/v1/pages?limit=1`), { localAddress: '127.64.9.1' });
    await send(new URL(`${b.url}/api/v1/pages?limit=1`), { localAddress: '127.64.9.2' });

    // Paused (SIGSTOP: commands wait in Redis's socket), then answering each command after 1 s.
    const stalls = [
      {
        name: 'Upstash, Redis paused, two processes',
        tag: 'p',
        begin: () => redis.process.kill('SIGSTOP'),
        end: () => redis.process.kill('SIGCONT'),
      },
      {
        name: 'Upstash, Redis answering in 1 s, two processes',
        tag: 'd',
        begin: () => bridge.setFault({ delayMs: 1_000 }),
        end: () => bridge.setFault('none'),
      },
    ];
    for (const [n, stall] of stalls.entries()) {
      const scenario = stall.name;
      const net = 70 + n;
      stall.begin();
      try {
        const from = `127.${net}.0.7`;
        const statuses = await burst(
          Array.from({ length: 600 }, (_, i) => leadRequest(i % 2 ? b.url : a.url, `s4${stall.tag}-${i}`, from)),
        );
        const leads = statuses.map((status, i) => ({ p: i % 2, status }));
        const perProcess = [0, 1].map((p) => leads.filter((l) => l.p === p && l.status === 200).length);
        const others = Object.entries(Object.groupBy(leads, (l) => String(l.status)))
          .filter(([status]) => status !== '200')
          .map(([status, all]) => `${status} x${all!.length}`);
        check(
          scenario,
          '600 concurrent leads from one address: 200s per process',
          `${perProcess.join(' / ')} (others: ${others.join(', ')})`,
          'at most 5 each, and the budget served: at least 5 in all',
          perProcess.every((x) => x <= 5) && perProcess[0]! + perProcess[1]! >= 5,
        );
        const marker = `s4${stall.tag}-keyed`;
        const keyed = await Promise.all(
          [a, b].flatMap((s) => [
            postLead(s.url, marker, `127.${net}.0.8`, 'stall-key'),
            postLead(s.url, marker, `127.${net}.0.8`, 'stall-key'),
          ]),
        );
        await sleep(200);
        const keyedCopies = hubspot.received.filter((s) => s.fields.message === marker).length;
        check(
          scenario,
          'same key twice on each process: statuses',
          keyed.map((r) => r.status).join(' '),
          'all 200',
          keyed.every((r) => r.status === 200),
        );
        check(
          scenario,
          'same key twice on each process: leads made',
          keyedCopies,
          'at least 1, at most 1 per process (2)',
          keyedCopies >= 1 && keyedCopies <= 2,
        );
        // The read budget is a sliding window of two fixed minutes (every engine, as @upstash/ratelimit's):
        // exact within a minute, a few more across a minute's edge. The burst takes well under 20 s, so it
        // starts where it cannot straddle one: the bound below stays exactly 120 (it failed about 1 run in 7
        // when a burst crossed the edge, 121 or 122 served).
        await awayFromMinuteEdge(20);
        const reads = await Promise.all(
          [a, b].map(async (s) => {
            let served = 0;
            await pool(
              Array.from({ length: 300 }, () => async () => {
                const r = await send(new URL(`${s.url}/api/v1/pages?limit=1`), {
                  localAddress: `127.${net}.0.9`,
                  timeoutMs: 20_000,
                });
                if (r.status === 200) served++;
              }),
              30,
            );
            return served;
          }),
        );
        check(
          scenario,
          '300 reads from one address per process: served',
          reads.join(' / '),
          'at most 120 each, and still serving: at least 110 each',
          reads.every((x) => x <= 120 && x >= 110),
        );
      } finally {
        stall.end();
      }
    }

    // 5. A 502, then recovery: the same request succeeds, the budget untouched. Redis stalls (its writes
    // land when it resumes) while the CRM is down, so nothing takes the lead. Its own server, with a
    // shorter lead-path bound (500 ms) to keep the run short.
    const s5 = '502 then recovery';
    const c = await startServer({ ...env, KARTAGE_LEAD_STORE_TIMEOUT_MS: '500' });
    servers.push(c);
    await postLead(c.url, 'warm-c', '127.65.9.1', 'warm-c');
    hubspot.setMode('down');
    redis.process.kill('SIGSTOP');
    const from = '127.65.0.7';
    const failed = [];
    try {
      for (let i = 0; i < 6; i++) failed.push((await postLead(c.url, 's5', from, 'retry-after-502')).status);
    } finally {
      redis.process.kill('SIGCONT');
    }
    await sleep(1_000); // what Redis held while stalled has run by now
    hubspot.setMode('ok');
    const retry = await postLead(c.url, 's5', from, 'retry-after-502');
    check(
      s5,
      'answers while the CRM is down and Redis stalled',
      failed.join(' '),
      'all 502',
      failed.every((x) => x === 502),
    );
    check(
      s5,
      'same request after recovery',
      `${retry.status} replayed=${retry.headers['idempotency-replayed'] ?? 'no'}`,
      '200 replayed=no',
      retry.status === 200 && !retry.headers['idempotency-replayed'],
    );
    check(
      s5,
      'RateLimit-Remaining after recovery',
      String(retry.headers['ratelimit-remaining']),
      '4 (the 502s spent nothing)',
      retry.headers['ratelimit-remaining'] === '4',
    );
    await sleep(200);
    check(
      s5,
      'copies delivered',
      hubspot.received.filter((s) => s.fields.message === 's5').length,
      '1',
      hubspot.received.filter((s) => s.fields.message === 's5').length === 1,
    );
    await stop(c);

    // 8. A client over its budget costs no Redis call: past its first 429 the instance refuses it from memory
    // until the reset, and requests that read nothing (405s, preflights, unknown API paths) spend a read unit.
    /** Commands Redis has run so far (the INFO call itself included). */
    const processed = async () => {
      const conn = await RespConnection.connect(redis.port);
      try {
        const [info] = await conn.send([['INFO', 'stats']]);
        return Number(/total_commands_processed:(\d+)/.exec(String(info))?.[1]);
      } finally {
        conn.close();
      }
    };
    {
      const s8 = 'Upstash, a client over its budget';
      await awayFromMinuteEdge(20);
      const from = '127.68.0.7';
      const spent = await pool(
        Array.from({ length: 130 }, (_, i) => async () => {
          const path = ['/api/v1/pages?limit=1', '/api/v1/nothing', '/api/v1/search?q=x'][i % 3]!;
          const method = i % 3 === 2 ? 'DELETE' : 'GET';
          return (await send(new URL(`${a.url}${path}`), { method, localAddress: from })).status;
        }),
        4,
      );
      check(
        s8,
        '130 reads, unknown paths and 405s from one address: refused',
        spent.filter((x) => x === 429).length,
        'exactly 10 (the budget is 120, whatever the request)',
        spent.filter((x) => x === 429).length === 10,
      );
      const before = await processed();
      const refused = await pool(
        Array.from(
          { length: 300 },
          () => async () => (await send(new URL(`${a.url}/api/v1/pages?limit=1`), { localAddress: from })).status,
        ),
        16,
      );
      const commands = (await processed()) - before;
      check(
        s8,
        '300 more reads: refused',
        refused.filter((x) => x === 429).length,
        '300',
        refused.every((x) => x === 429),
      );
      check(s8, 'Redis commands for them', commands, 'at most 2 (the INFO calls)', commands <= 2);
    }

    // 9. A lead over the budget costs nothing: the forms and the chat always send an Idempotency-Key, and a client
    // this instance saw spend its five leads is refused before its key is claimed (no claim, no release).
    {
      const s9 = 'Upstash, leads over the budget with keys';
      const from = '127.69.0.7';
      const spent = [];
      for (let i = 0; i < 5; i++) spent.push((await postLead(a.url, `s9-${i}`, from, `s9-key-${i}`)).status);
      const before = await processed();
      const refused = [];
      for (let i = 0; i < 100; i++) refused.push((await postLead(a.url, `s9-over-${i}`, from, `s9-over-${i}`)).status);
      const commands = (await processed()) - before - 1;
      check(
        s9,
        'five leads, then 100 more with keys: refused',
        `${spent.join(' ')}; ${refused.filter((x) => x === 429).length} of 100`,
        '200 x5; 100 of 100',
        spent.every((x) => x === 200) && refused.every((x) => x === 429),
      );
      check(s9, 'store calls (Redis commands) per 100 over-budget leads with keys', commands, '0', commands === 0);
    }
    await stop(a);
    await stop(b);
  } finally {
    await bridge.stop();
    redis.process.kill('SIGCONT');
    await redis.stop();
  }
} finally {
  for (const s of servers) await stop(s, 'SIGKILL').catch(() => {});
  await hubspot.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}

const seconds = Math.round((Date.now() - started) / 100) / 10;
const failed = checks.filter((c) => !c.ok);
// `npm test` runs it with --check: the verdict only, so the committed report changes only when someone means it.
const writeReport = !process.argv.includes('--check');
if (writeReport)
  await writeFile(
    join(BENCH_DIR, 'faults.json'),
    `${JSON.stringify({ date: new Date().toISOString(), seconds, pass: !failed.length, checks, figures }, null, 2)}\n`,
  );
if (writeReport)
  await writeFile(
    join(BENCH_DIR, 'faults.md'),
    [
      '# Lead path under faults (`npm run faults`)',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${seconds} s, verdict **${failed.length ? 'FAIL' : 'PASS'}**. Real server processes, ` +
        '`npm run leads:flush` processes, a fake HubSpot form API and (scenarios 4-5) a real redis-server behind the ' +
        'Upstash-REST bridge, all on loopback. See `bench/faults.ts` for each scenario.',
      '',
      table(
        ['Scenario', 'Check', 'Measured', 'Promise', ''],
        checks.map((c) => [c.scenario, c.figure, String(c.value), c.expected, c.ok ? 'ok' : '**FAIL**']),
      ),
      '',
      'Figures reported for reading (not checks: nothing is promised about them):',
      '',
      table(
        ['Scenario', 'Figure', 'Measured'],
        figures.map((f) => [f.scenario, f.figure, String(f.value)]),
      ),
      '',
    ].join('\n'),
  );
console.log(
  `[faults] ${failed.length ? `FAIL: ${failed.length} of ${checks.length}` : `PASS: ${checks.length} checks`} in ${seconds} s${writeReport ? ' (bench/faults.md)' : ''}`,
);
process.exit(failed.length ? 1 : 0);
