/**
 * @module The post-build step: reads every published HTML page once and writes what derives from it:
 * markdown twins (front matter + the JSON's `markdown`), per-page JSON, the content data the functions
 * load, llms.txt, llms-full.txt, sitemap.xml, sitemap.md, robots.txt, the OpenAPI document, the discovery
 * files (.well-known, sandbox info) and the Pagefind index.
 */
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, sep } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { buildOpenApi } from '../http/openapi.ts';
import { operations } from '../operations/index.ts';
import { PageSchema, type Page } from '../contract/schemas.ts';
import { defaultWorkers, derivePages, filesUnder } from './derive-pages.ts';
import { headAndMain } from './page-from-html.ts';
import { apiCatalog, ardJson, DISCOVERY_PATHS, mcpServerJson, sandboxInfo } from './discovery-files.ts';
import { writeAgentSkills } from './agent-skills.ts';
import pkg from '../../package.json' with { type: 'json' };
import { llmsFullTxt, llmsTxt, MACHINE_FILES, robotsTxt, sitemapMd, sitemapXml } from '../core/site-files.ts';
import { CONTENT_FILE, SEARCH_FILE, type ContentData, type ContentPage } from '../core/content.ts';
import { buildSearchIndex } from '../core/search/engine.ts';
import { MODEL_FEATURES } from '../core/ask/answer.ts';
import { ASK_FILE, ASK_PACK } from '../core/ask/index.ts';
import { assembleAskIndex } from '../core/ask-indexer/assemble.ts';
import { ASK_LEARNING, answeredQuestions, cachedIntentModel, knownGaps } from './ask-hints.ts';
import { writeAskEmbedding } from './ask-embedding.ts';
import { writeMcpServerCard } from './mcp-server-card.ts';
import { buildPacks, packRecords, writeDataFiles } from './data-files.ts';
import lexicon from '../../content/data/lexicon.json' with { type: 'json' };

export interface DeriveOptions {
  /** Astro's output folder (served as static files). */
  distDir: string;
  /** Folder for data the functions load (not served). */
  dataDir: string;
  /** Canonical origin, e.g. https://kartage.com.au. */
  origin: string;
  /** Skip the Pagefind index (tests of this step). */
  pagefind?: boolean;
  /** Worker threads for the pages (default: one per core; 1: all in this thread). Same bytes either way. */
  workers?: number;
  /** Folder of derived pages by content hash (unchanged pages are not parsed again); none by default. */
  cacheDir?: string;
  /** Log each phase's time to stderr (KARTAGE_DERIVE_TIMINGS=1 in the build); off by default. */
  timings?: boolean;
}

/**
 * How long the step took (ms): the pages alone (HTML -> Page, twins, JSON), the whole derive work (the time
 * spent only waiting for Pagefind left out), Pagefind's own run (alongside the rest), and the step's wall clock.
 */
export interface DeriveTimings {
  pagesMs: number;
  deriveMs: number;
  pagefindMs: number;
  totalMs: number;
}

/**
 * Per-phase timings of the step on stderr when `enabled` (KARTAGE_DERIVE_TIMINGS=1: to see where the time goes;
 * off by default): each call logs the wall-clock time since the previous one under its name, and the CPU time the
 * process spent meanwhile in all its threads (workers included; less sensitive to a busy machine). With `since`,
 * it also logs both since the end of that earlier phase.
 */
function phaseClock(enabled: boolean): (name: string, since?: string) => void {
  if (!enabled) return () => {};
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const ends = new Map<string, { wall: number; cpu: number }>();
  let last = { wall: performance.now(), cpu: cpuNow() };
  const log = (name: string, from: { wall: number; cpu: number }, to: { wall: number; cpu: number }) =>
    process.stderr.write(
      `derive: ${name} ${(to.wall - from.wall).toFixed(0)} ms (cpu ${(to.cpu - from.cpu).toFixed(0)} ms)\n`,
    );
  return (name, since) => {
    const now = { wall: performance.now(), cpu: cpuNow() };
    log(name, last, now);
    const start = since === undefined ? undefined : ends.get(since);
    if (start) log(`since ${since}`, start, now);
    ends.set(name, now);
    last = now;
  };
}

async function write(path: string, body: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
}

export { pageJsonPath, twinPath } from './derive-pages.ts';

/**
 * What Pagefind reads, in a folder in memory (/dev/shm): each HTML page's head and `<main>` (headAndMain;
 * Pagefind indexes only `<main>`, data-pagefind-body, and reads the head's language and title), written before
 * the page workers start, so Pagefind parses less for the same fragments. Undefined (Pagefind reads dist) where
 * there is no /dev/shm or it has less room than twice the HTML.
 */
