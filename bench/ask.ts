/**
 * @module The assistant's benchmark (issue 23, points 5 and 6): quality on the judged question sets and speed,
 * over the data folders the build writes (`ask-index.json`, `ask-index.pack` and `meta.json`, of the ask need's files).
 *
 * Quality: scoreAsk (tests/helpers/ask-metrics.ts) over each judged set of ASK_SETS (tests/data/ask-*.json: the
 * tuning set and the held-out sets, each with how it has been used), with the real askSite over the project
 * build's ask index (a learned set, whose questions the assistant learns from, on the same pages indexed without its
 * own questions: tests/helpers/ask-metrics.ts learnedIndex), beside a plain library baseline:
 * MiniSearch with its default options over the same sections (fields: the section's text, its heading and its
 * page's title), answering with its top sections as sources (the best one's text as the answer) and `answered`
 * whenever it returns a hit. It has no handoff and no pricing arithmetic, so those figures do not apply to it.
 *
 * Speed: askSite (ranking and answer assembly) in-process over a fixed mix (every judged question of every set,
 * follow-ups with their conversation, in file order), one warm-up round then BENCH_ASK_ROUNDS (5) timed rounds,
 * per data folder (the project's 62 pages, the bench corpus); the ask data's size and load time; and the first
 * answer of a fresh process beside search's, interleaved, BENCH_COLD_RUNS (5) each: the per-need child
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
import MiniSearch from 'minisearch';
import pricingData from '../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../src/contract/content.ts';
import { DATA_FILES, META_FILE, rangeReader } from '../src/adapters/content-files.ts';
import { type AskResult, type AskTurn, askSite, NO_ANSWER } from '../src/core/ask/answer.ts';
import { ASK_FILE, ASK_PACK, type AskIndex, loadAskIndex } from '../src/core/ask/index.ts';
import { createContentFiles } from '../src/adapters/content-files.ts';
import { loadContent } from '../src/adapters/composition-root.ts';
import {
  ASK_SETS,
  type AskScores,
  askSourcesOf,
  type AskSetName,
  type JudgedSet,
  LEARNED_SETS,
  learnedIndex,
  loadJudged,
  scoreAsk,
  unmatched,
} from '../tests/helpers/ask-metrics.ts';
import { BENCH_DIR, lastJson, median, percentile, ROOT, runTimed } from './lib.ts';

/** One asker's figures on one judged set (shares 0-1; `null` where the figure does not apply). */
export interface AskQuality {
  asker: 'ours' | 'minisearch';
  set: AskSetName;
  questions: number;
  counts: Record<string, number>;
  answerAt1: number;
  answerAt3: number;
  twoPart: number;
  absentCorrect: number;
  handoffCorrect: number | null;
  handoffByIntent: Record<string, number> | null;
  pricingCorrect: number | null;
  noAnswerRate: number;
  /**
   * Ours on a learned set (src/build/ask-asked.json): scored on an index that leaves the set's own questions out of
   * what the assistant learns, so the figures are those of questions it has not seen.
   */
  leftOut?: true;
  /** Sentences shown that are not in their cited section (must be 0), and the first few. */
  invented: number;
  inventedSample: string[];
  /** Ids of the questions it gets wrong. */
  failures: string[];
}

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
  /** meta.json builtAt of the project build whose ask index was scored. */
  builtAt: string;
  minisearchVersion: string;
  quality: AskQuality[];
  /** Judged references no section of the index has (should be none). */
  unmatched: string[];
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
  loadAskIndex(json, markdownReader(dir), rangeReader(join(dir, ASK_PACK)).read);

async function load(dir: string): Promise<Loaded> {
  const json = await readFile(join(dir, ASK_FILE), 'utf8');
  const meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as { origin: string; builtAt: string };
  return { dir, json, index: indexOf(dir, json), origin: meta.origin, builtAt: meta.builtAt };
}

