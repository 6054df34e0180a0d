/**
 * The index build's fast path (eachWord, one term lookup per distinct word, counts in typed arrays) gives the
 * same index as the plain definition: every field through `analyze`, terms numbered in order of first use,
 * BM25F saturation per page. Checked on generated pages (ASCII and not: accents, ligatures, ß, other scripts,
 * lone surrogates, stop words) and on the project's own pages (build/content.json; `npm test` builds first).
 * Then the headings and bare titles the fields are made from, the loaded index (its checks, terms and decoded
 * BM25F scores), the build past its first buffers and the loaded index's caches.
 */
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it, afterEach, vi } from 'vitest';
import {
  analyze,
  analyzeSynonyms,
  eachWord,
  fold,
  words,
  type SynonymEntry,
  termOf,
} from '../../../src/core/search/analyze.ts';
import {
  bareTitle,
  buildIndex,
  FIELDS,
  headingsOf,
  K1,
  MIN_IDF,
  type IndexablePage,
  type SerializedIndex,
  SearchIndex,
} from '../../../src/core/search/compact-index.ts';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };

const synonyms = { entries: lexicon.synonyms };
import { DATA_DIR } from '../../../src/config.ts';
import { bm25fScorer } from '../../helpers/search-score.ts';
import { CONTENT_FILE, type ContentData } from '../../../src/core/content.ts';
import type { PageKind } from '../../../src/contract/content.ts';
import type { ContentPage } from '../../../src/core/content.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The index as its format defines it, written plainly (the shape buildIndex had before its fast path). */
function referenceIndex(pages: IndexablePage[], syn: SynonymEntry[]): SerializedIndex {
  const names = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const raw: number[][] = [];
  const lengths = names.map(() => new Float64Array(pages.length));
  const fields = pages.map((p, doc) => {
    const f = [bareTitle(p.title), headingsOf(p.markdown), p.description ?? '', p.text].map(analyze);
    const local = new Map<number, number[]>();
    f.forEach((ts, k) => {
      lengths[k]![doc] = ts.length;
      for (const t of ts) {
        let id = ids.get(t);
        if (id === undefined) {
          ids.set(t, (id = terms.length));
          terms.push(t);
          raw.push([]);
        }
        if (!local.has(id)) local.set(id, [0, 0, 0, 0]);
        local.get(id)![k]!++;
      }
    });
    for (const [id, tf] of local) raw[id]!.push(doc, ...tf);
    return f;
  });
  const n = pages.length;
  const avg = lengths.map((l) => Math.max(1, l.reduce((a, b) => a + b, 0) / Math.max(1, n)));
  const varint = (x: number) => {
    let s = '';
    for (; x >= 32; x = Math.floor(x / 32)) s += ALPHABET[32 | (x & 31)];
    return s + ALPHABET[x];
  };
  let postings = '';
  const offsets: number[] = [];
  const df = raw.map((r) => r.length / 5);
  for (const r of raw) {
    offsets.push(postings.length);
    let prev = -1;
    for (let i = 0; i < r.length; i += 5) {
      const doc = r[i]!;
      let tf = 0;
      names.forEach((name, f) => {
        const { weight, b } = FIELDS[name];
        tf += (weight * r[i + 1 + f]!) / (1 - b + (b * lengths[f]![doc]!) / avg[f]!);
      });
      postings += varint(doc - prev - 1) + ALPHABET[Math.max(1, Math.min(63, Math.round((63 * tf) / (K1 + tf))))];
      prev = doc;
    }
  }
  return {
    format: 'kartage-bm25f-1',
    slugs: pages.map((p) => p.slug),
    kinds: pages.map((p) => p.kind),
    titles: fields.map((f) => f[0]!.join(' ')),
    descriptions: fields.map((f) => f[2]!.join(' ')),
    terms: terms.join(' '),
    idf: df.map((d) => Math.round(1000 * Math.max(MIN_IDF, Math.log(1 + (n - d + 0.5) / (d + 0.5))))),
    df,
    offsets,
    postings,
    synonyms: analyzeSynonyms(syn),
  };
}

