/**
 * @module The per-page half of the derive step: each published HTML file becomes its Page and plain text, and
 * the page's markdown twin and JSON file are written beside it. Pages are independent, so they are spread over
 * worker threads (one per core by default, node:worker_threads, src/build/derive-worker.ts) in small batches;
 * with one worker, the same function runs in this thread. Either way each page's files hold the same bytes: the
 * work per page is one function (derivePageFile) of the file alone.
 *
 * With a cache folder, a page whose HTML is unchanged since an earlier build is not parsed again: its Page and
 * text are read back from a file named by the hash of the HTML and of what else decides them (this code and
 * the lock file's package versions). Files the build did not use are removed at the end.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Page } from '../contract/schemas.ts';
import { markdownTwin } from '../core/markdown-doc.ts';
import { pageFromHtml, type PageFromHtml } from './page-from-html.ts';
import type { AskPageData } from '../core/ask-indexer/assemble.ts';
import type { HeadingAnchor } from '../core/ask-indexer/sections.ts';
import type { PageKind } from '../contract/content.ts';
import { pageJsonPathOfSlug, twinPathOfSlug } from '../contract/slugs.ts';

/** Public path of a page's markdown twin (`index` -> `/index.md`). */
export const twinPath = twinPathOfSlug;
/** Static file behind getPage's JSON answer. */
export const pageJsonPath = pageJsonPathOfSlug;

export interface DerivedPage {
  page: Page;
  text: string;
  /** What the page is (its `kartage:kind` meta tag, from its front matter). */
  kind: PageKind;
  /** The HTML file, relative to the dist folder. */
  file: string;
  /** The `<h2>`/`<h3>` headings with an id (the assistant's section anchors). */
  headings: HeadingAnchor[];
  /** The page's part of the assistant's index. */
  ask: AskPageData;
}

/**
 * Folders this thread has made (or found) in this run: one mkdir per folder, not one per file written. Emptied
 * when a run starts (a worker thread lives for one run).
 */
const made = new Set<string>();
function write(path: string, body: string) {
  const dir = dirname(path);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(path, body);
}

/**
 * Every file under `dir`, as paths relative to it joined with '/', leaving out the top-level folders named in
 * `skip`. One synchronous walk: many small folders are listed faster this way than with an async walk.
 */
export function filesUnder(dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!entry.isDirectory()) out.push(path);
      else if (rel || !skip.includes(entry.name)) walk(join(abs, entry.name), path);
    }
  };
  walk(dir, '');
  return out;
}

/** A folder of derived pages by content hash, and the salt that names this code's version. */
export interface PageCache {
  dir: string;
  salt: string;
}

/** What decides a page besides its HTML: the code that derives it and the versions of the packages it uses. */
export function cacheSalt(): string {
  const h = createHash('sha256');
  // Every source file a page's derivation could read (the build step, the contract, the core), not only the
  // ones it imports today (and their data, as the assistant's hints): a change anywhere there costs one cold
  // derive, a stale cache would cost wrong pages.
  const files: string[] = [];
  for (const dir of ['./', '../contract/', '../core/']) {
    const url = new URL(dir, import.meta.url);
    for (const f of readdirSync(url, { recursive: true, encoding: 'utf8' }))
      if (f.endsWith('.ts') || f.endsWith('.json')) files.push(fileURLToPath(new URL(f, url)));
  }
  for (const f of files.sort()) h.update(f.slice(f.lastIndexOf('/src/'))).update(readFileSync(f));
  h.update(readFileSync(new URL('../../package-lock.json', import.meta.url)));
  return h.digest('hex');
}

const cacheKey = (cache: PageCache, html: string) => createHash('sha256').update(cache.salt).update(html).digest('hex');
const cacheFile = (cache: PageCache, key: string) => join(cache.dir, key.slice(0, 2), `${key}.json`);

