/**
 * @module Writes the split data files the functions read (layout: src/adapters/content-files.ts): meta,
 * entries, the page and text packs with their offset tables, and the static file list as templates plus
 * the rest. Every byte is a function of the content (the build time apart), whatever order it is called in.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { entryOf, type PageEntry } from '../core/content-source.ts';
import { toPage, type ContentData, type ContentPage } from '../core/content.ts';
import {
  ENTRIES_FILE,
  ENTRIES_INDEX,
  ENTRIES_PACK,
  FILES_FILE,
  SLUGS_FILE,
  META_FILE,
  PACK_FORMAT,
  PAGES_INDEX,
  PAGES_PACK,
  TEXT_INDEX,
  TEXT_PACK,
  type EntriesFile,
  type FilesFile,
  type MetaFile,
  type PackIndex,
} from '../adapters/content-files.ts';

/** Deflate's window: a preset dictionary longer than this is never referenced. */
const DICTIONARY_BYTES = 32 * 1024;
/** Records sampled for the dictionary, and how much of each. */
const DICTIONARY_SAMPLES = 64;
/** zlib level 6 (the default); at 10,000 pages level 9 made the page pack 0.4 % smaller and took 13 % longer. */
const LEVEL = 6;

/** Paths every page has, one per template (`{slug}` is the page's slug). */
const CANDIDATE_TEMPLATES = ['/{slug}.html', '/{slug}/index.html', '/{slug}.md', '/api/v1/pages/{slug}.json'];

/**
 * A preset dictionary for the records: the start of evenly spaced records (page bodies share their wording,
 * headings and markup), later samples last (deflate reaches the end of the dictionary most cheaply).
 */
export function packDictionary(records: readonly Buffer[]): Buffer {
  if (!records.length) return Buffer.alloc(0);
  const n = Math.min(DICTIONARY_SAMPLES, records.length);
  const each = Math.floor(DICTIONARY_BYTES / n);
  const parts: Buffer[] = [];
  for (let k = 0; k < n; k++) parts.push(records[Math.floor((k * records.length) / n)]!.subarray(0, each));
  return Buffer.concat(parts).subarray(0, DICTIONARY_BYTES);
}

/** A pack of records (deflated against a shared dictionary) and its table. */
export function buildPack(records: readonly Buffer[]): { pack: Buffer; index: PackIndex } {
  const dictionary = packDictionary(records);
  const parts: Buffer[] = [dictionary];
  const lengths: number[] = [];
  for (const record of records) {
    const z = deflateRawSync(record, { level: LEVEL, ...(dictionary.length ? { dictionary } : {}) });
    parts.push(z);
    lengths.push(z.length);
  }
  return { pack: Buffer.concat(parts), index: { format: PACK_FORMAT, dictionary: dictionary.length, lengths } };
}

/** The static paths as templates that hold for every page plus the paths no template covers. */
export function filesWithTemplates(files: readonly string[], slugs: readonly string[]): FilesFile {
  const all = new Set(files);
  const templates = slugs.length
    ? CANDIDATE_TEMPLATES.filter((t) => slugs.every((s) => all.has(t.replace('{slug}', s))))
    : [];
  const covered = new Set(templates.flatMap((t) => slugs.map((s) => t.replace('{slug}', s))));
  return { templates, files: files.filter((f) => !covered.has(f)) };
}

export interface Pack {
  pack: Uint8Array;
  index: PackIndex;
}
/** The three packs: entries, pages, texts. */
export type Packs = [Pack, Pack, Pack];

/** The pages' entries, worked out once per list (the entries pack and entries.json.gz both need them). */
const entryLists = new WeakMap<readonly ContentPage[], PageEntry[]>();
function entriesOf(pages: readonly ContentPage[]): PageEntry[] {
  let entries = entryLists.get(pages);
  if (!entries) entryLists.set(pages, (entries = pages.map(entryOf)));
  return entries;
}

/** Each pack's records, as strings. */
function packRecords(pages: readonly ContentPage[]): string[][] {
  return [
    entriesOf(pages).map((e) => JSON.stringify(e)),
    pages.map((p) => JSON.stringify(toPage(p))),
    pages.map((p) => p.text),
  ];
}

/** Builds the packs of records given as strings (what a pack worker runs). */
export function buildPacksOf(lists: readonly string[][]): Pack[] {
  return lists.map((records) => buildPack(records.map((r) => Buffer.from(r))));
}

/**
 * Builds the packs (compression: about 3 s of 10,000 pages), in a worker thread when `inWorker`, so the caller
 * goes on meanwhile (the search index, the site files). The same bytes either way.
 */
export function buildPacks(pages: readonly ContentPage[], inWorker: boolean): Promise<Packs> {
  const lists = packRecords(pages);
  if (!inWorker) return Promise.resolve(buildPacksOf(lists) as Packs);
  return new Promise<Packs>((resolve, reject) => {
    const w = new Worker(new URL('./pack-worker.ts', import.meta.url), { workerData: { lists } });
    w.once('message', (packs: Packs) => {
      resolve(packs);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`pack worker exited with code ${code}`)));
  });
}

/** Writes the split data files for `data` into `dataDir` (with the packs when already built). */
export async function writeDataFiles(dataDir: string, data: ContentData, built?: Promise<Packs>): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const slugs = data.pages.map((p) => p.slug);
  const meta: MetaFile = { format: PACK_FORMAT, origin: data.origin, builtAt: data.builtAt };
  const entries: EntriesFile = { entries: entriesOf(data.pages) };
  const [entryPack, pages, texts] = await (built ?? buildPacks(data.pages, false));
  await Promise.all([
    writeFile(join(dataDir, META_FILE), JSON.stringify(meta)),
    writeFile(join(dataDir, SLUGS_FILE), JSON.stringify(slugs)),
    writeFile(join(dataDir, ENTRIES_FILE), gzipSync(JSON.stringify(entries), { level: LEVEL })),
    writeFile(join(dataDir, ENTRIES_PACK), entryPack.pack),
    writeFile(join(dataDir, ENTRIES_INDEX), JSON.stringify(entryPack.index)),
    writeFile(join(dataDir, PAGES_PACK), pages.pack),
    writeFile(join(dataDir, PAGES_INDEX), JSON.stringify(pages.index)),
    writeFile(join(dataDir, TEXT_PACK), texts.pack),
    writeFile(join(dataDir, TEXT_INDEX), JSON.stringify(texts.index)),
    writeFile(join(dataDir, FILES_FILE), JSON.stringify(filesWithTemplates(data.files, slugs))),
  ]);
}
