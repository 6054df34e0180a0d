/**
 * The search index's parts value by value: page headings and bare titles (src/core/search/compact-index.ts),
 * the loaded index's checks and decoded scores, and the analyzer's US spellings, word splitting and synonym
 * list (src/core/search/analyze.ts). tests/core/search/*.test.ts hold the main promises; these were written
 * against the mutants `npm run mutate` left (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../src/core/content.ts';
import { analyze, analyzeSynonyms, auSpelling, termOf, words } from '../../src/core/search/analyze.ts';
import { bareTitle, buildIndex, headingsOf, SearchIndex } from '../../src/core/search/compact-index.ts';

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
  const data = buildIndex(
    pages([
      ['a', 'Crate hire', 'crate crate crate van', 'Crates for moving'],
      ['b', 'Boxes', 'crate word word word word word word word word'],
      ['c', 'Vans', 'van'],
      ['d', 'The | Kartage', 'van van'],
    ]),
  );

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

  it('a score is the idf times a level of 1 to 63 sixty-thirds, the highest level for the most crates', () => {
    const index = new SearchIndex(data);
    const id = index.termId(termOf('crate'))!;
    const idf = data.idf[id]! / 1000;
    const p = index.postings(id);
    expect([...p.docs]).toEqual([0, 1]);
    const levels = [...p.scores].map((s) => (s * 63) / idf);
    for (const l of levels) {
      expect(Math.abs(l - Math.round(l))).toBeLessThan(1e-4);
      expect(l).toBeGreaterThanOrEqual(1);
      expect(l).toBeLessThanOrEqual(63);
    }
    expect(levels[0]!).toBeGreaterThan(levels[1]!);
  });
});

describe('auSpelling', () => {
  it('four-letter US words and their inflections', () => {
    expect(auSpelling('odor')).toBe('odour');
    expect(auSpelling('odors')).toBe('odours');
    expect(auSpelling('gray')).toBe('grey');
  });

  it('-ize and -yze only for a whole word of letters', () => {
    expect(auSpelling('organize')).toBe('organise');
    expect(auSpelling('2digitize')).toBe('2digitize');
    expect(auSpelling('analyze')).toBe('analyse');
    expect(auSpelling('2analyze')).toBe('2analyze');
    expect(auSpelling('analyzer2')).toBe('analyzer2');
  });

  it('-er words written -re keep their plural s after the re', () => {
    expect(auSpelling('centers')).toBe('centres');
    expect(auSpelling('center')).toBe('centre');
    expect(auSpelling('centered')).toBe('centred');
  });

  it('kilometer and milliliter, whole words only', () => {
    expect(auSpelling('kilometers')).toBe('kilometres');
    expect(auSpelling('milliliter')).toBe('millilitre');
    expect(auSpelling('3kilometer')).toBe('3kilometer');
    expect(auSpelling('kilometers2')).toBe('kilometers2');
  });
});

describe('words', () => {
  it('U+FFFF is one character, not a word character', () => {
    expect(words('ab\uffffcd')).toEqual(['ab', 'cd']);
  });
});

describe('analyzeSynonyms', () => {
  it('keeps an entry whose short form is one term, with its long forms that are other terms', () => {
    expect(analyzeSynonyms([{ short: 'SSO', long: ['SSO', 'the', 'single sign-on', 'SSO login'] }])).toEqual([
      [termOf('sso'), [analyze('single sign-on'), analyze('SSO login')]],
    ]);
  });

  it('drops an entry of a stop word or two words, and one left without long forms', () => {
    expect(
      analyzeSynonyms([
        { short: 'the', long: ['crate van'] },
        { short: 'single sign', long: ['sso'] },
        { short: 'VAN', long: ['van', 'the'] },
      ]),
    ).toEqual([]);
  });
});