/** The Page and text of an HTML page (undefined: no content page), from the cache when it holds them. */
export function derivedOf(
  html: string,
  cache: PageCache | undefined,
): { derived: PageFromHtml | undefined; key?: string } {
  if (!cache) return { derived: pageFromHtml(html) };
  const key = cacheKey(cache, html);
  const path = cacheFile(cache, key);
  try {
    return {
      derived: (JSON.parse(readFileSync(path, 'utf8')) as { derived: PageFromHtml | null }).derived ?? undefined,
      key,
    };
  } catch {
    // Not cached yet (or a torn file from a build that was stopped): derive it and keep it.
  }
  const derived = pageFromHtml(html);
  write(path, JSON.stringify({ derived: derived ?? null }));
  return { derived, key };
}

/**
 * One HTML file (relative to `distDir`): its Page and text, with its twin and JSON written (`page` undefined when
 * it is no content page), and the cache key used.
 */
export function derivePageFile(distDir: string, file: string, cache?: PageCache): { page?: DerivedPage; key?: string } {
  const { derived, key } = derivedOf(readFileSync(join(distDir, file), 'utf8'), cache);
  if (!derived) return { key };
  write(join(distDir, twinPath(derived.page.slug)), markdownTwin(derived.page));
  write(join(distDir, pageJsonPath(derived.page.slug)), JSON.stringify(derived.page));
  return { page: { ...derived, file }, key };
}

/** Removes the cache files this build did not use (pages changed or gone). */
function pruneCache(cache: PageCache, used: Set<string>) {
  for (const sub of readdirSync(cache.dir, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of readdirSync(join(cache.dir, sub.name))) {
      if (!used.has(f.replace(/\.json$/, ''))) rmSync(join(cache.dir, sub.name, f), { force: true });
    }
  }
}

/**
 * Default worker count: one per core the process may use (the main thread mostly waits meanwhile).
 * KARTAGE_DERIVE_WORKERS reaches the step as its `workers` option (src/build/integration.ts).
 */
export function defaultWorkers(): number {
  return availableParallelism();
}

/** Files per message to a worker: small enough to balance the load, large enough that messages cost nothing. */
const BATCH = 32;

export interface WorkerRequest {
  id: number;
  files: string[];
}
export type WorkerReply =
  | { id: number; results: { page?: DerivedPage; key?: string }[] }
  | { id: number; error: string };
export interface WorkerData {
  distDir: string;
  cache?: PageCache;
}

/**
 * Derives every file, in `workers` threads (1: in this thread), through the page cache when `cacheDir` is given.
 * Results in the order of `files`, pages only.
 */
export async function derivePages(
  distDir: string,
  files: string[],
  workers = defaultWorkers(),
  cacheDir?: string,
): Promise<DerivedPage[]> {
  const cache = cacheDir ? { dir: cacheDir, salt: cacheSalt() } : undefined;
  made.clear();
  const out = await deriveAll(distDir, files, workers, cache);
  if (cache) pruneCache(cache, new Set(out.map((r) => r.key!)));
  return out.map((r) => r.page).filter((d): d is DerivedPage => d !== undefined);
}

async function deriveAll(
  distDir: string,
  files: string[],
  workers: number,
  cache: PageCache | undefined,
): Promise<{ page?: DerivedPage; key?: string }[]> {
  const count = Math.min(workers, Math.ceil(files.length / BATCH));
  if (count <= 1) return files.map((f) => derivePageFile(distDir, f, cache));
  const out: { page?: DerivedPage; key?: string }[] = new Array(files.length);
  let next = 0;
  const pool: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const feed = (w: Worker) => {
        if (next >= files.length) {
          if (--running === 0) resolve();
          return;
        }
        const id = next;
        next += BATCH;
        w.postMessage({ id, files: files.slice(id, id + BATCH) } satisfies WorkerRequest);
      };
      for (let i = 0; i < count; i++) {
        const w = new Worker(new URL('./derive-worker.ts', import.meta.url), {
          workerData: { distDir, cache } satisfies WorkerData,
        });
        pool.push(w);
        running++;
        w.on('message', (m: WorkerReply) => {
          if ('error' in m) return reject(new Error(m.error));
          for (const [k, r] of m.results.entries()) out[m.id + k] = r;
          feed(w);
        });
        w.on('error', reject);
        w.on('exit', (code) => code !== 0 && reject(new Error(`derive worker exited with code ${code}`)));
        feed(w);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return out;
}
