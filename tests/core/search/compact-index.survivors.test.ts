/**
 * The index build past its first buffers and the loaded index's caches (src/core/search/compact-index.ts),
 * written against the mutants `npm run mutate` left (bench/mutation.md): a page with more terms than the
 * per-page counts start with (4,096) and more postings than the postings buffer starts with (65,536
 * characters), the counts growing by doubling, each distinct word analyzed once, and a term's postings (and a
 * page's title and description terms) decoded on first use and kept, at most 4,097 terms' postings at a time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildIndex, type IndexablePage, SearchIndex } from '../../../src/core/search/compact-index.ts';

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
  it('a page of 34,000 terms: every term holds the page, 68,000 postings characters in order', () => {
    const n = 34_000;
    const data = buildIndex([numbersPage(n)]);
    expect(data.terms.split(' ')).toHaveLength(n);
    expect(data.terms.split(' ')[n - 1]).toBe(String(10_000 + n - 1));
    expect(firstDifference(data.df, new Array(n).fill(1))).toBe(-1);
    // Each posting: the page (delta 0: "A"), then its level: tf 1 in a body of average length is
    // round(63 x 1 / (1.2 + 1)) = 29 ("d").
    expect(firstDifference(data.postings, 'Ad'.repeat(n))).toBe(-1);
    expect(data.offsets[n - 1]).toBe(2 * (n - 1));
    const index = new SearchIndex(data);
    const last = index.postings(index.termId(String(10_000 + n - 1))!);
    expect([...last.docs]).toEqual([0]);
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