const ours =
  (d: Loaded) =>
  (question: string, conversation?: AskTurn[]): AskResult =>
    askSite({ index: d.index, pricing, origin: d.origin, now: NOW }, { question, conversation });

/** MiniSearch, default options, over the index's sections: top sections as sources, answered on any hit. */
function miniSearchAsker(index: AskIndex) {
  const { sections, pages } = index.data;
  const ms = new MiniSearch<{ id: number; text: string; heading: string; title: string }>({
    fields: ['text', 'heading', 'title'],
  });
  ms.addAll(sections.map((s, id) => ({ id, text: index.text(id), heading: s[1] ?? '', title: pages[s[0]]!.title })));
  return (question: string): AskResult => {
    const hits = ms.search(question).slice(0, 5);
    const sources = hits.map((h) => {
      const id = h.id as number;
      const page = pages[index.pageOf(id)]!;
      const anchor = index.anchor(id);
      return {
        slug: page.slug,
        title: page.title,
        heading: index.heading(id),
        url: `${page.url}${anchor ? `#${anchor}` : ''}`,
        text: index.text(h.id as number),
        role: 'answer' as const,
      };
    });
    return {
      question,
      answered: hits.length > 0,
      answer: sources[0]?.text ?? NO_ANSWER,
      sources,
      handoff: null,
      mode: 'extractive',
    };
  };
}

function quality(
  asker: AskQuality['asker'],
  set: AskQuality['set'],
  judged: JudgedSet,
  s: AskScores,
  applies: boolean,
): AskQuality {
  return {
    asker,
    set,
    questions: judged.questions.length,
    counts: s.counts,
    answerAt1: s.answerAt1,
    answerAt3: s.answerAt3,
    twoPart: s.twoPart,
    absentCorrect: s.absentCorrect,
    handoffCorrect: applies ? s.handoffCorrect : null,
    handoffByIntent: applies ? s.handoffByIntent : null,
    pricingCorrect: applies ? s.pricingCorrect : null,
    noAnswerRate: s.noAnswerRate,
    invented: s.invented.length,
    inventedSample: s.invented.slice(0, 5),
    failures: s.failures
      .filter((f) => applies || (f.q.kind !== 'handoff' && f.q.kind !== 'pricing'))
      .map((f) => f.q.id),
  };
}

/** The timed mix: every judged question of every set, in file order, follow-ups with their conversation. */
function mix(sets: JudgedSet[]): { question: string; conversation?: AskTurn[] }[] {
  return sets.flatMap((s) => s.questions.map((q) => ({ question: q.question, conversation: q.conversation })));
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
    p99Ms: percentile(samples, 99),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    maxMs: Math.max(...samples),
    slowest,
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
  const sets = ASK_SETS.map((x) => ({ ...x, judged: loadJudged(x.file) }));
  const log = (s: string) => process.stderr.write(`bench ask: ${s}\n`);

  log('quality on the judged sets (ours, MiniSearch)…');
  const baseline = miniSearchAsker(site.index);
  const rows: AskQuality[] = [];
  // A learned set is scored on the project's pages indexed without its own questions (learnedIndex).
  const pages = askSourcesOf(loadContent(projectDir));
  for (const { set, judged } of sets) {
    const learned = LEARNED_SETS.some((x) => x.set === set);
    const on = learned ? { ...site, index: learnedIndex(pages, set) } : site;
    const row = quality('ours', set, judged, scoreAsk(on.index, judged, ours(on), pricing), true);
    if (learned) row.leftOut = true;
    rows.push(row);
    rows.push(quality('minisearch', set, judged, scoreAsk(site.index, judged, baseline, pricing), false));
  }

  const questions = mix(sets.map((x) => x.judged));
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
  const version = JSON.parse(await readFile(join(ROOT, 'node_modules/minisearch/package.json'), 'utf8')) as {
    version: string;
  };
  return {
    builtAt: site.builtAt,
    minisearchVersion: version.version,
    quality: rows,
    unmatched: sets.flatMap((x) => unmatched(site.index, x.judged)),
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
