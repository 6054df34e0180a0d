/**
 * The file-backed content source over a real derive: the project's built HTML (dist/, which `npm test` builds
 * first) copied to a temporary folder and derived again there by deriveSite, so content.json and the split data
 * files come from the same run. Every method must agree with the in-memory source over content.json, and each
 * need must work with only its declared files present (and a page read with only that page's bytes intact).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSite } from '../../src/build/derive.ts';
import { contentFromData, type ContentSource } from '../../src/core/content-source.ts';
import { CONTENT_FILE, SEARCH_FILE, type ContentData } from '../../src/core/content.ts';
import { loadSearchIndex, searchPartial, searchSite } from '../../src/core/search/engine.ts';
import {
  createContentFiles,
  DATA_FILES,
  dataFilesFor,
  ENTRIES_INDEX,
  ENTRIES_PACK,
  packOffsets,
  PAGES_INDEX,
  SLUGS_FILE,
  PAGES_PACK,
  TEXT_INDEX,
  TEXT_PACK,
  type ContentNeed,
  type PackIndex,
} from '../../src/adapters/content-files.ts';
import { loadJudged } from '../helpers/search-metrics.ts';
import { askSite } from '../../src/core/ask/answer.ts';
import { decodeEmbedding, EMBEDDING_FILE } from '../../src/core/ask-indexer/embedding-file.ts';
import { askIndexOf } from '../../src/core/ask-indexer/assemble.ts';
import { ASK_LEARNING, cachedIntentModel } from '../../src/build/ask-hints.ts';
import { PricingSchema } from '../../src/contract/content.ts';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };

const pricing = PricingSchema.parse(pricingData);
/** Questions that read postings, quote sections (their sentence lists) and price a plan. */
const ASK_QUESTIONS = [
  'Is there a free trial?',
  'will the crew app work with no signal?',
  'what would Starter plus two office logins cost?',
  'does Kartage connect to Xero?',
  'how do storage customers pay their invoices?',
  'is our data kept in Australia?',
  'zqxjkv',
];

const ORIGIN = 'https://kartage.test';
let work: string;
let dataDir: string;
let data: ContentData;
let memory: ContentSource;
let files: ReturnType<typeof createContentFiles>;

/** A folder holding only the given data files (copied from the derived data). */
function only(names: readonly string[]): string {
  const dir = mkdtempSync(join(work, 'only-'));
  for (const name of names) cpSync(join(dataDir, name), join(dir, name));
  return dir;
}

beforeAll(async () => {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: build first (node server/build-check.ts)');
  work = mkdtempSync(join(tmpdir(), 'kartage-content-files-'));
  const dist = join(work, 'dist');
  // The rendered HTML only: everything the derive step writes is written again here.
  cpSync('dist', dist, {
    recursive: true,
    filter: (src) => !/\.(md|json|txt|xml|yaml)$/.test(src) && !src.includes('/pagefind'),
  });
  dataDir = join(work, 'data');
  await deriveSite({ distDir: dist, dataDir, origin: ORIGIN, pagefind: false });
  data = JSON.parse(readFileSync(join(dataDir, CONTENT_FILE), 'utf8')) as ContentData;
  // The build indexes each section with its hints and questions, and writes its sentence-model table: the in-memory
  // index is built with the same ones, and with the intent model the build trained (kept by its cache: training it
  // again from the fourteen thousand written questions takes as long as the rest of this file).
  const learning = { ...ASK_LEARNING, intentModel: cachedIntentModel() };
  memory = contentFromData(
    data,
    () => loadSearchIndex(readFileSync(join(dataDir, SEARCH_FILE), 'utf8')),
    () => askIndexOf(data.pages, learning, decodeEmbedding(readFileSync(join(dataDir, EMBEDDING_FILE)))),
  );
  files = createContentFiles(dataDir, { cacheSize: 4 });
});

