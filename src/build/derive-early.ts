/**
 * @module The derive step's pages, begun while Astro renders them. Astro renders the pages one at a time in one
 * thread and writes each as it is done, so from the build's start a worker thread (derive-early-worker.ts) watches
 * the output folder on the core the render leaves idle and derives each new HTML page into the page cache
 * (derive-pages.ts `derivedOf`). The step that runs after the build then reads those pages back from the cache.
 *
 * It changes no output: the cache is keyed by the hash of each page's HTML, so a page read before Astro finished
 * writing it, or changed after, is not found by the step, which derives it itself (and prunes the unused entry).
 * A page the worker fails on is left to the step, which reports the error as it would without the worker.
 */
import { Worker } from 'node:worker_threads';
import { cacheSalt, type PageCache } from './derive-pages.ts';

/** What the worker is given: the folder, the cache, and the flag it stops on (0 run, 1 stop). */
export interface EarlyWorkerData {
  distDir: string;
  cache: PageCache;
  /** Only files written from then on (ms since the epoch): an earlier build's pages are not this build's. */
  since: number;
  stop: Int32Array;
}

/** A running early derive: `stop` ends it and resolves to how many pages it derived into the cache. */
export interface EarlyDerive {
  stop(): Promise<number>;
}

/** How much older than the start a page's modification time may read and still be this build's. */
const MTIME_SLACK_MS = 1000;

/** Starts deriving the HTML pages written to `distDir` from now on into the page cache in `cacheDir`. */
export function startEarlyDerive(distDir: string, cacheDir: string): EarlyDerive {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  // A file's time comes from the kernel's coarse clock, a few ms behind Date.now(): a page written just after this
  // call could look older than it. A second's slack keeps it this build's (a page of an earlier build is older still).
  const since = Date.now() - MTIME_SLACK_MS;
  const data: EarlyWorkerData = { distDir, cache: { dir: cacheDir, salt: cacheSalt() }, since, stop };
  const worker = new Worker(new URL('./derive-early-worker.ts', import.meta.url), { workerData: data });
  // A build that fails before its end must not wait for the worker.
  worker.unref();
  let derived = 0;
  const ended = new Promise<number>((resolve) => {
    worker.on('message', (count: number) => {
      derived = count;
    });
    // Only a speed-up: a worker that fails leaves every page to the step.
    worker.on('error', () => {});
    worker.on('exit', () => resolve(derived));
  });
  return {
    stop() {
      worker.ref();
      Atomics.store(stop, 0, 1);
      Atomics.notify(stop, 0);
      return ended;
    },
  };
}
