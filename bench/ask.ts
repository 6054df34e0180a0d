/**
 * @module The assistant's benchmark (issue 23, points 5 and 6): speed, over the data folders the build writes
 * (`ask-index.json`, `ask-index.pack` and `meta.json`, of the ask need's files). Its quality on the judged question
 * sets, beside the baselines, is `npm run eval:ask` (eval/ask/README.md).
 *
 * Speed: askSite (ranking and answer assembly, with the sentence-model table as the function loads it) in-process over
 * a fixed mix (every question of the dev split, eval/ask/splits.json, follow-ups with their conversation, in file
 * order), one warm-up round then BENCH_ASK_ROUNDS
 * (5) timed rounds, per data folder (the project's 62 pages, the bench corpus); the ask data's size and load time;
 * and the first answer of a fresh process beside search's, interleaved, BENCH_COLD_RUNS (5) each: the per-need child
 * (bench/need-child.ts: the loader and the engine, only the need's data files) and the function entries
 * (bench/cold-child.ts: api/v1/ask.ts and api/v1/search.ts from source, the request pipeline included).
 *
 *   node --expose-gc bench/ask.ts <projectDataDir> [corpusDataDir]   # prints one JSON line (AskReport)
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pricingData from '../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../src/contract/content.ts';
import { DATA_FILES, embeddingReader, META_FILE, rangeReader } from '../src/adapters/content-files.ts';
import { type AskResult, type AskTurn, askSite } from '../src/core/ask/answer.ts';
import { ASK_FILE, ASK_PACK, type AskIndex, loadAskIndex } from '../src/core/ask/index.ts';
import { createContentFiles } from '../src/adapters/content-files.ts';
import { DEV_SETS, questionsOf } from '../eval/ask/sets.ts';
import { ASK_LIMITS } from '../src/contract/limits.ts';
import { HOSTILE_QUESTIONS } from '../tests/helpers/hostile-questions.ts';
import { BENCH_DIR, lastJson, median, percentile, ROOT, runTimed } from './lib.ts';

export interface AskSpeed {
  dataDir: string;
  pages: number;
  sections: number;
  /** The ask need's data files (DATA_FILES.ask) and their bytes. */
  files: string[];
  bytes: number;
  gzipBytes: number;
  /** loadAskIndex of the file's text in this process, median of 5. */
  loadMs: number;
  /** Heap of the loaded index (the file's text apart). */
  heapBytes: number;
  questions: number;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** The questions with the highest median time. */
  slowest: { question: string; medianMs: number; maxMs: number }[];
  /** The hostile corpus (tests/helpers/hostile-questions.ts), alone and after ten turns of itself: its slowest. */
  hostile: { name: string; turns: number; maxMs: number; ratioToP99: number };
}

export interface ColdSample {
  startToAnswerMs: number;
  importMs: number;
  firstAnswerMs: number;
}

export interface AskCold {
  dataDir: string;
  pages: number;
  runs: number;
  /** Per-need child: the loader, the engine and the need's data files only. */
  need: { ask: ColdSample; search: ColdSample; question: string; query: string };
  /** The function entries from source (api/v1/ask.ts, api/v1/search.ts): the request pipeline too. */
  fn?: { ask: ColdSample & { status: number }; search: ColdSample & { status: number }; error?: string };
}

export interface AskReport {
  /** meta.json builtAt of the project build measured. */
  builtAt: string;
  speed: AskSpeed[];
  cold: AskCold[];
}

const env = process.env;
const ROUNDS = Math.max(1, Number(env.BENCH_ASK_ROUNDS) || 5);
const COLD_RUNS = Math.max(1, Number(env.BENCH_COLD_RUNS) || 5);
/** A fixed instant within support hours (the handoff's label depends on the hour; nothing scored does). */
const NOW = Date.parse('2026-11-25T02:00:00Z');
const COLD_QUESTION = 'Is there a free trial?';
const COLD_QUERY = 'storage billing';
const pricing = PricingSchema.parse(pricingData);

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

interface Loaded {
  dir: string;
  json: string;
  index: AskIndex;
  origin: string;
  builtAt: string;
}