afterAll(() => {
  files?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('createContentFiles agrees with content.json', () => {
  it('covers the whole build', () => {
    expect(data.pages.length).toBeGreaterThan(50);
    expect(data.origin).toBe(ORIGIN);
    for (const need of Object.keys(DATA_FILES) as ContentNeed[])
      for (const f of DATA_FILES[need]) expect(existsSync(join(dataDir, f)), f).toBe(true);
  });

  it('origin, build time, every entry, every page, every snippet text', () => {
    expect(files.origin).toBe(memory.origin);
    expect(files.builtAt).toBe(memory.builtAt);
    expect(files.entries()).toEqual(memory.entries());
    expect(files.entries().map((e) => e.slug)).toEqual(data.pages.map((p) => p.slug));
    for (const { slug } of data.pages) {
      expect(files.entry(slug), slug).toEqual(memory.entry(slug));
      expect(files.page(slug), slug).toEqual(memory.page(slug));
      expect(files.page(slug), slug).not.toHaveProperty('text');
      expect(files.snippetText(slug), slug).toBe(memory.snippetText(slug));
    }
    for (const missing of ['nope', 'blog/nope', '', 'pricing/', 'PRICING']) {
      expect(files.entry(missing)).toBeUndefined();
      expect(files.page(missing)).toBeUndefined();
      expect(files.snippetText(missing)).toBeUndefined();
    }
  });

  it('the same static files, and no others', () => {
    for (const f of data.files) expect(files.hasFile(f), f).toBe(true);
    const not = [
      '/nope.md',
      '/nope.html',
      '/api/v1/pages/nope.json',
      '/blog/nope.md',
      '/pricing',
      '/pricing.md/',
      '/.md',
      '/api/v1/pages/.json',
      '/_astro/x.js',
      '/pagefind/pagefind.js',
      '',
    ];
    for (const f of not) expect(files.hasFile(f), f).toBe(memory.hasFile(f));
    for (const f of not) expect(files.hasFile(f), f).toBe(false);
  });

  it('the same search index', () => {
    const a = files.searchIndex();
    const b = memory.searchIndex();
    expect(a.slugs).toEqual(b.slugs);
    expect(a.size).toBe(b.size);
  });
});

describe('search over the file-backed source', () => {
  it('gives the same answers as over content.json for every judged query (snippets included)', () => {
    const content = memory; // content.json, loaded whole
    const index = memory.searchIndex();
    const queries = [...loadJudged('judged-queries'), ...loadJudged('held-out-queries')].map((j) => j.q);
    expect(queries.length).toBeGreaterThan(50);
    let answered = 0;
    for (const q of [...queries, 'about', 'how to', 'zqxjkv']) {
      const fromFiles = searchSite({ content: files, index: files.searchIndex() }, q, 10);
      expect(fromFiles, q).toEqual(searchSite({ content, index }, q, 10));
      expect(searchPartial({ content: files, index: files.searchIndex() }, q, 5), q).toEqual(
        searchPartial({ content, index }, q, 5),
      );
      if (fromFiles.count) answered++;
    }
    expect(answered).toBeGreaterThan(queries.length * 0.9);
  });
});

describe('each need reads only its declared files', () => {
  it('entries: with only the entries files', () => {
    const src = createContentFiles(only(DATA_FILES.entries));
    expect(src.entries()).toEqual(memory.entries());
    expect(src.entry('pricing')).toEqual(memory.entry('pricing'));
    expect(src.origin).toBe(ORIGIN);
    expect(() => src.page('pricing')).toThrow();
  });

  it('entry: with only the one-entry files', () => {
    const src = createContentFiles(only(DATA_FILES.entry));
    for (const { slug } of data.pages) expect(src.entry(slug), slug).toEqual(memory.entry(slug));
    expect(src.entry('nope')).toBeUndefined();
    expect(() => src.entries()).toThrow();
    src.close();
  });

  it('pages: with only the page files', () => {
    const src = createContentFiles(only(DATA_FILES.pages));
    for (const { slug } of data.pages) expect(src.page(slug)).toEqual(memory.page(slug));
    expect(() => src.entries()).toThrow();
    expect(() => src.snippetText('pricing')).toThrow();
    src.close();
  });

  it('search: with only the search files', () => {
    const src = createContentFiles(only(DATA_FILES.search));
    const content = memory; // content.json, loaded whole
    for (const q of ['storage billing', 'pricing', 'sso', 'how to reduce damage claims']) {
      expect(searchSite({ content: src, index: src.searchIndex() }, q, 10), q).toEqual(
        searchSite({ content, index: memory.searchIndex() }, q, 10),
      );
    }
    expect(() => src.page('pricing')).toThrow();
    src.close();
  });

  it('ask: with only the ask files, the same answers as an index built in memory from content.json', () => {
    const src = createContentFiles(only(DATA_FILES.ask));
    const fromFiles = src.askIndex();
    expect(fromFiles.sectionCount).toBe(memory.askIndex().sectionCount);
    const ask = (index: typeof fromFiles, question: string) =>
      askSite({ index, pricing, origin: ORIGIN, now: Date.parse('2026-11-25T02:00:00Z') }, { question });
    // content.json's pages carry no rendered heading anchors: links are compared without their fragment.
    const unanchored = (r: ReturnType<typeof ask>) => ({
      ...r,
      answer: r.answer.replace(/\]\(([^)#]*)#[^)]*\)/g, ']($1)'),
      sources: r.sources.map((x) => ({ ...x, url: x.url.replace(/#.*/, '') })),
    });
    let answered = 0;
    for (const q of ASK_QUESTIONS) {
      const r = ask(fromFiles, q);
      expect(
        r.sources.some((x) => x.url.includes('#')),
        q,
      ).toBe(r.sources.some((x) => x.heading !== null));
      expect(unanchored(r), q).toEqual(unanchored(ask(memory.askIndex(), q)));
      if (r.answered) answered++;
    }
    expect(answered).toBeGreaterThan(ASK_QUESTIONS.length / 2);
    expect(() => src.entries()).toThrow();
    src.close();
  });

  it('files: with only the static-file files', () => {
    const src = createContentFiles(only(DATA_FILES.files));
    for (const f of data.files) expect(src.hasFile(f), f).toBe(true);
    expect(src.hasFile('/nope.md')).toBe(false);
    expect(() => src.page('pricing')).toThrow();
  });

  /** A copy of a pack whose every record but `slug`'s is spoilt (the dictionary kept), with its table and slugs. */
  function spoilt(pack: string, index: string, slug: string): { dir: string; other: string } {
    const dir = only([SLUGS_FILE, pack, index]);
    const slugs = JSON.parse(readFileSync(join(dir, SLUGS_FILE), 'utf8')) as string[];
    const offsets = packOffsets(JSON.parse(readFileSync(join(dir, index), 'utf8')) as PackIndex);
    const bytes = readFileSync(join(dir, pack));
    const i = slugs.indexOf(slug);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(offsets.at(-1)).toBe(bytes.length);
    bytes.fill(0xff, offsets[0], offsets[i]);
    bytes.fill(0xff, offsets[i + 1]);
    writeFileSync(join(dir, pack), bytes);
    return { dir, other: slugs.find((s) => s !== slug)! };
  }

  it("a page read uses that page's record only: every other byte of the pack spoilt, it still reads", () => {
    const { dir, other } = spoilt(PAGES_PACK, PAGES_INDEX, 'pricing');
    const src = createContentFiles(dir);
    expect(src.page('pricing')).toEqual(memory.page('pricing'));
    // The spoilt records are really unreadable (the check above could not pass by reading them).
    expect(() => src.page(other)).toThrow();
    src.close();
  });

  it("a snippet text read and an entry read use that page's record only", () => {
    const text = spoilt(TEXT_PACK, TEXT_INDEX, 'faq');
    let src = createContentFiles(text.dir);
    expect(src.snippetText('faq')).toBe(memory.snippetText('faq'));
    expect(() => src.snippetText(text.other)).toThrow();
    src.close();
    const entry = spoilt(ENTRIES_PACK, ENTRIES_INDEX, 'about');
    src = createContentFiles(entry.dir);
    expect(src.entry('about')).toEqual(memory.entry('about'));
    expect(src.entry('nope')).toBeUndefined();
    expect(() => src.entry(entry.other)).toThrow();
    src.close();
  });

  it("declares each need's files, and their union for a function of several needs", () => {
    expect(readdirSync(dataDir).sort()).toEqual(
      expect.arrayContaining(dataFilesFor(['entries', 'pages', 'search', 'files'])),
    );
    expect(dataFilesFor(['pages'])).not.toContain(TEXT_PACK);
    expect(dataFilesFor(['entries'])).not.toContain(PAGES_PACK);
    expect(dataFilesFor(['entries', 'pages'])).toEqual(
      [...new Set([...DATA_FILES.entries, ...DATA_FILES.pages])].sort(),
    );
  });
});
