import { describe, expect, it } from 'vitest';
import { indexContent, type ContentPage } from '../../src/core/content.ts';
import { buildSearchIndex, loadSearchIndex, searchSite, snippetAround, fold } from '../../src/core/search.ts';

const mk = (slug: string, title: string, text: string): ContentPage => ({ slug, title, url: `https://x.test/${slug}`, markdown: text, text, description: `About ${title}` });
const pages = [
  mk('product/storage', 'Storage billing and warehouses', 'Run storage billing for every vault and unit. Billing runs take minutes.'),
  mk('blog/billing', 'Getting paid on time', 'Invoices, deposits and storage billing explained for removalists in Brisbane.'),
  mk('about', 'About Kartage', 'Founded in Melbourne. Crème brûlée Fridays. Our team of sixty builds software.'),
  mk('quoting', 'Quoting', 'Cubic metre estimates, binding quotes and e-signature.'),
].sort((a, b) => (a.slug < b.slug ? -1 : 1));
const content = indexContent({ origin: 'https://x.test', builtAt: '', files: [], pages });
const index = loadSearchIndex(JSON.stringify(buildSearchIndex(pages)));
const search = (q: string, limit = 10) => searchSite({ content, index }, q, limit);

describe('searchSite', () => {
  it('requires every term and ranks a title match first', () => {
    const r = search('storage billing');
    expect(r.results.map((x) => x.slug)).toEqual(['product/storage', 'blog/billing']);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
    expect(search('storage melbourne').count).toBe(0);
  });

  it('matches word prefixes but not the middle of words, and ignores case and accents', () => {
    expect(search('bill').results.map((x) => x.slug)).toContain('product/storage');
    expect(search('illing').count).toBe(0);
    expect(search('CREME BRULEE').results.map((x) => x.slug)).toEqual(['about']);
    expect(search('crème').results.map((x) => x.slug)).toEqual(['about']);
  });

  it('handles punctuation and unicode safely, returns integer scores and echoes q', () => {
    const r = search('e-signature!!');
    expect(r.results.map((x) => x.slug)).toEqual(['quoting']);
    expect(Number.isInteger(r.results[0]!.score)).toBe(true);
    expect(r.query).toBe('e-signature!!');
    expect(search('🚚 ***').count).toBe(0);
    expect(search('storage', 1).count).toBe(1);
  });

  it('snippets are plain text around the first match, cut on word boundaries', () => {
    const text = 'word '.repeat(100) + 'target here ' + 'tail '.repeat(100);
    const s = snippetAround(text, text.indexOf('target'));
    expect(s).toContain('target here');
    expect(s.length).toBeLessThanOrEqual(170);
    expect(s.startsWith('… word')).toBe(true);
    expect(s.endsWith('tail …')).toBe(true);
    expect(fold('Ærø ß')).toBe('ærø ss');
  });
});

describe('firstMatch (folded a window at a time)', () => {
  it('finds accented words and words that straddle a window edge, at their original offsets', async () => {
    const { firstMatch } = await import('../../src/core/search.ts');
    const pad = 'é'.repeat(300) + ' ' + 'x '.repeat(300);
    expect(firstMatch(`${pad}Café billing`, ['cafe'])).toBe(pad.length);
    for (const at of [505, 509, 511, 512, 513, 1030]) {
      const text = 'a'.repeat(at - 1) + ' storage billing';
      expect(firstMatch(text, ['storage']), `at ${at}`).toBe(at);
    }
    expect(firstMatch('unstorage only', ['storage'])).toBe(-1); // not at the start of a word
    expect(firstMatch('a'.repeat(511) + 'storage', ['storage'])).toBe(-1); // inside a longer word across the edge
  });
});