/** Text from words of the site, stop words, punctuation and characters folding treats specially. */
const pieces = fc.constantFrom(
  'Moving',
  'moving',
  'removalist',
  'Utilization',
  'utilisation',
  'the',
  'a',
  'of',
  'How',
  'storage',
  'quotes',
  'Café',
  'ÉTÉ',
  'Straße',
  'ﬁle',
  'm³',
  'Ⅻ',
  'naïve',
  'e\u0301',
  'crew’s',
  '—',
  '…',
  'Ωμέγα',
  'ΟΔΟΣ',
  '東京',
  '𝐀𝐁',
  '😀',
  '\ud800',
  '\udc00x',
  '_',
  '-',
  '42',
  '3.5',
  'x2',
  ' ',
  '  ',
  '\n',
  '. ',
  ', ',
  '#',
);
const text = fc
  .array(fc.oneof(pieces, fc.string({ maxLength: 6, unit: 'binary' })), { maxLength: 40 })
  .map((a) => a.join(''));
const page = fc.record({
  title: text,
  description: fc.option(text, { nil: undefined }),
  headings: fc.array(text, { maxLength: 4 }),
  text,
  kind: fc.constantFrom<PageKind[]>('page', 'post', 'listing'),
});

describe('the search index build', () => {
  it('splits text into words as the plain definition does (runs of letters and digits after folding)', () => {
    const plainWords = (s: string) =>
      fold(s)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (s) => {
        const seen: string[] = [];
        eachWord(s, (w) => seen.push(w));
        expect(seen).toEqual(plainWords(s));
        expect(words(s)).toEqual(seen);
      }),
      { numRuns: 2000 },
    );
  });

  it('builds the same index as the plain definition on generated pages', () => {
    fc.assert(
      fc.property(fc.array(page, { maxLength: 12 }), (list) => {
        const pages: IndexablePage[] = list.map((p, i) => ({
          slug: `p${String(i).padStart(3, '0')}`,
          title: p.title,
          description: p.description,
          markdown: `---\ntitle: x\n---\n${p.headings.map((h) => `## ${h}\n\nbody\n`).join('\n')}`,
          text: p.text,
          kind: p.kind,
        }));
        expect(buildIndex(pages, synonyms.entries)).toEqual(referenceIndex(pages, synonyms.entries));
      }),
      { numRuns: 300 },
    );
  });

  it("builds the same index as the plain definition on the project's pages", () => {
    const file = `${DATA_DIR}/${CONTENT_FILE}`;
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (node server/build-check.ts)`);
    const data = JSON.parse(readFileSync(file, 'utf8')) as ContentData;
    expect(data.pages.length).toBeGreaterThan(10);
    const built = JSON.stringify(buildIndex(data.pages, synonyms.entries));
    expect(built).toBe(JSON.stringify(referenceIndex(data.pages, synonyms.entries)));
  });
});

describe('headingsOf', () => {
  it('no markdown, no headings', () => {
    expect(headingsOf(undefined)).toBe('');
    expect(headingsOf('')).toBe('');
    expect(headingsOf('Just a line.')).toBe('');
  });

  it('ATX headings of any level, joined with ". ", closing hashes and spaces dropped', () => {
    expect(headingsOf('# Hello\ntext')).toBe('Hello');
    expect(headingsOf('## Intro\ntext\n### Setup ###\n###### Six\n####### Seven')).toBe('Intro. Setup. Six');
    expect(headingsOf('##  Two spaces\n#\tTabbed  \n#NoSpace')).toBe('Two spaces. Tabbed');
    expect(headingsOf('C# is fine\n# A')).toBe('A');
  });

  it('not inside the front matter, whatever its last line', () => {
    expect(headingsOf('---\n# yaml comment\ntitle: T\n---\n## Intro\n')).toBe('Intro');
    expect(headingsOf('---\ntitle: T\n# c\n---\n## Intro\n')).toBe('Intro');
  });
});

describe('bareTitle', () => {
  it('drops the last " | suffix" only, however spaced', () => {
    expect(bareTitle('A | about | Kartage')).toBe('A | about');
    expect(bareTitle('Pricing  |  Kartage')).toBe('Pricing');
    expect(bareTitle('Our team | About')).toBe('Our team');
    expect(bareTitle('No suffix')).toBe('No suffix');
  });
});

const pages = (list: [string, string, string, string?][]): ContentPage[] =>
  list.map(([slug, title, text, description]) => ({
    slug,
    title,
    url: `https://x.test/${slug}`,
    markdown: text,
    text,
    kind: 'page',
    ...(description ? { description } : {}),
  }));

