/**
 * @module What each content need costs a function (issue 14 part 3): the bytes of the data files it declares
 * (src/adapters/content-files.ts DATA_FILES) and "fresh process -> first answer" through createContentFiles
 * (bench/need-child.ts), per data folder: the project's own build and the synthetic corpora. "all needs" is a
 * function that reads everything (the MCP server); the whole data folder (with content.json) is shown beside.
 *
 *   node bench/needs.ts <dataDir>...   # prints one JSON line: { reports }
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  DATA_FILES,
  dataFilesFor,
  ENTRIES_FILE,
  type ContentNeed,
  type EntriesFile,
} from '../src/adapters/content-files.ts';
import { BENCH_DIR, lastJson, median, runTimed } from './lib.ts';

export const NEEDS = Object.keys(DATA_FILES) as ContentNeed[];

export interface NeedRow {
  need: ContentNeed | 'all needs';
  files: string[];
  bytes: number;
  /** Median over the runs (undefined for "all needs"). */
  startToAnswerMs?: number;
  importMs?: number;
  firstAnswerMs?: number;
  runs?: number;
}

export interface NeedReport {
  dataDir: string;
  pages: number;
  /** Every file in the data folder (content.json and search-index.json included). */
  folderBytes: number;
  rows: NeedRow[];
}

async function bytesOf(dir: string, files: readonly string[]): Promise<number> {
  let n = 0;
  for (const f of files) n += (await stat(join(dir, f))).size;
  return n;
}

export async function measureNeeds(
  dataDir: string,
  runs = Number(process.env.BENCH_COLD_RUNS) || 5,
): Promise<NeedReport> {
  const entries = (JSON.parse(gunzipSync(await readFile(join(dataDir, ENTRIES_FILE))).toString('utf8')) as EntriesFile)
    .entries;
  // A page from the middle of the slug order (not one a small cache or the first block would favour).
  const slug = entries.find((e) => e.slug === 'pricing')?.slug ?? entries[Math.floor(entries.length / 2)]!.slug;
  const rows: NeedRow[] = [];
  for (const need of NEEDS) {
    const samples: { importMs: number; firstAnswerMs: number; startToAnswerMs: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runTimed(process.execPath, [join(BENCH_DIR, 'need-child.ts'), dataDir, need, slug]);
      if (r.code !== 0) throw new Error(`need ${need} on ${dataDir}: ${r.stderr.slice(-1000)}`);
      samples.push(lastJson(r.stdout));
    }
    const m = (k: keyof (typeof samples)[number]) => median(samples.map((s) => s[k]));
    const files = [...DATA_FILES[need]];
    rows.push({
      need,
      files,
      bytes: await bytesOf(dataDir, files),
      startToAnswerMs: m('startToAnswerMs'),
      importMs: m('importMs'),
      firstAnswerMs: m('firstAnswerMs'),
      runs,
    });
  }
  const all = dataFilesFor(NEEDS);
  rows.push({ need: 'all needs', files: all, bytes: await bytesOf(dataDir, all) });
  let folderBytes = 0;
  for (const f of await readdir(dataDir)) folderBytes += (await stat(join(dataDir, f))).size;
  return { dataDir, pages: entries.length, folderBytes, rows };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reports: NeedReport[] = [];
  for (const dir of process.argv.slice(2)) reports.push(await measureNeeds(dir));
  console.log(JSON.stringify({ reports }));
}
