/**
 * @module Helpers shared by the benchmark and the load test: the machine description, percentiles,
 * markdown tables, child processes timed by wall clock, HTTP requests from a chosen loopback source
 * address, and the resident memory of another process.
 */
import { fork, spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const BENCH_DIR = join(ROOT, 'bench');

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  platform: string;
  date: string;
  /** `git describe`-like: the commit measured, with `+changes` when the working tree differs from it. */
  commit: string;
}

function commitOf(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return head.stdout.trim() + (dirty.stdout.trim() ? ' + uncommitted changes' : '');
}

export function machine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    commit: commitOf(),
  };
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, Node ${m.node}, ${m.platform}, ${m.date.slice(0, 16).replace('T', ' ')} UTC, commit ${m.commit}`;
}

/** The p-th percentile (0-100) of `values` by nearest rank; NaN when empty. */
export function percentile(values: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(values).sort();
  if (!sorted.length) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Rounds for display: 3 significant digits below 100, integers above. */
export function num(n: number | undefined | null, digits = 3): string {
  if (n === undefined || n === null || Number.isNaN(n)) return 'n/a';
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return Number(n.toPrecision(digits)).toString();
}

export function bytes(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return 'n/a';
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node args…` (or another command) to the end; wall-clock time from spawn to exit. */
export function runTimed(
  command: string,
  args: string[],
  opts: SpawnOptions & { echo?: boolean } = {},
): Promise<Timed> {
  return new Promise((ok, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.once('error', fail);
    child.once('close', (code) => ok({ ms: performance.now() - started, code, stdout, stderr }));
  });
}

/** The last line of `text` that parses as a JSON object. */
export function lastJson<T>(text: string): T {
  const lines = text.trim().split('\n').reverse();
  for (const l of lines) {
    if (!l.startsWith('{')) continue;
    try {
      return JSON.parse(l) as T;
    } catch {
      // not this line
    }
  }
  throw new Error(`no JSON line in output:\n${text.slice(-2000)}`);
}

/** Total size of the files under `dir` (0 when it does not exist). */
export async function dirSize(dir: string): Promise<{ bytes: number; files: number }> {
  let total = 0;
  let files = 0;
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        total += (await stat(p)).size;
        files++;
      } else if (e.isSymbolicLink()) {
        const s = await stat(p).catch(() => undefined);
        if (s?.isFile()) {
          total += s.size;
          files++;
        } else if (s?.isDirectory()) await walk(p);
      }
    }
  };
  await walk(dir);
  return { bytes: total, files };
}

/** Resident and peak resident memory of a process (Linux /proc), in bytes. */
export async function procMemory(pid: number): Promise<{ rss: number; peakRss: number } | undefined> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
}

/** True for a loopback host (127.0.0.0/8, ::1, localhost): the load tools refuse anything else. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The n-th source address of a pool in 127.<block>.0.0/16 (skipping .0 and .255 host bytes). */
export function loopbackAddress(block: number, n: number): string {
  const hi = Math.floor(n / 254);
  const lo = (n % 254) + 1;
  return `127.${block}.${hi}.${lo}`;
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request over `agent` (keep-alive, bound to a source address); rejects on network errors only. */
export function send(
  url: URL,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    agent?: Agent;
    localAddress?: string;
    timeoutMs?: number;
  },
): Promise<HttpAnswer> {
  return new Promise((ok, fail) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method ?? 'GET',
        headers: {
          ...(opts.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) }
            : {}),
          ...opts.headers,
        },
        agent: opts.agent,
        localAddress: opts.agent ? undefined : opts.localAddress,
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', fail);
    req.end(opts.body);
  });
}

export interface ChildServer {
  url: string;
  pid: number;
  /** process.memoryUsage() of the server (after a GC when asked). */
  memory(gc?: boolean): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

/** Forks `script` (bench/serve.ts or bench/plain-static.ts) and waits for its `ready` message. */
export function forkServer(
  script: string,
  opts: { env?: Record<string, string>; args?: string[] } = {},
): Promise<ChildServer> {
  return new Promise((ok, fail) => {
    const child = fork(script, opts.args ?? [], {
      cwd: ROOT,
      env: { ...process.env, ...opts.env },
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d;
    });
    const onExit = (code: number | null) =>
      fail(new Error(`${script} exited (${code}) before it was ready: ${stderr.slice(-2000)}`));
    child.once('exit', onExit);
    child.once('error', fail);
    child.on('message', function ready(msg: { type: string; url?: string; pid?: number }) {
      if (msg.type !== 'ready') return;
      child.off('message', ready);
      child.off('exit', onExit);
      ok({
        url: msg.url!,
        pid: child.pid!,
        memory: (gc = false) =>
          new Promise((done) => {
            child.on('message', function mem(m: { type: string; usage?: NodeJS.MemoryUsage }) {
              if (m.type !== 'memory') return;
              child.off('message', mem);
              done(m.usage!);
            });
            child.send({ type: 'memory', gc });
          }),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(killer);
              done();
            });
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}

/** Builds the site (`astro build`: dist/ and build/) when build/content.json or dist/ is missing. */
export async function ensureProjectBuild(): Promise<'present' | 'built'> {
  const have = async (p: string) => !!(await stat(join(ROOT, p)).catch(() => undefined));
  if ((await have('build/content.json')) && (await have('dist/index.html'))) return 'present';
  process.stderr.write('No site build (build/content.json, dist/): running `astro build` first…\n');
  const r = await runTimed(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    echo: true,
  });
  if (r.code !== 0) throw new Error(`astro build failed (exit ${r.code})`);
  return 'built';
}
