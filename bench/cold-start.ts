/**
 * @module Cold start of each function: a fresh `node` process imports the function's entry and answers
 * one request (web signature: `GET`/`POST` exports, or a default export for the middleware). Measured
 * per function: time from process start to the answer (what the child reports from its own clock), the
 * import alone, the first answer alone, the parent's wall clock from spawn to exit, and the size.
 *
 * With `.vercel/output/functions/` present (after `npm run build:vercel`) the built bundles are measured:
 * each `*.func` folder's size on disk and its `.vc-config.json` handler, run with the folder as working
 * directory. Without it, the source modules (`api/*.ts`, `middleware.ts`) are measured from the project
 * root, and "size" is what the import graph loads (every file Node loads for that entry, counted through
 * a module hook in a separate run so the hook does not slow the timed runs).
 *
 *   node bench/cold-start.ts   # prints one JSON line; the child side is bench/cold-child.ts
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirSize, lastJson, median, ROOT, runTimed } from './lib.ts';

export interface ColdRow {
  name: string;
  entry: string;
  kind: 'bundle' | 'source';
  sizeBytes: number;
  files: number;
  request: string;
  status: number | string;
  /** From process start (performance.timeOrigin) to the answer's body read, median of the runs. */
  startToAnswerMs: number;
  importMs: number;
  firstAnswerMs: number;
  /** Spawn to exit, as seen by the parent. */
  wallMs: number;
  runs: number;
  error?: string;
}

