import { describe, expect, it } from 'vitest';
import type { PageKind } from '../../../src/contract/content.ts';
import type { ContentPage } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import {
  bestSnippet,
  buildSearchIndex,
  loadSearchIndex,
  matchOffsets,
  searchSite,
  snippetAround,
  fold,
} from '../../../src/core/search/engine.ts';
import { STOP_WORDS } from '../../../src/core/search/analyze.ts';

const mk = (slug: string, title: string, text: string, kind: PageKind = 'page'): ContentPage => ({
  slug,
  title: `${title} | Kartage`,
  url: `https://x.test/${slug}`,
  markdown: text,
  text,
  kind,
  description: `About ${title}`,
});
const pages = [
  mk(
    'product/storage',
    'Storage billing and warehouses',
    'Run storage billing for every vault and unit. Billing runs take minutes.',
  ),
  mk(
    'blog/billing',
    'Getting paid on time',
    'Invoices, deposits and storage billing explained for removalists in Brisbane.',
    'post',
  ),
  mk('about', 'About Kartage', 'Founded in Melbourne. Crème brûlée Fridays. Our team of sixty builds software.'),
  mk('quoting', 'Quoting', 'Cubic metre estimates, binding quotes and e-signature. Reducing disputes on the day.'),
  mk('reporting', 'Reporting', 'Truck utilisation and crew productivity by branch. Organised by week.'),
  mk(
    'security',
    'Security',
    'Staff sign in with single sign-on (SAML) and two-factor authentication. Data stays in Sydney.',
  ),
  mk('integrations', 'Integrations', 'Connect MYOB and Xero. Customers pay by card.'),
  mk('blog', 'The blog', 'Storage billing without the headaches. Getting paid on time for removals.', 'listing'),
  mk('customs', 'Customs clearance', 'Unaccompanied personal effects clear customs with the right documents.'),
].sort((a, b) => (a.slug < b.slug ? -1 : 1));
const synonyms = [
  { short: 'SSO', long: ['single sign-on'] },
  { short: 'UPE', long: ['unaccompanied personal effects'] },
];
const index = loadSearchIndex(JSON.stringify(buildSearchIndex(pages, synonyms)));
const content = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages }, () => index);
const search = (q: string, limit = 10) => searchSite({ content, index }, q, limit);
const slugs = (q: string) => search(q).results.map((x) => x.slug);

describe('searchSite', () => {
  it('requires every content word and ranks a title match first', () => {
    const r = search('storage billing');
    expect(r.results[0]!.slug).toBe('product/storage');
    expect(r.results.map((x) => x.slug)).toContain('blog/billing');
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
    expect(search('storage melbourne').count).toBe(0);
  });

  it('a word that is on no page gives no result, alone or beside words that are', () => {
    expect(search('zqxjkv').count).toBe(0);
    expect(search('storage zqxjkv').count).toBe(0);
    expect(search('🚚 ***').count).toBe(0);
  });

  it('matches word forms (Porter2 stems), not the middle of words, ignoring case and accents', () => {
    expect(slugs('bill')).toContain('product/storage'); // billing
    expect(slugs('reduce dispute')).toEqual(['quoting']); // reducing disputes
    expect(slugs('quote')).toEqual(['quoting']);
    expect(search('illing').count).toBe(0);
    expect(slugs('CREME BRULEE')).toEqual(['about']);
    expect(slugs('crème')).toEqual(['about']);
  });

  it('folds US spellings onto Australian ones', () => {
    expect(slugs('truck utilization')).toEqual(['reporting']);
    expect(slugs('organized')).toEqual(['reporting']);
    expect(slugs('cubic meters')).toEqual(['quoting']);
  });

  it('does not require stop words, and a stop word is not a prefix ("my" is not MYOB)', () => {
    expect(slugs('how do I get the storage billing')).toEqual(slugs('storage billing'));
    expect(slugs('my xero')).toEqual(['integrations']);
    expect(search('my').count).toBe(0);
    expect(search('the and of').count).toBe(0);
    for (const w of ['use', 'report', 'new', 'first', 'back']) expect(STOP_WORDS.has(w), w).toBe(false);
  });

  it('a query of stop words only finds the pages whose title holds them', () => {
    expect(slugs('about')).toEqual(['about']);
    expect(slugs('ABOUT!')).toEqual(['about']);
    expect(search('about the').count).toBe(0);
  });

  it('keeps customs and customers apart', () => {
    expect(slugs('customs')).toEqual(['customs']);
    expect(slugs('customers')).toEqual(['integrations']);
  });

  it('expands an abbreviation from the synonym list one way', () => {
    expect(slugs('sso')).toEqual(['security']);
    expect(slugs('upe documents')).toEqual(['customs']);
    expect(slugs('single sign-on')).toEqual(['security']);
  });

  it('puts a listing page below the pages it lists unless its title is the query', () => {
    const r = slugs('getting paid');
    expect(r.indexOf('blog/billing')).toBeLessThan(r.indexOf('blog'));
    expect(slugs('the blog')[0]).toBe('blog');
  });

  it('handles punctuation and unicode safely, returns integer scores and echoes q', () => {
    const r = search('e-signature!!');
    expect(r.results.map((x) => x.slug)).toEqual(['quoting']);
    expect(Number.isInteger(r.results[0]!.score)).toBe(true);
    expect(r.query).toBe('e-signature!!');
    expect(search('storage', 1).count).toBe(1);
  });

  it('scores never rise down the list', () => {
    for (const q of ['storage', 'billing', 'paid', 'kartage']) {
      const s = search(q).results.map((x) => x.score);
      expect(s).toEqual([...s].sort((a, b) => b - a));
    }
  });
});

