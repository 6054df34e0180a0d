/**
 * @module The search benchmark over a built corpus (`content.json` + `search-index.json` in a data folder):
 * our engine (src/core/search/engine.ts: BM25F index + ranking + snippets, i.e. what the API answers) next to
 * MiniSearch 7, FlexSearch 0.8 (Document index) and Orama 3, on the same pages and the same fixed queries.
 * Per library: index build time, serialized size, load time, heap, query latency p50/p99 and overlap@10 with our
 * results. Our index load is also timed in fresh processes (what a cold function instance pays).
 *
 * Relevance: each library is also built over the project's own pages (build/content.json) and scored on the
 * judged query sets in tests/data (nDCG@10, MRR, P@1, share of queries with no result), beside the site's
 * /search page as a visitor sees it: it asks the API (same ranking as ours) and falls back to Pagefind, whose own
 * browser search is run over dist/pagefind (tests/helpers/pagefind-node.ts) for the fallback's figures.
 *
 *   node --expose-gc bench/search.ts <dataDir>   # prints one JSON line (SearchReport)
 *
 * How the libraries are configured, and why the overlap is not 100 %: every library gets the title,
 * description and body text; prefix matching on; title and description boosted where the library can
 * (MiniSearch and Orama: title x6, description x2; FlexSearch ranks by field order instead). Ours needs every
 * content word (after stemming) somewhere in the page; MiniSearch (AND) likewise but by prefix; Orama
 * (threshold 0) and FlexSearch need every term in one field; FlexSearch ranks by term position, not TF-IDF or BM25.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Document } from 'flexsearch';
import { create, insertMultiple, load as oramaLoad, save as oramaSave, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { buildSearchIndex, loadSearchIndex, searchSite, type SearchIndex } from '../src/core/search/engine.ts';
import { words } from '../src/core/search/analyze.ts';
import lexicon from '../content/data/lexicon.json' with { type: 'json' };
import { evaluate, loadJudged, type Figures } from '../tests/helpers/search-metrics.ts';
import { pagefindRunner } from '../tests/helpers/pagefind-node.ts';
import { CONTENT_FILE, SEARCH_FILE, type ContentData, type ContentPage } from '../src/core/content.ts';
import { contentFromData } from '../src/core/content-source.ts';
import { QUERIES } from './corpus.ts';
import { lastJson, median, percentile, ROOT, runTimed } from './lib.ts';
import { existsSync } from 'node:fs';

export interface LibraryRow {
  name: string;
  version: string;
  /** NaN (null in JSON) for a row that reuses another row's index. */
  buildMs: number | null;
  serializedBytes?: number;
  gzipBytes?: number;
  loadMs?: number;
  heapBytes?: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Share of our top 10 that this library's top 10 also holds (queries where ours found something). */
  overlapAt10: number;
  /** Queries (of QUERIES) with at least one result. */
  queriesWithResults: number;
}

/** One engine's relevance on one judged set (over the project's own pages). */
export interface RelevanceRow {
  engine: string;
  set: 'judged' | 'held-out';
  queries: number;
  ndcg10: number;
  mrr: number;
  p1: number;
  zeroShare: number;
}

export interface SearchReport {
  pages: number;
  queries: number;
  rounds: number;
  ours: {
    buildMs: number;
    serializeMs: number;
    fileBytes: number;
    gzipBytes: number;
    /** Parse + load of search-index.json in this process (warm), median of 5. */
    loadMs: number;
    /** Fresh `node` processes: read + load of the file, median of 3 (what a cold instance pays). */
    coldLoadMs: number;
    coldReadMs: number;
  };
  libraries: LibraryRow[];
  perQuery: { q: string; ours: number; flexsearch: number; orama: number; overlapFlex: number; overlapOrama: number }[];
  /** Judged-set relevance over the project's pages; undefined when the project is not built. */
  relevance?: {
    pages: number;
    rows: RelevanceRow[];
    /** Share of judged queries (both sets) where the API and Pagefind (the page's fallback) agree on the top result. */
    pagefindAgreement: number;
  };
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

type Runner = (q: string) => string[] | Promise<string[]>;

async function timeQueries(run: Runner, rounds: number): Promise<{ samples: number[]; top: Map<string, string[]> }> {
  const top = new Map<string, string[]>();
  for (const q of QUERIES) top.set(q, (await run(q)).slice(0, 10)); // warm-up round, also the results
  // Settle the heap first: otherwise whichever library is timed first pays for collecting what came before
  // (parsing the 100 MB content file, the other libraries' indexes).
  gc();
  gc();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t = performance.now();
      const out = run(q);
      if (out instanceof Promise) await out;
      samples.push(performance.now() - t);
    }
  }
  return { samples, top };
}

