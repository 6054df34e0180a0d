/**
 * @module The per-page half of the derive step: each published HTML file becomes its Page and plain text, and
 * the page's markdown twin and JSON file are written beside it. Pages are independent, so they are spread over
 * worker threads (one per core by default, node:worker_threads, src/build/derive-worker.ts) in small batches;
 * with one worker, or where workers cannot start, the same function runs in this thread. Either way each
 * page's files hold the same bytes: the work per page is one function (derivePageFile) of the file alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Page } from '../contract/schemas.ts';
import { markdownTwin } from '../core/markdown-doc.ts';
import { pageFromHtml } from './page-from-html.ts';

/** Public path of a page's markdown twin (`index` -> `/index.md`). */
export const twinPath = (slug: string) => `/${slug}.md`;
/** Static file behind getPage's JSON answer. */
export const pageJsonPath = (slug: string) => `/api/v1/pages/${slug}.json`;

export interface DerivedPage {
  page: Page;
  text: string;
  /** The HTML file, relative to the dist folder. */
  file: string;
}

function write(path: string, body: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

/** One HTML file (relative to `distDir`): its Page and text, with its twin and JSON written; undefined when it is no content page. */
export function derivePageFile(distDir: string, file: string): DerivedPage | undefined {
  const derived = pageFromHtml(readFileSync(join(distDir, file), 'utf8'));
  if (!derived) return undefined;
  write(join(distDir, twinPath(derived.page.slug)), markdownTwin(derived.page));
  write(join(distDir, pageJsonPath(derived.page.slug)), JSON.stringify(derived.page));
  return { ...derived, file };
}

/** Default worker count: one per core the process may use (the main thread mostly waits meanwhile). */
export function defaultWorkers(): number {
  const env = Number(process.env.KARTAGE_DERIVE_WORKERS);
  return Number.isInteger(env) && env >= 1 ? env : availableParallelism();
}

/** Files per message to a worker: small enough to balance the load, large enough that messages cost nothing. */
const BATCH = 32;

export interface WorkerRequest {
  id: number;
  files: string[];
}
export type WorkerReply = { id: number; results: (DerivedPage | null)[] } | { id: number; error: string };

/** Derives every file, in `workers` threads (1: in this thread). Results in the order of `files`, pages only. */
export async function derivePages(distDir: string, files: string[], workers = defaultWorkers()): Promise<DerivedPage[]> {
  const count = Math.min(workers, Math.ceil(files.length / BATCH));
  if (count <= 1) return files.map((f) => derivePageFile(distDir, f)).filter((d): d is DerivedPage => d !== undefined);
  const out: (DerivedPage | null)[] = new Array(files.length).fill(null);
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
        const w = new Worker(new URL('./derive-worker.ts', import.meta.url), { workerData: { distDir } });
        pool.push(w);
        running++;
        w.on('message', (m: WorkerReply) => {
          if ('error' in m) return reject(new Error(m.error));
          m.results.forEach((r, k) => (out[m.id + k] = r));
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
  return out.filter((d): d is DerivedPage => d !== null);
}
