/**
 * Search at its edges (src/core/search/engine.ts; tests/core/search/engine.test.ts holds its main promises):
 * match offsets in text whose folding changes its length (ß, İ, characters outside the BMP), a query of stop
 * words matched against titles with ties, and an index of more pages than the query's reusable buffers hold.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import { buildSearchIndex, loadSearchIndex, matchOffsets, searchSite } from '../../../src/core/search/engine.ts';
import { termOf } from '../../../src/core/search/analyze.ts';

const page = (slug: string, title: string, text: string): ContentPage => ({
  slug,
  title,
  url: `https://x.test/${slug}`,
  markdown: text,
  text,
  kind: 'page',
});

function site(pages: ContentPage[]) {
  const json = JSON.stringify(buildSearchIndex(pages));
  const content = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages }, () =>
    loadSearchIndex(json),
  );
  return { content, index: content.searchIndex() };
}

describe('match offsets where folding changes the length', () => {
  const billing = [[termOf('billing')]];

  it('after ß (two letters folded), İ (longer lower-cased) and an emoji, at the offset in the text', () => {
    expect(matchOffsets('Straße billing', billing).map((h) => h.at)).toEqual([7]);
    expect(matchOffsets('İstanbul billing', billing).map((h) => h.at)).toEqual([9]);
    expect(matchOffsets('🚚 billing and Straße billing', billing).map((h) => h.at)).toEqual([3, 22]);
  });

  it('a word that only starts like a match after a folded letter is no match', () => {
    expect(matchOffsets('Straßebilling billing', billing).map((h) => h.at)).toEqual([14]);
  });
});

describe('a query of stop words only', () => {
  it('pages whose title holds every word, the shortest title first, ties by slug, scored by the share', () => {
    const pages = [
      page('b-about', 'About us', 'Words.'),
      page('a-about', 'About us', 'Words.'),
      page('c-about', 'All about the team here', 'Words.'),
      page('other', 'Pricing', 'Words about prices.'),
    ];
    const { content, index } = site(pages);
    const r = searchSite({ content, index }, 'about', 10);
    expect(r.results.map((x) => [x.slug, x.score])).toEqual([
      ['a-about', 50],
      ['b-about', 50],
      ['c-about', 20],
    ]);
    expect(searchSite({ content, index }, 'about', 1).results.map((x) => x.slug)).toEqual(['a-about']);
    expect(searchSite({ content, index }, 'the', 10).results.map((x) => x.slug)).toEqual(['c-about']);
  });
});

describe('an index of more pages than the buffers first hold', () => {
  it('finds the pages holding both words among 1,500, best first, and counts them all', () => {
    const pages = Array.from({ length: 1500 }, (_, i) =>
      page(`p${String(i).padStart(4, '0')}`, `Page ${i}`, i % 2 ? 'storage billing' : 'storage only'),
    );
    const { content, index } = site(pages);
    const r = searchSite({ content, index }, 'storage billing', 5);
    expect(r.count).toBe(5);
    expect(r.results.map((x) => x.slug)).toEqual(['p0001', 'p0003', 'p0005', 'p0007', 'p0009']);
  });
});
