/**
 * @module The content as split data files: a function reads only the files of what it does.
 * The build (src/build/data-files.ts) writes them into the data folder beside content.json:
 *
 * - `meta.json`: origin and build time (every need reads it; a few bytes);
 * - `slugs.json`: every page's slug, sorted (ascending byte order): record `i` of each pack is slug `i`'s;
 * - `entries.json.gz`: every page's entry (PageEntry: no body, no text), in slug order, gzipped: what
 *   listPages reads;
 * - `entries.pack` + `entries.idx.json`: the same entries one record each, for reading a few by slug (search
 *   results, the edge step's headers) without the whole list;
 * - `pages.pack` + `pages.idx.json`: each page (the contract's Page) as one record;
 * - `text.pack` + `text.idx.json`: each page's plain text (what search cuts snippets from);
 * - `search-index.json`: the search index;
 * - `files.json`: the static file paths, as path templates every page has (`/{slug}.md`) plus the rest.
 *
 * A pack is a deflate dictionary (sampled from its records) followed by each record deflated against it; its
 * `.idx.json` holds the records' lengths. A record read is one positioned read of its own bytes.
 *
 * `createContentFiles(dataDir)` reads them lazily: each method opens only its files, on first use; records are
 * read one at a time (a bounded cache keeps the latest). `DATA_FILES` says which files each need reads, so a
 * function's bundle can carry only those.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import type { Page } from '../contract/schemas.ts';
import type { ContentSource, PageEntry } from '../core/content-source.ts';
import { loadSearchIndex, type SearchIndex } from '../core/search/engine.ts';
import { SEARCH_FILE } from '../core/content.ts';
import { decodeEmbedding, EMBEDDING_FILE } from '../core/ask-indexer/embedding-file.ts';
import { ASK_FILE, ASK_PACK, type AskIndex, loadAskIndex, type PackReader } from '../core/ask/index.ts';

export const META_FILE = 'meta.json';
export const SLUGS_FILE = 'slugs.json';
export const ENTRIES_FILE = 'entries.json.gz';
export const ENTRIES_PACK = 'entries.pack';
export const ENTRIES_INDEX = 'entries.idx.json';
export const FILES_FILE = 'files.json';
export const PAGES_PACK = 'pages.pack';
export const PAGES_INDEX = 'pages.idx.json';
export const TEXT_PACK = 'text.pack';
export const TEXT_INDEX = 'text.idx.json';
export const PACK_FORMAT = 'kartage-pack-1';

/** What an operation reads of the content (src/core/content-source.ts). */
export type { ContentNeed } from '../core/content-source.ts';
import type { ContentNeed } from '../core/content-source.ts';

/**
 * The data files (relative to the data folder) each need reads. `entries` covers one entry by slug too;
 * `search` includes the entries (a result's title and urls come from its page's entry, and a query of stop
 * words only reads every title).
 */
export const DATA_FILES: Record<ContentNeed, readonly string[]> = {
  entries: [META_FILE, SLUGS_FILE, ENTRIES_FILE, ENTRIES_INDEX, ENTRIES_PACK],
  entry: [META_FILE, SLUGS_FILE, ENTRIES_INDEX, ENTRIES_PACK],
  pages: [META_FILE, SLUGS_FILE, PAGES_INDEX, PAGES_PACK],
  search: [META_FILE, SLUGS_FILE, ENTRIES_FILE, ENTRIES_INDEX, ENTRIES_PACK, SEARCH_FILE, TEXT_INDEX, TEXT_PACK],
  ask: [META_FILE, SLUGS_FILE, PAGES_INDEX, PAGES_PACK, ASK_FILE, ASK_PACK, EMBEDDING_FILE],
  files: [META_FILE, SLUGS_FILE, FILES_FILE],
};

/** The data files a set of needs reads (union, in a stable order). */
export function dataFilesFor(needs: Iterable<ContentNeed>): string[] {
  const out = new Set<string>();
  for (const need of needs) for (const f of DATA_FILES[need]) out.add(f);
  return [...out].sort();
}

export interface MetaFile {
  format: typeof PACK_FORMAT;
  origin: string;
  builtAt: string;
}

export interface EntriesFile {
  entries: PageEntry[];
}

/** A pack's table: the dictionary's length, then record `i` (slug `i` of slugs.json) is `lengths[i]` bytes. */
export interface PackIndex {
  format: typeof PACK_FORMAT;
  /** Length of the deflate dictionary at the start of the pack (0: none). */
  dictionary: number;
  lengths: number[];
}

