/**
 * The early derive's worker thread (src/build/derive-early.ts): until told to stop, derives each HTML page written
 * to the folder since it started into the page cache, a page once; after a small sweep it waits on the stop flag.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { EarlyWorkerData } from './derive-early.ts';
import { derivedOf, filesUnder } from './derive-pages.ts';

/**
 * How long to wait (ms) after a sweep that found fewer than BATCH new pages: a worker that has caught up with the
 * render does not list the whole folder again for each page Astro writes.
 */
const [IDLE, BATCH] = [200, 32];
/** A page read before Astro finished writing it has not reached the end of its document yet. */
const WHOLE = /<\/html>\s*$/i;

const { distDir, cache, since, stop } = workerData as EarlyWorkerData;
const done = new Set<string>();
let derived = 0;
const stopped = () => Atomics.load(stop, 0) === 1;

while (!stopped()) {
  let found = 0;
  let files: string[] = [];
  try {
    files = filesUnder(distDir).filter((f) => f.endsWith('.html') && !done.has(f));
  } catch {
    // The folder is not there yet (Astro makes it when it writes the first file).
  }
  for (const file of files) {
    if (stopped()) break;
    try {
      const path = join(distDir, file);
      if (statSync(path).mtimeMs < since) continue;
      const html = readFileSync(path, 'utf8');
      if (!WHOLE.test(html)) continue;
      derivedOf(html, cache);
      done.add(file);
      derived++;
      found++;
    } catch {
      // Left to the derive step, which derives the page itself (and reports what is wrong with it).
      done.add(file);
    }
  }
  if (found < BATCH) Atomics.wait(stop, 0, 0, IDLE);
}
parentPort!.postMessage(derived);