interface Probe {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const LEAD = JSON.stringify({ name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The request each function answers in its cold run, by function name. */
const PROBES: Record<string, Probe> = {
  'v1/pages/index': { method: 'GET', path: '/api/v1/pages?limit=5' },
  'v1/search': { method: 'GET', path: '/api/v1/search?q=storage%20billing' },
  'v1/pages/batch': {
    method: 'POST',
    path: '/api/v1/pages/batch',
    body: JSON.stringify({ slugs: ['pricing', 'index'] }),
  },
  'v1/lead/validate': { method: 'POST', path: '/api/v1/lead/validate', body: LEAD },
  lead: { method: 'POST', path: '/api/lead', body: LEAD },
  mcp: {
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    headers: MCP_HEADERS,
  },
  'cron/leads-flush': { method: 'GET', path: '/api/cron/leads-flush' },
  middleware: { method: 'GET', path: '/api/v1/pages/pricing' },
};

/** Every file the entry's import graph loads (a module hook in a fresh process). */
async function graphSize(
  entry: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ bytes: number; files: number }> {
  const script = `
    import { registerHooks } from 'node:module';
    import { statSync } from 'node:fs';
    import { fileURLToPath } from 'node:url';
    const seen = new Set();
    registerHooks({ load(url, context, next) { if (url.startsWith('file:')) seen.add(url); return next(url, context); } });
    try { await import(${JSON.stringify(pathToFileURL(entry).href)}); } catch {}
    let bytes = 0;
    for (const u of seen) bytes += statSync(fileURLToPath(u)).size;
    console.log(JSON.stringify({ bytes, files: seen.size }));
    process.exit(0);`;
  const r = await runTimed(process.execPath, ['--input-type=module', '-e', script], {
    cwd,
    env: { ...process.env, ...env },
  });
  if (r.code !== 0) process.stderr.write(`import graph of ${entry}: ${r.stderr.slice(-500)}\n`);
  return r.code === 0 ? lastJson(r.stdout) : { bytes: NaN, files: NaN };
}

interface Target {
  name: string;
  entry: string;
  cwd: string;
  kind: ColdRow['kind'];
  size?: { bytes: number; files: number };
  /** Files Vercel adds from the project at deploy time (.vc-config.json filePathMap: the build data). */
  data?: { bytes: number; files: number };
  /** The names of the build's data files it carries (`build/<name>`), to count the same ones of a bigger site. */
  dataNames?: string[];
  /** The entry as reported (the bundle's own path when it runs from a folder of links). */
  shown?: string;
}

async function findFuncs(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.name.endsWith('.func')) out.push(p);
    else if (e.isDirectory()) await findFuncs(p, out);
  }
  return out;
}

/** The functions to measure: built bundles when `.vercel/output` exists, else the source modules. */
export async function coldTargets(): Promise<{
  kind: ColdRow['kind'];
  targets: Target[];
  note: string;
  scratch?: string;
}> {
  const functionsDir = join(ROOT, '.vercel/output/functions');
  const funcs = await findFuncs(functionsDir);
  if (funcs.length) {
    const targets: Target[] = [];
    const overlays = await mkdtemp(join(tmpdir(), 'kartage-func-'));
    for (const f of funcs.sort()) {
      const config = JSON.parse(await readFile(join(f, '.vc-config.json'), 'utf8').catch(() => '{}')) as {
        handler?: string;
        entrypoint?: string;
        runtime?: string;
        filePathMap?: Record<string, string>;
      };
      const handler = config.handler ?? config.entrypoint ?? 'index.js';
      const name = relative(functionsDir, f)
        .replace(/\.func$/, '')
        .replace(/^api\//, '')
        .replace(/^_middleware$/, 'middleware');
      const size = await dirSize(f);
      // `filePathMap` lists files Vercel adds to the function from the project when it deploys (here the
      // build data): lay the function out as deployed, in a folder of links, and count those files too.
      const mapped = Object.entries(config.filePathMap ?? {});
      const data = { bytes: 0, files: 0 };
      const dataNames = mapped
        .map(([, p]) => p)
        .filter((p) => p.startsWith('build/'))
        .map((p) => p.slice(6));
      let cwd = f;
      if (mapped.length) {
        cwd = join(overlays, name.replace(/\//g, '_'));
        await mkdir(cwd, { recursive: true });
        for (const e of await readdir(f)) await symlink(join(f, e), join(cwd, e));
        for (const [inFunction, fromProject] of mapped) {
          const target = join(cwd, inFunction);
          if (await stat(target).catch(() => undefined)) continue;
          await mkdir(dirname(target), { recursive: true }).catch(() => {});
          await symlink(join(ROOT, fromProject), target).catch(() => {});
          data.bytes += (await stat(join(ROOT, fromProject)).catch(() => ({ size: 0 }))).size;
          data.files++;
        }
      }
      targets.push({
        name: config.runtime === 'edge' ? `${name} (edge)` : name,
        entry: join(cwd, handler),
        shown: relative(ROOT, join(f, handler)),
        cwd,
        kind: 'bundle',
        size,
        data,
        dataNames,
      });
    }
    const built = await stat(functionsDir);
    return {
      kind: 'bundle',
      targets,
      scratch: overlays,
      note: `built bundles from .vercel/output/functions (built ${built.mtime.toISOString().slice(0, 16).replace('T', ' ')} UTC), each run with its folder as working directory and the files its .vc-config.json filePathMap adds (the build data) in place; size includes those files`,
    };
  }
  const { functionRoutes } = await import('../src/operations/index.ts');
  const targets: Target[] = functionRoutes().map((r) => ({
    name: r.fn,
    entry: join(ROOT, 'api', `${r.fn}.ts`),
    cwd: ROOT,
    kind: 'source' as const,
  }));
  targets.push({ name: 'middleware', entry: join(ROOT, 'middleware.ts'), cwd: ROOT, kind: 'source' });
  return {
    kind: 'source',
    targets,
    note: '.vercel/output does not exist (run `npm run build:vercel` first): measured the source modules under api/ and middleware.ts from the project root instead; "size" is every file their import graph loads plus build/ (the data they read)',
  };
}

export interface ColdOptions {
  runs?: number;
  /** A data folder of a bigger site (the benchmark's synthetic corpus): the data-heavy functions run on it too. */
  bigData?: { dir: string; pages: number };
}

/** Functions whose first answer loads the whole content (and the index): measured again on the big data. */
const DATA_HEAVY = ['v1/search', 'v1/pages/index'];

export async function runColdStarts(
  opts: ColdOptions = {},
): Promise<{ kind: ColdRow['kind']; note: string; rows: ColdRow[] }> {
  const runs = opts.runs ?? (Number(process.env.BENCH_COLD_RUNS) || 3);
  const { kind, targets, note, scratch } = await coldTargets();
  const varDir = await mkdtemp(join(tmpdir(), 'kartage-cold-'));
  try {
    return await measureAll(kind, targets, note, varDir, runs, opts);
  } finally {
    await rm(varDir, { recursive: true, force: true });
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

async function measureAll(
  kind: ColdRow['kind'],
  targets: Target[],
  note: string,
  varDir: string,
  runs: number,
  opts: ColdOptions,
): Promise<{ kind: ColdRow['kind']; note: string; rows: ColdRow[] }> {
  // No Upstash, file sink in a throwaway folder: the cold start of the code, not of a network service.
  const env: Record<string, string> = {
    KARTAGE_VAR_DIR: varDir,
    LEAD_SINK: 'file',
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
    KV_REST_API_URL: '',
    KV_REST_API_TOKEN: '',
  };
  const projectData = await dirSize(join(ROOT, 'build'));

  const measure = async (
    t: Target,
    name: string,
    extraEnv: Record<string, string>,
    size: { bytes: number; files: number },
  ): Promise<ColdRow> => {
    const fn = t.name.replace(/ \(edge\)$/, '');
    const probe = PROBES[fn] ?? { method: 'GET', path: '/' };
    const samples: {
      status: number;
      importMs: number;
      firstAnswerMs: number;
      startToAnswerMs: number;
      wallMs: number;
    }[] = [];
    let error: string | undefined;
    for (let i = 0; i < runs; i++) {
      const args = [
        join(import.meta.dirname, 'cold-child.ts'),
        t.entry,
        probe.method,
        probe.path,
        probe.body ?? '',
        probe.headers ? JSON.stringify(probe.headers) : '',
      ];
      const r = await runTimed(process.execPath, args, { cwd: t.cwd, env: { ...process.env, ...env, ...extraEnv } });
      if (r.code !== 0) {
        error = (
          r.stderr
            .trim()
            .split('\n')
            .find((l) => /Error|error/.test(l)) ??
          r.stderr.trim().split('\n')[0] ??
          `exit ${r.code}`
        ).slice(0, 200);
        break;
      }
      samples.push({
        ...lastJson<{ status: number; importMs: number; firstAnswerMs: number; startToAnswerMs: number }>(r.stdout),
        wallMs: r.ms,
      });
    }
    const m = (k: keyof (typeof samples)[number]) => median(samples.map((x) => x[k]));
    return {
      name,
      entry: t.shown ?? relative(ROOT, t.entry),
      kind: t.kind,
      sizeBytes: size.bytes,
      files: size.files,
      request: `${probe.method} ${probe.path}`,
      status: samples[0]?.status ?? 'error',
      startToAnswerMs: m('startToAnswerMs'),
      importMs: m('importMs'),
      firstAnswerMs: m('firstAnswerMs'),
      wallMs: m('wallMs'),
      runs: samples.length,
      ...(error ? { error } : {}),
    };
  };

  const rows: ColdRow[] = [];
  const code = new Map<Target, { bytes: number; files: number }>();
  for (const t of targets) {
    // Bundles: their folder plus the build data Vercel adds; sources: their import graph plus build/.
    const size = t.size ?? (await graphSize(t.entry, t.cwd, env));
    const data = t.data ?? projectData;
    code.set(t, size);
    rows.push(await measure(t, t.name, {}, { bytes: size.bytes + data.bytes, files: size.files + data.files }));
  }
  if (opts.bigData) {
    const whole = await dirSize(opts.bigData.dir);
    for (const t of targets.filter((x) => DATA_HEAVY.includes(x.name))) {
      const c = code.get(t)!;
      // The bigger site's files of the same names as the function carries (its needs), or, for sources, all.
      let big = whole;
      if (t.dataNames) {
        big = { bytes: 0, files: 0 };
        for (const n of t.dataNames) {
          big.bytes += (await stat(join(opts.bigData.dir, n)).catch(() => ({ size: 0 }))).size;
          big.files++;
        }
      }
      rows.push(
        await measure(
          t,
          `${t.name} on ${opts.bigData.pages.toLocaleString('en-US')} pages`,
          { KARTAGE_DATA_DIR: opts.bigData.dir },
          { bytes: c.bytes + big.bytes, files: c.files + big.files },
        ),
      );
    }
  }
  return { kind, note, rows };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await runColdStarts()));