/** Where each record of a pack starts: offsets[i] to offsets[i + 1] is record i. */
export function packOffsets(index: PackIndex): number[] {
  const offsets = [index.dictionary];
  for (const n of index.lengths) offsets.push(offsets[offsets.length - 1]! + n);
  return offsets;
}

export interface FilesFile {
  /** Path templates (`{slug}` stands for a page's slug) that hold for every page. */
  templates: string[];
  /** Every other static path. */
  files: string[];
}

/** `{slug}` in a template: what comes before and after it. */
function splitTemplate(t: string): [string, string] {
  const at = t.indexOf('{slug}');
  return [t.slice(0, at), t.slice(at + '{slug}'.length)];
}

/** The slug a path would be under a template, or undefined. */
export function slugInTemplate(path: string, template: string): string | undefined {
  const [head, tail] = splitTemplate(template);
  if (path.length <= head.length + tail.length || !path.startsWith(head) || !path.endsWith(tail)) return undefined;
  return path.slice(head.length, path.length - tail.length);
}

/** `length` bytes of an open file from `start` (positioned reads until all have come); `short` names a cut file. */
function readAt(fd: number, start: number, length: number, short: () => string): Buffer {
  const buf = Buffer.allocUnsafe(length);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, buf, done, length - done, start + done);
    if (n === 0) throw new Error(short());
    done += n;
  }
  return buf;
}