function overlap(
  ours: Map<string, string[]>,
  theirs: Map<string, string[]>,
): { mean: number; per: Map<string, number> } {
  const per = new Map<string, number>();
  for (const [q, mine] of ours) {
    if (!mine.length) continue;
    const other = new Set(theirs.get(q) ?? []);
    per.set(q, mine.filter((s) => other.has(s)).length / mine.length);
  }
  const values = [...per.values()];
  return { mean: values.reduce((a, b) => a + b, 0) / Math.max(1, values.length), per };
}

/** Loads our index in a fresh process; prints read and load times. */
async function coldLoad(dataDir: string): Promise<{ readMs: number; loadMs: number }> {
  const script = `
    const t0 = performance.now();
    const { readFileSync } = await import('node:fs');
    const { loadSearchIndex } = await import(${JSON.stringify(join(ROOT, 'src/core/search/engine.ts'))});
    const t1 = performance.now();
    const json = readFileSync(${JSON.stringify(join(dataDir, SEARCH_FILE))}, 'utf8');
    const t2 = performance.now();
    const index = loadSearchIndex(json);
    const t3 = performance.now();
    console.log(JSON.stringify({ importMs: t1 - t0, readMs: t2 - t1, loadMs: t3 - t2, docs: index.documentCount }));`;
  const runs: { readMs: number; loadMs: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await runTimed(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    if (r.code !== 0) throw new Error(`cold load failed: ${r.stderr}`);
    runs.push(lastJson(r.stdout));
  }
  return { readMs: median(runs.map((r) => r.readMs)), loadMs: median(runs.map((r) => r.loadMs)) };
}

type Lib = (pages: ContentPage[]) => Runner;

/** MiniSearch 7 as this project used it before its own engine: prefix, AND, title x6, description x2. */
const miniSearch: Lib = (pages) => {
  const ms = new MiniSearch<ContentPage>({
    idField: 'slug',
    fields: ['title', 'description', 'text'],
    storeFields: [],
    searchOptions: { prefix: true, combineWith: 'AND', boost: { title: 6, description: 2 } },
  });
  ms.addAll(pages);
  return (q) =>
    ms
      .search(words(q).join(' '))
      .slice(0, 10)
      .map((r) => String(r.id));
};

const FLEX_OPTS = {
  tokenize: 'forward' as const,
  document: { id: 'slug', index: ['title', 'description', 'text'], store: false },
};
interface Flex {
  add(doc: object): void;
  search(q: string, o: object): { id: string }[];
  export(cb: (key: string, data: string) => void): Promise<void> | void;
  import(key: string, data: string): void;
}
function flexIndex(pages: ContentPage[]): Flex {
  const flex = new Document(FLEX_OPTS as never) as unknown as Flex;
  for (const p of pages) flex.add({ slug: p.slug, title: p.title, description: p.description ?? '', text: p.text });
  return flex;
}
const flexRunner =
  (flex: Flex): Runner =>
  (q) => {
    const merged = flex.search(q, { limit: 10, merge: true, suggest: false }) as unknown as { id: string }[];
    return merged.map((r) => String(r.id));
  };

const ORAMA_SCHEMA = { title: 'string', description: 'string', text: 'string' } as const;
async function oramaIndex(pages: ContentPage[]) {
  const db = create({ schema: ORAMA_SCHEMA });
  await insertMultiple(
    db,
    pages.map((p) => ({ id: p.slug, title: p.title, description: p.description ?? '', text: p.text })),
    1000,
  );
  return db;
}
const oramaRunner =
  (db: Awaited<ReturnType<typeof oramaIndex>>): Runner =>
  (q) => {
    const params = {
      term: q,
      properties: ['title', 'description', 'text'],
      boost: { title: 6, description: 2 },
      limit: 10,
      threshold: 0,
    };
    const out = oramaSearch(db, params as never) as unknown as
      | { hits: { id: string }[] }
      | Promise<{ hits: { id: string }[] }>;
    return out instanceof Promise ? out.then((r) => r.hits.map((h) => h.id)) : out.hits.map((h) => h.id);
  };

/** Judged-set relevance of every engine over the project's own build (build/content.json, dist/pagefind). */
export async function runRelevance(
  dataDir = join(ROOT, 'build'),
  distDir = join(ROOT, 'dist'),
): Promise<SearchReport['relevance']> {
  if (!existsSync(join(dataDir, CONTENT_FILE))) return undefined;
  const data = JSON.parse(await readFile(join(dataDir, CONTENT_FILE), 'utf8')) as ContentData;
  const index: SearchIndex = loadSearchIndex(JSON.stringify(buildSearchIndex(data.pages, lexicon.synonyms)));
  const source = contentFromData(data, () => index);
  const ours: Runner = (q) => searchSite({ content: source, index }, q, 10).results.map((r) => r.slug);
  const engines: [string, Runner][] = [
    ['ours: the API (GET /api/v1/search, MCP search tool)', ours],
    ['site /search page as a visitor sees it (asks the API)', ours],
  ];
  let pagefind: Runner | undefined;
  if (existsSync(join(distDir, 'pagefind', 'pagefind.js'))) {
    pagefind = await pagefindRunner(distDir);
    engines.push(["Pagefind (the page's fallback when the API is unreachable)", pagefind]);
  }
  engines.push(['MiniSearch (prefix, AND, title x6, description x2)', miniSearch(data.pages)]);
  engines.push(['FlexSearch (Document, tokenize forward)', flexRunner(flexIndex(data.pages))]);
  engines.push(['Orama (threshold 0, boost as MiniSearch)', oramaRunner(await oramaIndex(data.pages))]);
  const rows: RelevanceRow[] = [];
  for (const set of ['judged', 'held-out'] as const) {
    const queries = loadJudged(set === 'judged' ? 'judged-queries' : 'held-out-queries');
    for (const [engine, run] of engines) {
      const f: Figures = await evaluate(queries, run);
      rows.push({ engine, set, queries: f.queries, ndcg10: f.ndcg10, mrr: f.mrr, p1: f.p1, zeroShare: f.zeroShare });
    }
  }
  let agree = 0;
  let total = 0;
  if (pagefind) {
    for (const set of ['judged-queries', 'held-out-queries'] as const) {
      for (const { q } of loadJudged(set)) {
        total++;
        if ((await ours(q))[0] === (await pagefind(q))[0]) agree++;
      }
    }
  }
  return { pages: data.pages.length, rows, pagefindAgreement: total ? agree / total : NaN };
}

export async function runSearchBench(
  dataDir: string,
  rounds = Number(process.env.BENCH_SEARCH_ROUNDS) || 20,
): Promise<SearchReport> {
  const data = JSON.parse(await readFile(join(dataDir, CONTENT_FILE), 'utf8')) as ContentData;
  const pages: ContentPage[] = data.pages;
  const libraries: LibraryRow[] = [];

  // Ours: build and serialize (what the build step does; dropped after the block), then load the file the
  // build wrote.
  let t = performance.now();
  let buildMs: number;
  let serializeMs: number;
  {
    const built = buildSearchIndex(pages, lexicon.synonyms);
    buildMs = performance.now() - t;
    t = performance.now();
    JSON.stringify(built);
    serializeMs = performance.now() - t;
  }
  const fileJson = await readFile(join(dataDir, SEARCH_FILE), 'utf8');
  let h0 = heap();
  const loads: number[] = [];
  let index = loadSearchIndex(fileJson);
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    index = loadSearchIndex(fileJson);
    loads.push(performance.now() - t);
  }
  const oursHeap = heap() - h0; // the loaded index alone (the file's text was already held)
  const cold = await coldLoad(dataDir);
  const fileBytes = Buffer.byteLength(fileJson);
  const gzipBytes = gzipSync(fileJson).length;

  const source = contentFromData(data, () => index);
  source.entries(); // worked out once per instance, before the timing
  const oursRun: Runner = (q) => searchSite({ content: source, index }, q, 10).results.map((r) => r.slug);
  const ours = await timeQueries(oursRun, rounds);
  libraries.push({
    name: 'ours: searchSite (BM25F index + ranking + snippets)',
    version: 'this project',
    buildMs,
    serializedBytes: fileBytes,
    gzipBytes,
    loadMs: median(loads),
    heapBytes: oursHeap,
    p50Ms: percentile(ours.samples, 50),
    p99Ms: percentile(ours.samples, 99),
    meanMs: ours.samples.reduce((a, b) => a + b, 0) / ours.samples.length,
    overlapAt10: 1,
    queriesWithResults: [...ours.top.values()].filter((v) => v.length).length,
  });

  // MiniSearch (what this project used before): its own index over the same pages.
  h0 = heap();
  t = performance.now();
  const msRun = miniSearch(pages);
  const msBuild = performance.now() - t;
  const msHeap = heap() - h0;
  const ms = await timeQueries(msRun, rounds);
  libraries.push({
    name: 'MiniSearch (prefix, AND, title x6, description x2)',
    version: version('minisearch'),
    buildMs: msBuild,
    heapBytes: msHeap,
    p50Ms: percentile(ms.samples, 50),
    p99Ms: percentile(ms.samples, 99),
    meanMs: ms.samples.reduce((a, b) => a + b, 0) / ms.samples.length,
    overlapAt10: overlap(ours.top, ms.top).mean,
    queriesWithResults: [...ms.top.values()].filter((v) => v.length).length,
  });

  // FlexSearch Document index.
  h0 = heap();
  t = performance.now();
  const flex = flexIndex(pages);
  const flexBuild = performance.now() - t;
  const flexHeap = heap() - h0;
  let flexBytes: number | undefined;
  let flexGzip: number | undefined;
  let flexLoad: number | undefined;
  try {
    const chunks: [string, string][] = [];
    await flex.export((key, data) => {
      if (data !== undefined) chunks.push([key, data]);
    });
    const all = chunks.map(([k, d]) => k + d).join('');
    flexBytes = Buffer.byteLength(all);
    flexGzip = gzipSync(all).length;
    t = performance.now();
    const copy = new Document(FLEX_OPTS as never) as unknown as Flex;
    for (const [k, d] of chunks) copy.import(k, d);
    flexLoad = performance.now() - t;
  } catch {
    // export/import not available in this build: sizes stay n/a
  }
  const flexRun = flexRunner(flex);
  const fx = await timeQueries(flexRun, rounds);
  const fxOverlap = overlap(ours.top, fx.top);
  libraries.push({
    name: 'FlexSearch (Document, tokenize forward)',
    version: version('flexsearch'),
    buildMs: flexBuild,
    serializedBytes: flexBytes,
    gzipBytes: flexGzip,
    loadMs: flexLoad,
    heapBytes: flexHeap,
    p50Ms: percentile(fx.samples, 50),
    p99Ms: percentile(fx.samples, 99),
    meanMs: fx.samples.reduce((a, b) => a + b, 0) / fx.samples.length,
    overlapAt10: fxOverlap.mean,
    queriesWithResults: [...fx.top.values()].filter((v) => v.length).length,
  });

  // Orama.
  h0 = heap();
  t = performance.now();
  const db = await oramaIndex(pages);
  const oramaBuild = performance.now() - t;
  const oramaHeap = heap() - h0;
  let oramaBytes: number | undefined;
  let oramaGzip: number | undefined;
  let oramaLoadMs: number | undefined;
  try {
    const saved = JSON.stringify(oramaSave(db));
    oramaBytes = Buffer.byteLength(saved);
    oramaGzip = gzipSync(saved).length;
    t = performance.now();
    const copy = create({ schema: ORAMA_SCHEMA });
    oramaLoad(copy, JSON.parse(saved));
    oramaLoadMs = performance.now() - t;
  } catch {
    // save/load failed: sizes stay n/a
  }
  const oramaRun = oramaRunner(db);
  const or = await timeQueries(oramaRun, rounds);
  const orOverlap = overlap(ours.top, or.top);
  libraries.push({
    name: 'Orama (threshold 0, boost as ours)',
    version: version('@orama/orama'),
    buildMs: oramaBuild,
    serializedBytes: oramaBytes,
    gzipBytes: oramaGzip,
    loadMs: oramaLoadMs,
    heapBytes: oramaHeap,
    p50Ms: percentile(or.samples, 50),
    p99Ms: percentile(or.samples, 99),
    meanMs: or.samples.reduce((a, b) => a + b, 0) / or.samples.length,
    overlapAt10: orOverlap.mean,
    queriesWithResults: [...or.top.values()].filter((v) => v.length).length,
  });

  return {
    pages: pages.length,
    queries: QUERIES.length,
    rounds,
    ours: {
      buildMs,
      serializeMs,
      fileBytes,
      gzipBytes,
      loadMs: median(loads),
      coldLoadMs: cold.loadMs,
      coldReadMs: cold.readMs,
    },
    libraries,
    perQuery: QUERIES.map((q) => ({
      q,
      ours: ours.top.get(q)?.length ?? 0,
      flexsearch: fx.top.get(q)?.length ?? 0,
      orama: or.top.get(q)?.length ?? 0,
      overlapFlex: fxOverlap.per.get(q) ?? NaN,
      overlapOrama: orOverlap.per.get(q) ?? NaN,
    })),
    relevance: await runRelevance(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dataDir] = process.argv.slice(2);
  if (!dataDir) {
    console.error('usage: node --expose-gc bench/search.ts <dataDir>');
    process.exit(2);
  }
  console.log(JSON.stringify(await runSearchBench(dataDir)));
}