/** The pages' markdown as the function reads it: from the build's pages pack, one page at a time. */
const markdownReader = (dir: string) => {
  const content = createContentFiles(dir);
  return (slug: string) => content.page(slug)?.markdown;
};

/** The index of a data folder from its index file's text, as the function loads it. */
const indexOf = (dir: string, json: string) =>
  loadAskIndex(json, markdownReader(dir), rangeReader(join(dir, ASK_PACK)).read, embeddingReader(dir));

async function load(dir: string): Promise<Loaded> {
  const json = await readFile(join(dir, ASK_FILE), 'utf8');
  const meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as { origin: string; builtAt: string };
  return { dir, json, index: indexOf(dir, json), origin: meta.origin, builtAt: meta.builtAt };
}

const ours =
  (d: Loaded) =>
  (question: string, conversation?: AskTurn[]): AskResult =>
    askSite({ index: d.index, pricing, origin: d.origin, now: NOW }, { question, conversation });

/** The timed mix: every dev question, in file order, follow-ups with their conversation. */
function mix(): { question: string; conversation?: AskTurn[] }[] {
  return questionsOf(DEV_SETS).map((q) => ({ question: q.question, conversation: q.conversation }));
}

async function speed(d: Loaded, questions: ReturnType<typeof mix>): Promise<AskSpeed> {
  const loads: number[] = [];
  const h0 = heap();
  let index = indexOf(d.dir, d.json);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    index = indexOf(d.dir, d.json);
    loads.push(performance.now() - t);
  }
  const heapBytes = heap() - h0;
  const ask = ours({ ...d, index });
  for (const q of questions) ask(q.question, q.conversation); // warm-up round
  gc();
  gc();
  const samples: number[] = [];
  const per = questions.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) {
    questions.forEach((q, i) => {
      const t = performance.now();
      ask(q.question, q.conversation);
      const ms = performance.now() - t;
      samples.push(ms);
      per[i]!.push(ms);
    });
  }
  const files = [...DATA_FILES.ask];
  let bytes = 0;
  let gzipBytes = 0;
  for (const f of files) {
    const buf = await readFile(join(d.dir, f));
    bytes += buf.length;
    gzipBytes += gzipSync(buf).length;
  }
  const slowest = questions
    .map((q, i) => ({ question: q.question, medianMs: median(per[i]!), maxMs: Math.max(...per[i]!) }))
    .sort((a, b) => b.medianMs - a.medianMs)
    .slice(0, 5);
  const p99Ms = percentile(samples, 99);
  // Each hostile question, cut to the question's limit, alone and after ten turns of itself: the slowest of ROUNDS.
  let hostile = { name: '', turns: 0, maxMs: 0, ratioToP99: 0 };
  for (const [name, text] of Object.entries(HOSTILE_QUESTIONS)) {
    const question = `${[...text]
      .slice(0, ASK_LIMITS.questionMax - 2)
      .join('')
      .slice(0, ASK_LIMITS.questionMax - 1)}?`;
    for (const turns of [0, ASK_LIMITS.turnsMax]) {
      const conversation = Array.from({ length: turns }, () => ({ question }));
      ask(question, conversation);
      for (let r = 0; r < ROUNDS; r++) {
        const t = performance.now();
        ask(question, conversation);
        const ms = performance.now() - t;
        if (ms > hostile.maxMs) hostile = { name, turns, maxMs: ms, ratioToP99: ms / p99Ms };
      }
    }
  }
  return {
    dataDir: d.dir,
    pages: index.data.pages.length,
    sections: index.sectionCount,
    files,
    bytes,
    gzipBytes,
    loadMs: median(loads),
    heapBytes,
    questions: questions.length,
    rounds: ROUNDS,
    p50Ms: percentile(samples, 50),
    p99Ms,
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    maxMs: Math.max(...samples),
    slowest,
    hostile,
  };
}

const medianSample = <T extends ColdSample>(xs: T[]): T => {
  const m = (k: keyof ColdSample) => median(xs.map((x) => x[k]));
  return {
    ...xs[0]!,
    startToAnswerMs: m('startToAnswerMs'),
    importMs: m('importMs'),
    firstAnswerMs: m('firstAnswerMs'),
  };
};

