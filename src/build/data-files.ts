/**
 * @module Writes the split data files the functions read (layout: src/adapters/content-files.ts): meta,
 * entries, the page and text packs with their offset tables, and the static file list as templates plus
 * the rest. Every byte is a function of the content (the build time apart), whatever order it is called in.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { entryOf, type PageEntry } from '../core/content-source.ts';
import { toPage, type ContentData, type ContentPage } from '../core/content.ts';
import { deflatePack, encodeRecords, LEVEL, type DeflatedPack, type EncodedRecords } from './pack.ts';
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

/** Paths every page has, one per template (`{slug}` is the page's slug). */
const CANDIDATE_TEMPLATES = ['/{slug}.html', '/{slug}/index.html', '/{slug}.md', '/api/v1/pages/{slug}.json'];

/** A pack and its table. */
const packOf = ({ pack, dictionary, lengths }: DeflatedPack): Pack => ({
  pack,
  index: { format: PACK_FORMAT, dictionary, lengths },
});

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

/** Each pack's records, as strings: entries (JSON), pages (the contract's Page as JSON), texts. */
export type PackRecords = [string[], string[], string[]];

/** Each pack's records (the page records are also what content.json's pages start with: derive.ts). */
export function packRecords(pages: readonly ContentPage[]): PackRecords {
  return [
    entriesOf(pages).map((e) => JSON.stringify(e)),
    pages.map((p) => JSON.stringify(toPage(p))),
    pages.map((p) => p.text),
  ];
}

/** Deflates one pack in a worker thread (only node:zlib loaded there). */
function packInWorker(records: EncodedRecords): Promise<DeflatedPack> {
  return new Promise<DeflatedPack>((resolve, reject) => {
    const w = new Worker(new URL('./pack-worker.ts', import.meta.url), {
      workerData: records,
      transferList: [records.bytes.buffer as ArrayBuffer],
    });
    w.once('message', (deflated: DeflatedPack) => {
      resolve(deflated);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`pack worker exited with code ${code}`)));
  });
}

/**
 * Builds the packs (compression: about 3 s of 10,000 pages, a third of it zlib taking in the dictionary once per
 * record), each in its own worker thread when `inWorker`, so they share the cores with each other and with the
 * caller, which goes on meanwhile (the search index, the site files). The same bytes either way.
 */
export async function buildPacks(records: PackRecords, inWorker: boolean): Promise<Packs> {
  const deflated = records.map((list) => {
    const encoded = encodeRecords(list);
    return inWorker ? packInWorker(encoded) : Promise.resolve(deflatePack(encoded));
  });
  return (await Promise.all(deflated)).map(packOf) as Packs;
}

/** Writes the split data files for `data` into `dataDir` (with the packs when already built). */
export async function writeDataFiles(dataDir: string, data: ContentData, built?: Promise<Packs>): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const slugs = data.pages.map((p) => p.slug);
  const meta: MetaFile = { format: PACK_FORMAT, origin: data.origin, builtAt: data.builtAt };
  const entries: EntriesFile = { entries: entriesOf(data.pages) };
  const [entryPack, pages, texts] = await (built ?? buildPacks(packRecords(data.pages), false));
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