describe('snippets', () => {
  it('are plain text around a match, cut on word boundaries', () => {
    const text = `${'word '.repeat(100)}target here ${'tail '.repeat(100)}`;
    const s = snippetAround(text, text.indexOf('target'));
    expect(s).toContain('target here');
    expect(s.length).toBeLessThanOrEqual(170);
    expect(s.startsWith('… word')).toBe(true);
    expect(s.endsWith('tail …')).toBe(true);
    expect(fold('Ærø ß')).toBe('ærø ss');
  });

  it('show the passage holding the most query words, not the first lone match', () => {
    const text = `Storage is mentioned here. ${'filler '.repeat(60)}Later: storage billing runs monthly. ${'more '.repeat(60)}`;
    const s = bestSnippet(text, [['storag'], ['bill']])!;
    expect(s).toContain('storage billing runs');
  });

  it('centre on content words, never on a stop word', () => {
    const text = `${'and the of '.repeat(40)}the crew app works offline. ${'to a '.repeat(40)}`;
    const s = bestSnippet(text, [['crew'], ['app']])!;
    expect(s).toContain('crew app works offline');
  });

  it('find accented words and word forms at their original offsets', () => {
    const pad = `${'é'.repeat(300)} ${'x '.repeat(300)}`;
    expect(matchOffsets(`${pad}Café billing`, [['cafe']]).map((h) => h.at)).toEqual([pad.length]);
    expect(matchOffsets('We reduced claims', [['reduc']]).map((h) => h.at)).toEqual([3]);
    expect(matchOffsets('unstorage only', [['storag']])).toEqual([]); // not at the start of a word
    expect(matchOffsets('Truck utilization', [['utilis']]).map((h) => h.at)).toEqual([6]);
    // Short stems whose last letter is the stemmer's i for a y: "citi" is "city", "copi" is "copy".
    expect(matchOffsets('the city and a copy', [['citi'], ['copi']])).toEqual([
      { at: 4, group: 0 },
      { at: 15, group: 1 },
    ]);
  });
});

describe('searchPartial (for the MCP tool when strict matching finds nothing)', () => {
  it('ranks pages by how many content words they hold and names the words no page holds', async () => {
    const { searchPartial } = await import('../../../src/core/search/engine.ts');
    expect(search('which storage billing plan suits a zqxjkv operator').count).toBe(0);
    const r = searchPartial({ content, index }, 'which storage billing plan suits a zqxjkv operator', 5);
    expect(r.results[0]!.slug).toBe('product/storage');
    expect(r.missing).toEqual(expect.arrayContaining(['zqxjkv', 'plan', 'suits', 'operator']));
    expect(r.matched).toEqual(['storage', 'billing']);
    expect(r.count).toBe(r.results.length);
    const scores = r.results.map((x) => x.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(searchPartial({ content, index }, 'zqxjkv', 5).count).toBe(0);
  });
});