describe('the loaded index', () => {
  const list = pages([
    ['a', 'Crate hire', 'crate crate crate van', 'Crates for moving'],
    ['b', 'Boxes', 'crate word word word word word word word word'],
    ['c', 'Vans', 'van'],
    ['d', 'The | Kartage', 'van van'],
  ]);
  const data = buildIndex(list);

  it('refuses an unknown format and an index without page kinds', () => {
    expect(() => new SearchIndex({ ...data, format: 'other' as 'kartage-bm25f-1' })).toThrow(
      'search index: unknown format other',
    );
    const { kinds: _, ...noKinds } = data;
    expect(() => new SearchIndex(noKinds as typeof data)).toThrow('search index: no page kinds (rebuild the site)');
    expect(() => new SearchIndex({ ...data, kinds: ['page', 'page', 'page'] })).toThrow('no page kinds');
  });

  it('titles and descriptions as analyzed terms; none is an empty list', () => {
    const index = new SearchIndex(data);
    expect(index.title(0)).toEqual(analyze('Crate hire'));
    expect(index.description(0)).toEqual(analyze('Crates for moving'));
    expect(index.description(1)).toEqual([]);
    expect(index.title(3)).toEqual([]);
    expect(index.documentCount).toBe(4);
    expect(index.df(index.termId(termOf('van'))!)).toBe(3);
  });

  it('decodes the pages holding a word with their BM25F scores, the page with the most crates highest', () => {
    const index = new SearchIndex(data);
    const score = bm25fScorer(list);
    const p = index.postings(index.termId(termOf('crate'))!);
    expect([...p.docs]).toEqual([0, 1]);
    expect([...p.scores]).toEqual([score('crate', 0), score('crate', 1)]);
    expect(p.scores[0]!).toBeGreaterThan(p.scores[1]!);
  });
});