/** An ASCII file read a range at a time (positioned reads; opened on the first read). */
export function rangeReader(path: string): { read: PackReader; close(): void } {
  let fd: number | undefined;
  return {
    read(start, length) {
      fd ??= openSync(path, 'r');
      return readAt(fd, start, length, () => `${path}: ends inside the ${length} bytes at ${start}`).toString('latin1');
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** One pack file read record by record (positioned reads), with the latest records kept. */
class Pack {
  private fd: number | undefined;
  private offsets: number[] | undefined;
  private dict: Buffer | undefined;
  private readonly cache = new Map<string, string>();
  private readonly packPath: string;
  private readonly indexPath: string;
  private readonly slugIndex: () => Map<string, number>;
  private readonly cacheSize: number;

  constructor(packPath: string, indexPath: string, slugIndex: () => Map<string, number>, cacheSize: number) {
    this.packPath = packPath;
    this.indexPath = indexPath;
    this.slugIndex = slugIndex;
    this.cacheSize = cacheSize;
  }

  private open(): { offsets: number[]; fd: number } {
    if (!this.offsets) {
      const index = JSON.parse(readFileSync(this.indexPath, 'utf8')) as PackIndex;
      if (index.format !== PACK_FORMAT) throw new Error(`${this.indexPath}: unknown format ${String(index.format)}`);
      this.fd = openSync(this.packPath, 'r');
      if (index.dictionary) {
        this.dict = Buffer.allocUnsafe(index.dictionary);
        readSync(this.fd, this.dict, 0, index.dictionary, 0);
      }
      this.offsets = packOffsets(index);
    }
    return { offsets: this.offsets, fd: this.fd! };
  }

  /** The record of a slug as text, or undefined when there is no such page. */
  get(slug: string): string | undefined {
    const hit = this.cache.get(slug);
    if (hit !== undefined) {
      this.cache.delete(slug);
      this.cache.set(slug, hit);
      return hit;
    }
    const i = this.slugIndex().get(slug);
    if (i === undefined) return undefined;
    const { offsets, fd } = this.open();
    const start = offsets[i]!;
    const buf = readAt(fd, start, offsets[i + 1]! - start, () => `${this.packPath}: ends inside the record of ${slug}`);
    const text = (this.dict ? inflateRawSync(buf, { dictionary: this.dict }) : inflateRawSync(buf)).toString('utf8');
    this.cache.set(slug, text);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return text;
  }

  close() {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.offsets = undefined;
  }
}

export interface ContentFilesOptions {
  /** How many pages (and, apart, texts) to keep decoded; 64 by default. */
  cacheSize?: number;
}

/** Reads a JSON data file (gunzipped when its name ends in `.gz`); a missing build is named as such. */
function readData<T>(dataDir: string, name: string): T {
  const file = join(dataDir, name);
  try {
    const bytes = readFileSync(file);
    return JSON.parse((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as T;
  } catch (e) {
    throw new Error(`cannot read ${file}: run the build first (npm run build)`, { cause: e });
  }
}

/** The meta file, read and its format checked on first use. */
function lazyMeta(dataDir: string): () => MetaFile {
  let meta: MetaFile | undefined;
  return () => {
    if (!meta) {
      meta = readData<MetaFile>(dataDir, META_FILE);
      if (meta.format !== PACK_FORMAT)
        throw new Error(`${join(dataDir, META_FILE)}: unknown format ${String(meta.format)}`);
    }
    return meta;
  };
}

/** The whole entry list, and one entry: from the whole list when it is loaded, else from its own record. */
function lazyEntries(dataDir: string, records: Pack) {
  let entries: PageEntry[] | undefined;
  let entryBySlug: Map<string, PageEntry> | undefined;
  const all = () => (entries ??= readData<EntriesFile>(dataDir, ENTRIES_FILE).entries);
  const entry = (slug: string): PageEntry | undefined => {
    if (entries) return (entryBySlug ??= new Map(entries.map((e) => [e.slug, e]))).get(slug);
    const json = records.get(slug);
    return json === undefined ? undefined : (JSON.parse(json) as PageEntry);
  };
  return { all, entry };
}

/** Whether a static file exists at `path`: a listed file, or a page's file by the path templates. */
function lazyHasFile(dataDir: string, slugs: () => Map<string, number>): (path: string) => boolean {
  let files: { set: Set<string>; templates: string[] } | undefined;
  return (path) => {
    if (!files) {
      const f = readData<FilesFile>(dataDir, FILES_FILE);
      files = { set: new Set(f.files), templates: f.templates };
    }
    if (files.set.has(path)) return true;
    for (const t of files.templates) {
      const slug = slugInTemplate(path, t);
      if (slug !== undefined && slugs().has(slug)) return true;
    }
    return false;
  };
}

/** The sentence-model table of a data folder, read when called (undefined when the build wrote none). */
export const embeddingReader = (dataDir: string) => () =>
  existsSync(join(dataDir, EMBEDDING_FILE)) ? decodeEmbedding(readFileSync(join(dataDir, EMBEDDING_FILE))) : undefined;

/** The chat's index over the pages pack and its own pack (kept for `close`), with the embedding when built. */
function lazyAskIndex(dataDir: string, pages: Pack) {
  let ask: AskIndex | undefined;
  let askPack: ReturnType<typeof rangeReader> | undefined;
  const askIndex = () =>
    (ask ??= loadAskIndex(
      readFileSync(join(dataDir, ASK_FILE), 'utf8'),
      (slug) => {
        const json = pages.get(slug);
        return json === undefined ? undefined : (JSON.parse(json) as Page).markdown;
      },
      (askPack ??= rangeReader(join(dataDir, ASK_PACK))).read,
      embeddingReader(dataDir),
    ));
  return { askIndex, close: () => askPack?.close() };
}

/** A ContentSource over the split data files in `dataDir`; nothing is read before a method asks for it. */
export function createContentFiles(dataDir: string, opts: ContentFilesOptions = {}): ContentSource & { close(): void } {
  const cacheSize = Math.max(1, opts.cacheSize ?? 64);
  let slugIndex: Map<string, number> | undefined;
  const slugs = () => (slugIndex ??= new Map(readData<string[]>(dataDir, SLUGS_FILE).map((s, i) => [s, i])));
  const pack = (file: string, index: string) => new Pack(join(dataDir, file), join(dataDir, index), slugs, cacheSize);
  const entryRecords = pack(ENTRIES_PACK, ENTRIES_INDEX);
  const pages = pack(PAGES_PACK, PAGES_INDEX);
  const texts = pack(TEXT_PACK, TEXT_INDEX);
  const metaOf = lazyMeta(dataDir);
  const { all, entry } = lazyEntries(dataDir, entryRecords);
  const ask = lazyAskIndex(dataDir, pages);
  let index: SearchIndex | undefined;
  return {
    get origin() {
      return metaOf().origin;
    },
    get builtAt() {
      return metaOf().builtAt;
    },
    entries: all,
    entry,
    page(slug) {
      const json = pages.get(slug);
      return json === undefined ? undefined : (JSON.parse(json) as Page);
    },
    searchIndex: () => (index ??= loadSearchIndex(readFileSync(join(dataDir, SEARCH_FILE), 'utf8'))),
    askIndex: ask.askIndex,
    snippetText: (slug) => texts.get(slug),
    hasFile: lazyHasFile(dataDir, slugs),
    close() {
      entryRecords.close();
      pages.close();
      texts.close();
      ask.close();
    },
  };
}