function pagefindSlices(distDir: string, html: readonly string[]): string | undefined {
  let dir: string | undefined;
  try {
    let bytes = 0;
    for (const file of html) bytes += statSync(join(distDir, file)).size;
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < 2 * bytes) return undefined;
    dir = mkdtempSync(join('/dev/shm', 'kartage-pagefind-'));
    const made = new Set<string>();
    for (const file of html) {
      const path = join(dir, file);
      const parent = dirname(path);
      if (!made.has(parent)) mkdirSync(parent, { recursive: true });
      made.add(parent);
      writeFileSync(path, headAndMain(readFileSync(join(distDir, file), 'utf8')));
    }
    return dir;
  } catch {
    if (dir) rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * Pagefind's index of the HTML pages (or of their slices in `sliceDir`, a folder it removes), written to
 * `<distDir>/pagefind`; resolves to how long it took. It runs in its own process from the start, alongside the page
 * workers and the rest of the step: it reads only the HTML, which this step never writes.
 */
async function runPagefind(distDir: string, sliceDir?: string): Promise<number> {
  let pagefind: typeof import('pagefind') | undefined;
  try {
    const started = performance.now();
    pagefind = await import('pagefind');
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: sliceDir ?? distDir, glob: '**/*.html' });
    if (added.errors.length) throw new Error(`pagefind: ${added.errors.join('; ')}`);
    const wrote = await index.writeFiles({ outputPath: join(distDir, 'pagefind') });
    if (wrote.errors.length) throw new Error(`pagefind: ${wrote.errors.join('; ')}`);
    return performance.now() - started;
  } finally {
    // Its service process goes whether the index was written or not (a failed page stops the step early).
    await pagefind?.close();
    if (sliceDir) rmSync(sliceDir, { recursive: true, force: true });
  }
}

/**
 * A content page as JSON from its page record (`JSON.stringify(toPage(page))`, built for the pages pack): the
 * same bytes as `JSON.stringify(page)` when the page is the record's fields followed by `text` and `kind` (how
 * derive builds them), without writing its markdown out again.
 */
function contentPageJson(page: ContentPage, record: string): string {
  const keys = Object.keys(page);
  const last = keys.length - 1;
  if (keys[last - 1] !== 'text' || keys[last] !== 'kind' || record.length < 3) return JSON.stringify(page);
  if (typeof page.text !== 'string' || typeof page.kind !== 'string') return JSON.stringify(page);
  return `${record.slice(0, -1)},"text":${JSON.stringify(page.text)},"kind":${JSON.stringify(page.kind)}}`;
}

/**
 * content.json, written piece by piece: the same bytes as JSON.stringify(data), without one string of it all.
 * `records[i]` is page i's record in the pages pack.
 */
async function writeContentJson(path: string, data: ContentData, records: readonly string[]) {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const put = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await put(`{"origin":${JSON.stringify(data.origin)},"builtAt":${JSON.stringify(data.builtAt)},"pages":[`);
  for (let i = 0; i < data.pages.length; i++) await put((i ? ',' : '') + contentPageJson(data.pages[i]!, records[i]!));
  await put(`],"files":${JSON.stringify(data.files)}}`);
  out.end();
  await once(out, 'finish');
}

export async function deriveSite(opts: DeriveOptions): Promise<{ pages: Page[]; timings: DeriveTimings }> {
  const started = performance.now();
  const phase = phaseClock(opts.timings ?? false);
  const html = filesUnder(opts.distDir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => (sep === '/' ? file : file.split('/').join(sep)))
    .sort();
  // Pagefind reads only the HTML, which this step never writes: it runs in its own process, alongside.
  const sliceDir = opts.pagefind !== false ? pagefindSlices(opts.distDir, html) : undefined;
  const pagefind = opts.pagefind !== false ? runPagefind(opts.distDir, sliceDir) : Promise.resolve(0);
  try {
    return await derive(opts, html, started, phase, pagefind);
  } catch (e) {
    await pagefind.catch(() => {});
    throw e;
  }
}

/** A page the page workers derived, with its text, kind, headings and chat part. */
type Derived = Awaited<ReturnType<typeof derivePages>>[number];