describe('the build past its first buffers, and the caches of the loaded index', () => {
  /** One page whose body is `n` distinct five-digit numbers (words without a letter: each is its own term). */
  const numbersPage = (n: number): IndexablePage => ({
    slug: 'numbers',
    title: '',
    text: Array.from({ length: n }, (_, i) => String(10_000 + i)).join(' '),
    kind: 'page',
  });

  /** Where two sequences first differ (-1: nowhere): a short failure message for long expected values. */
  const firstDifference = (a: ArrayLike<unknown>, b: ArrayLike<unknown>): number => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
    return -1;
  };

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.doUnmock('../../../src/core/search/analyze.ts');
  });

  describe('the index build past its first buffers', () => {
    it('a page of 34,000 terms (68,000 postings characters): every term read back holds it, with its score', () => {
      const n = 34_000;
      const page = numbersPage(n);
      const data = buildIndex([page]);
      expect(data.terms.split(' ')).toHaveLength(n);
      expect(data.terms.split(' ')[n - 1]).toBe(String(10_000 + n - 1));
      expect(firstDifference(data.df, new Array(n).fill(1))).toBe(-1);
      // Every term once in the body: one BM25F score for all.
      const score = bm25fScorer([page])(String(10_000), 0);
      expect(score).toBeGreaterThan(0);
      const index = new SearchIndex(data);
      const wrong: number[] = [];
      for (let i = 0; i < n; i++) {
        const p = index.postings(index.termId(String(10_000 + i))!);
        if (p.docs.length !== 1 || p.docs[0] !== 0 || p.scores[0] !== score) wrong.push(i);
      }
      expect(wrong).toEqual([]);
    });

    it('analyzes each distinct word of the headings and body once', async () => {
      vi.resetModules();
      const analyzed: string[] = [];
      vi.doMock('../../../src/core/search/analyze.ts', async (importOriginal) => {
        const real = await importOriginal<typeof import('../../../src/core/search/analyze.ts')>();
        return {
          ...real,
          termOf: (w: string) => {
            analyzed.push(w);
            return real.termOf(w);
          },
        };
      });
      const { buildIndex: build } = await import('../../../src/core/search/compact-index.ts');
      const data = build([
        { slug: 'a', title: 'Van hire', markdown: '## Van hire\n', text: 'the van van vans crate van', kind: 'page' },
        { slug: 'b', title: 'Crates', text: 'crate van the', kind: 'page' },
      ]);
      expect(analyzed).toEqual(['van', 'hire', 'vans', 'crate']);
      expect(data.terms).toBe('van hire crate');
      expect(data.df).toEqual([2, 1, 2]);
    });

    it('with no synonyms given, the index has none', () => {
      expect(buildIndex([numbersPage(3)]).synonyms).toEqual([]);
    });
  });

  describe('the loaded index', () => {
    const small = () =>
      new SearchIndex(
        buildIndex([
          { slug: 'a', title: 'Crate hire', description: 'Crates for moving', text: 'crate van', kind: 'page' },
          { slug: 'b', title: 'Vans', text: 'van', kind: 'page' },
        ]),
      );

    it("splits a page's title and description once and answers the same list after", () => {
      const index = small();
      const title = index.title(0);
      const description = index.description(0);
      expect(title).toEqual(['crate', 'hire']);
      expect(description).toEqual(['crate', 'move']);
      expect(index.title(0)).toBe(title);
      expect(index.description(0)).toBe(description);
    });

    it("decodes a term's postings on first use and keeps them", () => {
      const index = small();
      const van = index.termId('van')!;
      const crate = index.termId('crate')!;
      const first = index.postings(van);
      expect([...first.docs]).toEqual([0, 1]);
      index.postings(crate);
      expect(index.postings(van)).toBe(first);
    });

    it("keeps 4,097 terms' postings, and lets them go for the term after them", () => {
      const index = new SearchIndex(buildIndex([numbersPage(4_098)]));
      const first = index.postings(0);
      for (let id = 1; id < 4_096; id++) index.postings(id);
      index.postings(4_096); // the 4,097th: kept with the others
      expect(index.postings(0)).toBe(first);
      index.postings(4_097); // 4,097 kept: let go before this one is kept
      const again = index.postings(0);
      expect(again).not.toBe(first);
      expect(again).toEqual(first);
    });

    it('an index without terms has no term id for any string', () => {
      const index = new SearchIndex(buildIndex([]));
      expect(index.size).toBe(0);
      for (const t of ['', ' ', 'van', 'Stryker was here']) expect(index.termId(t), t).toBeUndefined();
    });
  });

  describe('words that name an Object member', () => {
    it('"constructor" is a term like any word: the query reads it, and the index keeps every term id', async () => {
      const { analyze, termOf } = await import('../../../src/core/search/analyze.ts');
      expect(termOf('constructor')).toBe('constructor');
      expect(analyze('constructor builds')).toEqual(['constructor', 'build']);
      const data = buildIndex([{ slug: 'hire', title: 'Constructor hire', text: 'van crate', kind: 'page' }]);
      const terms = data.terms.split(' ');
      expect(terms).toHaveLength(4);
      const index = new SearchIndex(data);
      expect(terms.map((t) => index.termId(t))).toEqual([0, 1, 2, 3]);
    });
  });
});