/** Fresh processes, ask and search interleaved (a burst of load elsewhere hits both alike). */
async function cold(dir: string, pages: number): Promise<AskCold> {
  const child = (need: string, arg: string) =>
    runTimed(process.execPath, [join(BENCH_DIR, 'need-child.ts'), dir, need, 'pricing', arg], { cwd: ROOT });
  const need: Record<'ask' | 'search', ColdSample[]> = { ask: [], search: [] };
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const n of ['ask', 'search'] as const) {
      const r = await child(n, COLD_QUESTION);
      if (r.code !== 0) throw new Error(`need-child ${n} on ${dir}: ${r.stderr.slice(-1500)}`);
      need[n].push(lastJson<ColdSample>(r.stdout));
    }
  }
  // The functions from source, as bench/cold-start.ts runs them: embedded store, file sink, no network.
  const varDir = await mkdtemp(join(tmpdir(), 'kartage-ask-cold-'));
  const fnEnv = {
    ...env,
    KARTAGE_VAR_DIR: varDir,
    KARTAGE_DATA_DIR: dir,
    LEAD_SINK: 'file',
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
    KV_REST_API_URL: '',
    KV_REST_API_TOKEN: '',
  };
  const probes = {
    ask: [join(ROOT, 'api/v1/ask.ts'), 'POST', '/api/v1/ask', JSON.stringify({ question: COLD_QUESTION })],
    search: [join(ROOT, 'api/v1/search.ts'), 'GET', `/api/v1/search?q=${encodeURIComponent(COLD_QUERY)}`, ''],
  };
  const fn: Record<'ask' | 'search', (ColdSample & { status: number })[]> = { ask: [], search: [] };
  let error: string | undefined;
  try {
    for (let i = 0; i < COLD_RUNS && !error; i++) {
      for (const n of ['ask', 'search'] as const) {
        const r = await runTimed(process.execPath, [join(BENCH_DIR, 'cold-child.ts'), ...probes[n]], {
          cwd: ROOT,
          env: fnEnv,
        });
        if (r.code !== 0) {
          error = `${n}: ${r.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`;
          break;
        }
        fn[n].push(lastJson(r.stdout));
      }
    }
  } finally {
    await rm(varDir, { recursive: true, force: true });
  }
  return {
    dataDir: dir,
    pages,
    runs: COLD_RUNS,
    need: {
      ask: medianSample(need.ask),
      search: medianSample(need.search),
      question: COLD_QUESTION,
      query: COLD_QUERY,
    },
    ...(fn.ask.length && fn.search.length
      ? { fn: { ask: medianSample(fn.ask), search: medianSample(fn.search), ...(error ? { error } : {}) } }
      : {}),
  };
}

export async function runAskBench(projectDir: string, corpusDir?: string): Promise<AskReport> {
  const site = await load(projectDir);
  const log = (s: string) => process.stderr.write(`bench ask: ${s}\n`);
  const questions = mix();
  const loaded = [site];
  if (corpusDir) {
    log(`loading the corpus's ask index (${corpusDir})…`);
    loaded.push(await load(corpusDir));
  }
  const speeds: AskSpeed[] = [];
  const colds: AskCold[] = [];
  for (const d of loaded) {
    log(`in-process speed over ${d.dir}…`);
    speeds.push(await speed(d, questions));
  }
  const pagesOf = speeds.map((s) => s.pages);
  loaded.length = 0; // free the corpus's index before the child processes
  gc();
  for (const [i, dir] of [projectDir, ...(corpusDir ? [corpusDir] : [])].entries()) {
    log(`fresh processes over ${dir}…`);
    colds.push(await cold(dir, pagesOf[i]!));
  }
  return {
    builtAt: site.builtAt,
    speed: speeds,
    cold: colds,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [projectDir, corpusDir] = process.argv.slice(2);
  if (!projectDir) {
    console.error('usage: node --expose-gc bench/ask.ts <projectDataDir> [corpusDataDir]');
    process.exit(2);
  }
  for (const dir of [projectDir, corpusDir].filter(Boolean) as string[])
    if (!(await stat(join(dir, ASK_FILE)).catch(() => undefined))) {
      console.error(`no ${ASK_FILE} in ${dir}: build first`);
      process.exit(2);
    }
  console.log(JSON.stringify(await runAskBench(projectDir, corpusDir)));
}