/** Sorts the pages by slug and checks each: unique slug, not a reserved one, a valid Page. */
function checkPages(found: Derived[]): void {
  found.sort((a, b) => (a.page.slug < b.page.slug ? -1 : a.page.slug > b.page.slug ? 1 : 0));
  const seen = new Set<string>();
  for (const { page, file } of found) {
    if (seen.has(page.slug)) throw new Error(`duplicate slug ${page.slug} (${file})`);
    if (page.slug === 'batch') throw new Error('the slug "batch" is reserved for the batch operation');
    seen.add(page.slug);
    PageSchema.parse(page);
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The OpenAPI document, as JSON and as YAML. */
async function writeOpenApi(opts: DeriveOptions): Promise<void> {
  const openapi = buildOpenApi(opts.origin, operations);
  await write(join(opts.distDir, 'openapi.json'), JSON.stringify(openapi, null, 2));
  await write(join(opts.distDir, 'openapi.yaml'), toYaml(openapi, { aliasDuplicateObjects: false }));
}

/** The .well-known files, the sandbox info, the MCP server card and the agent skills. */
async function writeDiscoveryFiles(opts: DeriveOptions, kinded: Parameters<typeof writeMcpServerCard>[2]) {
  await write(join(opts.distDir, DISCOVERY_PATHS.mcp), json(mcpServerJson(opts.origin, pkg.version)));
  await write(join(opts.distDir, DISCOVERY_PATHS.ard), json(ardJson(opts.origin)));
  await write(join(opts.distDir, DISCOVERY_PATHS.apiCatalog), json(apiCatalog(opts.origin)));
  await write(join(opts.distDir, DISCOVERY_PATHS.sandbox), json(sandboxInfo(opts.origin)));
  await writeMcpServerCard(opts.distDir, opts.origin, kinded);
  await writeAgentSkills(opts.distDir, opts.origin);
}

/** llms.txt, llms-full.txt, the sitemaps and robots.txt. */
async function writeSiteFiles(opts: DeriveOptions, kinded: Parameters<typeof llmsTxt>[0], pages: Page[]) {
  await write(join(opts.distDir, 'llms.txt'), llmsTxt(kinded, opts.origin, MACHINE_FILES));
  await write(join(opts.distDir, 'llms-full.txt'), llmsFullTxt(pages));
  await write(join(opts.distDir, 'sitemap.xml'), sitemapXml(pages));
  await write(join(opts.distDir, 'sitemap.md'), sitemapMd(kinded, opts.origin));
  await write(join(opts.distDir, 'robots.txt'), robotsTxt(opts.origin));
}

/** The chat's index and pack, then (timed apart by `phase`) its embedding. */
async function writeAskFiles(opts: DeriveOptions, found: Derived[], phase: ReturnType<typeof phaseClock>) {
  // Each page's part was worked out in the page workers (and cached with the page): here they are only merged.
  const askPages = found.map((f) => ({ ...f.page, headings: f.headings, kind: f.kind, ask: f.ask }));
  const ask = assembleAskIndex(askPages, { ...ASK_LEARNING, intentModel: cachedIntentModel() });
  await write(join(opts.dataDir, ASK_FILE), JSON.stringify(ask.data));
  await write(join(opts.dataDir, ASK_PACK), ask.pack);
  phase('ask index');
  const markdown = new Map(found.map((f) => [f.page.slug, f.page.markdown]));
  await writeAskEmbedding({
    dataDir: opts.dataDir,
    data: ask.data,
    markdownOf: (slug) => markdown.get(slug) ?? '',
    written: answeredQuestions(),
    sectionText: MODEL_FEATURES.has('semantic'),
    gaps: knownGaps(),
  });
}

/** The step after listing the HTML files (`html`, sorted; `started` when the listing began). */
async function derive(
  opts: DeriveOptions,
  html: string[],
  started: number,
  phase: ReturnType<typeof phaseClock>,
  pagefind: Promise<number>,
): Promise<{ pages: Page[]; timings: DeriveTimings }> {
  phase('list html and Pagefind slices');
  const found = await derivePages(opts.distDir, html, opts.workers, opts.cacheDir);
  phase('pages');
  const pagesMs = performance.now() - started;
  checkPages(found);
  phase('check pages');
  const pages = found.map((f) => f.page);
  const contentPages = found.map((f) => ({ ...f.page, text: f.text, kind: f.kind }));
  const kinded = found.map((f) => ({ ...f.page, kind: f.kind }));
  // The data packs compress in worker threads while this one writes the rest and builds the search index.
  const records = packRecords(contentPages);
  const packs = buildPacks(records, (opts.workers ?? defaultWorkers()) > 1);
  packs.catch(() => {});
  phase('pack records');
  await writeOpenApi(opts);
  phase('openapi');
  await writeDiscoveryFiles(opts, kinded);
  phase('discovery files');
  await writeSiteFiles(opts, kinded, pages);
  phase('site files');
  await write(join(opts.dataDir, SEARCH_FILE), JSON.stringify(buildSearchIndex(contentPages, lexicon.synonyms)));
  phase('search index');
  await writeAskFiles(opts, found, phase);
  phase('ask embedding');
  const waitFrom = performance.now();
  const pagefindMs = await pagefind;
  const waitMs = performance.now() - waitFrom;
  phase('wait for pagefind');
  const files = filesUnder(opts.distDir, ['_astro', 'pagefind']).map((file) => `/${file}`);
  phase('list files');
  const data: ContentData = {
    origin: opts.origin,
    builtAt: new Date().toISOString(),
    pages: contentPages,
    files: files.sort(),
  };
  await writeContentJson(join(opts.dataDir, CONTENT_FILE), data, records[1]);
  phase('content.json');
  await writeDataFiles(opts.dataDir, data, packs);
  phase('data files', 'pages');
  const totalMs = performance.now() - started;
  return { pages, timings: { pagesMs, deriveMs: totalMs - waitMs, pagefindMs, totalMs } };
}
