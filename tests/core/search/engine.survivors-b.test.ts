/**
 * Search's top-k heap, its order of summing several words, the final tie order, and searchPartial's order and
 * matched words (src/core/search/engine.ts after line 200). Written against the mutants `npm run mutate` left
 * (bench/mutation.md); tests/core/search/engine.mutants.test.ts holds the rest. Expected scores come from the index's
 * own postings (each page's stored score for a word), so each is exact.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import { buildSearchIndex, loadSearchIndex, searchPartial, searchSite } from '../../../src/core/search/engine.ts';
import { ranked, searchPage, wordScore } from '../../helpers/search-score.ts';

const pg = searchPage;

function site(list: ContentPage[]) {
  const pages = [...list].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const index = loadSearchIndex(JSON.stringify(buildSearchIndex(pages)));
  const content = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages }, () => index);
  return { index, content };
}

describe('the best candidates when the best page comes first in page order', () => {
  // 140 pages holding "crate" 1 to 3 times over 4 to 20 filler words (a fixed pseudo-random mix), the first page
  // holding it most: the heap's first entry is the best page, and many later pages replace its weakest entries.
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pages = Array.from({ length: 140 }, (_, i) =>
    pg(
      `r/${String(i).padStart(3, '0')}`,
      'Page',
      i === 0 ? 'crate '.repeat(30) : `${'crate '.repeat(1 + next(3))}${'word '.repeat(4 + next(17))}`,
    ),
  );
  const { index } = site(pages);
  const base = [...index.slugs.keys()]
    .map((doc) => ({ doc, score: wordScore(index, 'crate', doc) }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);

  it('the premise: the first page scores best, alone, and the pages score at many levels', () => {
    expect(base[0]!.doc).toBe(0);
    expect(base[1]!.score).toBeLessThan(base[0]!.score);
    expect(new Set(base.map((r) => r.score)).size).toBeGreaterThan(20);
  });

  it('returns the best pages by score, ties by page order, for the default 50 and any limit', () => {
    expect(ranked(index, 'crate', 1)).toEqual(base.slice(0, 1));
    expect(ranked(index, 'crate', 50)).toEqual(base.slice(0, 50));
    expect(ranked(index, 'crate', 90)).toEqual(base.slice(0, 90));
  });

  it('an odd number of candidates (a last parent with one child) works for every odd limit from 51 to 99', () => {
    for (let limit = 51; limit < 100; limit += 2) expect(ranked(index, 'crate', limit)).toEqual(base.slice(0, limit));
  });
});

describe('several words: scores summed in single precision, rarest word first, whatever the query order', () => {
  // "crate" on every page, "van" on two of three, "yard" on one of three: each page's sum rounds differently
  // when added in another order.
  const pages = Array.from({ length: 30 }, (_, i) =>
    pg(
      `s/${String(i).padStart(2, '0')}`,
      'Page',
      [
        'crate '.repeat(1 + (i % 4)),
        i % 3 ? 'van '.repeat(1 + (i % 5)) : '',
        i % 3 === 1 ? 'yard '.repeat(1 + (i % 7)) : '',
        'word '.repeat(i % 11),
      ].join(''),
    ),
  );
  const { index } = site(pages);
  const f = Math.fround;
  const sum = (doc: number, order: string[]) =>
    order.reduce((s, w, k) => (k ? f(s + wordScore(index, w, doc)) : wordScore(index, w, doc)), 0);
  const docs = [...index.slugs.keys()].filter((d) => wordScore(index, 'yard', d) > 0);
  const expected = docs
    .map((doc) => ({ doc, score: sum(doc, ['yard', 'van', 'crate']) }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);

  it('the premise: summed common word first, some pages score otherwise', () => {
    expect(docs).toHaveLength(10);
    const differ = docs.filter((d) => sum(d, ['crate', 'van', 'yard']) !== sum(d, ['yard', 'van', 'crate']));
    expect(differ.length).toBeGreaterThan(0);
  });

  it('every order of the same three words gives the same pages and scores', () => {
    for (const q of ['crate van yard', 'crate yard van', 'van crate yard', 'van yard crate', 'yard crate van']) {
      expect(ranked(index, q, 20)).toEqual(expected);
    }
    expect(ranked(index, 'yard van crate', 20)).toEqual(expected);
  });
});

describe('pages tied after the boosts', () => {
  // /a/crate (first in page order) scores two thirds of /b for "crate", and its address is the query (x 1.5).
  const { index } = site([
    pg('a/crate', 'Alpha', `crate ${'word '.repeat(6)}`),
    pg('b', 'Beta', `${'crate '.repeat(3)}${'word '.repeat(7)}`),
    pg('c', 'Gamma', 'other words here'),
    pg('d', 'Delta', 'more other words'),
  ]);

  it('the premise: by the word alone /b scores half as much again as /a/crate', () => {
    expect(wordScore(index, 'crate', 1)).toBe(wordScore(index, 'crate', 0) * 1.5);
  });

  it('go in page order: the boosted page, now level, first', () => {
    const r = ranked(index, 'crate', 10);
    expect(r).toEqual([
      { doc: 0, score: wordScore(index, 'crate', 1) },
      { doc: 1, score: wordScore(index, 'crate', 1) },
    ]);
  });
});

describe('searchPartial order and matched words', () => {
  // "crate" and "van" on two pages each, with the same score on the one-word pages /b (van) and /c (crate).
  const { index, content } = site([
    pg('a', 'Alpha', 'crate van word'),
    pg('b', 'Beta', 'van word word'),
    pg('c', 'Gamma', 'crate word word'),
  ]);
  const d = { index, content };

  it('the premise: /b and /c score alike for their one word', () => {
    expect(wordScore(index, 'van', 1)).toBe(wordScore(index, 'crate', 2));
  });

  it('the page holding both words first, then ties in page order, though /c was found first', () => {
    const r = searchPartial(d, 'crate van', 10);
    const both = Math.round(Math.fround(wordScore(index, 'crate', 0) + wordScore(index, 'van', 0)) * 100);
    const one = Math.round(wordScore(index, 'van', 1) * 0.25 * 100);
    expect(r.results.map((x) => [x.slug, x.score, x.matched])).toEqual([
      ['a', both, ['crate', 'van']],
      ['b', one, ['van']],
      ['c', one, ['crate']],
    ]);
  });

  it('matched names only the words of the pages within the limit', () => {
    const s = site([pg('one', 'One', 'crate crate crate'), pg('two', 'Two', `van ${'word '.repeat(9)}`)]);
    const r = searchPartial(s, 'crate van', 1);
    expect(r.results.map((x) => x.slug)).toEqual(['one']);
    expect(r.matched).toEqual(['crate']);
    expect(r.missing).toEqual([]);
    expect(searchPartial(s, 'crate van', 2).matched).toEqual(['crate', 'van']);
  });
});

describe('a page the content has no text for', () => {
  const { index, content } = site([
    pg('a', 'Stryker notes', 'Body.', { description: 'Notes on the tool.' }),
    pg('b', 'Stryker log', 'Body.'),
  ]);
  const d = { index, content: { ...content, snippetText: () => undefined } };

  it('searchSite: the snippet is its description, else empty', () => {
    const r = searchSite(d, 'stryker', 10);
    expect(Object.fromEntries(r.results.map((x) => [x.slug, x.snippet]))).toEqual({ a: 'Notes on the tool.', b: '' });
  });

  it('searchPartial: the snippet is its description, else empty', () => {
    const r = searchPartial(d, 'stryker', 10);
    expect(Object.fromEntries(r.results.map((x) => [x.slug, x.snippet]))).toEqual({ a: 'Notes on the tool.', b: '' });
  });
});
