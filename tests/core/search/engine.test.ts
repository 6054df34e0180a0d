/**
 * Site search (src/core/search/engine.ts): what searchSite and searchPartial answer on a small site, then the
 * ranking (the bounded top-k, the boosts, the listing rule, synonyms, ties), match offsets and surface forms,
 * and the snippet's passage and cut. Expected scores are BM25F computed from the pages' term counts
 * (helpers/search-score.ts) times the boosts the module documents.
 */
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
  rankPages,
  searchPartial,
} from '../../../src/core/search/engine.ts';
import { STOP_WORDS, termOf } from '../../../src/core/search/analyze.ts';
import type { SynonymEntry } from '../../../src/core/search/analyze.ts';
import { bm25fScorer, ranked, searchPage } from '../../helpers/search-score.ts';

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

const pg = searchPage;

function site(list: ContentPage[], synonyms: SynonymEntry[] = [], shown = list) {
  const pages = [...list].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const index = loadSearchIndex(JSON.stringify(buildSearchIndex(pages, synonyms)));
  const visible = [...shown].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const content = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages: visible }, () => index);
  return { index, content, score: bm25fScorer(pages) };
}

describe('the best candidates by BM25F score (a bounded heap)', () => {
  // 80 pages holding "crate" 1 to 5 times over fillers of 0 to 12 words, every fifth a blog post, and one page
  // at the address /a/crate that holds it least of all (its address boost would lift it above some).
  const pages = Array.from({ length: 80 }, (_, i) =>
    pg(
      `q/${String(i).padStart(2, '0')}`,
      `Page ${'abcdefghij'[i % 10]}`,
      `${'crate '.repeat(((i * 3) % 5) + 1)}${'word '.repeat((i * 2) % 13)}`,
      { kind: i % 5 === 0 ? 'post' : 'page' },
    ),
  );
  pages.push(pg('a/crate', 'Page last', `crate ${'word '.repeat(20)}`, { kind: 'post' }));
  const { index, score } = site(pages);
  const base = [...index.slugs.keys()]
    .map((doc) => ({
      doc,
      score: score('crate', doc) * Math.fround(index.kinds[doc] === 'post' ? 0.85 : 1),
    }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);

  it('the premise: ties at the 50th place, and the page at /a/crate (the first) scores least', () => {
    expect(base[49]!.score).toBe(base[50]!.score);
    expect(index.slugs[base[80]!.doc]).toBe('a/crate');
    expect(base[80]!.score).toBeLessThan(base[79]!.score);
  });

  it('returns the best pages by score times the section prior, ties by page order, for any limit', () => {
    expect(ranked(index, 'crate', 1)).toEqual(base.slice(0, 1));
    expect(ranked(index, 'crate', 7)).toEqual(base.slice(0, 7));
    expect(ranked(index, 'crate', 50)).toEqual(base.slice(0, 50));
    expect(ranked(index, 'crate', 60)).toEqual(base.slice(0, 60));
  });

  it('boosts only the candidates: the weakest page, boosted by its address, is not among 80 of 81', () => {
    expect(ranked(index, 'crate', 80)).toEqual(base.slice(0, 80));
    const all = ranked(index, 'crate', 100);
    const doc = base[80]!.doc;
    expect(all.find((r) => r.doc === doc)!.score).toBe(base[80]!.score * 1.5);
    expect(all).toHaveLength(81);
    expect(all.findIndex((r) => r.doc === doc)).toBeLessThan(80);
  });
});

describe('boosts for the query in the title, the description and the address', () => {
  const body = 'crate van';
  const { index, score } = site(
    [
      pg('aa/crate-van', 'Elsewhere', body),
      pg('p-a', 'Crate van hire', body, { description: 'Something else' }),
      pg('p-b', 'Other thing', body, { description: 'Crate van rentals' }),
      pg('p-c', 'Van and crate', body, { description: 'Nothing' }),
      pg('p-d', 'Crate van', body, { description: 'Dee' }),
      pg('p-e', 'Plain', body, { description: 'Plain' }),
      pg('p-f', 'Crate yard', body, { description: 'Van parking' }),
      pg('p-g', 'Hire', body, { description: 'Van crate rentals' }),
      pg('p-h', 'Crate moving', body, { description: 'Yard' }),
      pg('p-i', 'Crate', body, { description: 'Moving day' }),
      pg('p/crate', 'Kay', body),
      pg('p/crate-yard', 'Ell', body),
    ],
    [{ short: 'van', long: ['moving truck'] }],
  );
  const boosts = (q: string) => {
    const words = q.split(' ');
    return Object.fromEntries(
      ranked(index, q, 20).map((r) => {
        const bm25 = words.length === 1 ? score(q, r.doc) : Math.fround(words.reduce((s, w) => s + score(w, r.doc), 0));
        return [index.slugs[r.doc], Math.round((r.score / bm25) * 1e6) / 1e6];
      }),
    );
  };

  // 1 + (0.5 x words in the title + 0.5 x words in the title or description) / words, x 1.3 for the query in
  // order in the title or description, x 1.5 for a title of the query's words only, x 1.5 for such an address.
  it('two words: title and description shares, the phrase in order, a title or address that is the query', () => {
    expect(boosts('crate van')).toEqual({
      'aa/crate-van': 1.5,
      'p-a': 2.6,
      'p-b': 1.95,
      'p-c': 3,
      'p-d': 3.9,
      'p-e': 1,
      'p-f': 1.75,
      'p-g': 1.5,
      'p-h': 1.5,
      'p-i': 1.5,
      'p/crate': 1,
      'p/crate-yard': 1,
    });
  });

  it('one word: no phrase boost; x 1.5 for a title or an address of that word alone', () => {
    expect(boosts('crate')).toEqual({
      'aa/crate-van': 1,
      'p-a': 2,
      'p-b': 1.5,
      'p-c': 2,
      'p-d': 2,
      'p-e': 1,
      'p-f': 2,
      'p-g': 1.5,
      'p-h': 2,
      'p-i': 3,
      'p/crate': 1.5,
      'p/crate-yard': 1,
    });
  });

  it('ranks by boosted score, ties in page order', () => {
    const order = ranked(index, 'crate van', 20).map((r) => index.slugs[r.doc]);
    const scores = ranked(index, 'crate van', 20).map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const ties = order.filter((s) => s === 'p-e' || s === 'p/crate' || s === 'p/crate-yard');
    expect(ties).toEqual(['p-e', 'p/crate', 'p/crate-yard']);
  });

  it('a word repeated in the query counts once', () => {
    expect(ranked(index, 'crate crate van', 20)).toEqual(ranked(index, 'crate van', 20));
    expect(ranked(index, 'crate crate', 20)).toEqual(ranked(index, 'crate', 20));
  });
});

describe('a listing page and the pages it lists', () => {
  const { index, score } = site([
    pg('blog', 'Van news', 'crate crate crate crate crate van van van newsroom newsroom newsroom', { kind: 'listing' }),
    pg('blog/a', 'Alpha', 'crate crate crate van van word', { kind: 'post' }),
    pg('blog/b', 'Beta', `crate van ${'word '.repeat(30)}`, { kind: 'post' }),
    pg('guides', 'Guides', 'crate crate crate crate crate newsroom'),
    pg('guides/x', 'Ex', 'crate van word word'),
    pg('other', 'Other', `crate crate van newsroom ${'word '.repeat(10)}`),
    pg('zeta', 'Zeta', `crate van ${'word '.repeat(60)}`),
  ]);
  const slugsOf = (q: string) => ranked(index, q, 10).map((r) => index.slugs[r.doc]);

  it('the premise: by BM25F alone the folder page and the listing come first, the listed posts later', () => {
    const bm25 = (doc: number) => score('crate', doc) * Math.fround(index.kinds[doc] === 'post' ? 0.85 : 1);
    const docs = [...index.slugs.keys()].sort((a, b) => bm25(b) - bm25(a) || a - b);
    expect(docs.map((d) => index.slugs[d])).toEqual([
      'guides',
      'blog',
      'blog/a',
      'other',
      'guides/x',
      'blog/b',
      'zeta',
    ]);
  });

  it('goes just below the last page of its own that matched, at that page score', () => {
    const r = ranked(index, 'crate', 10);
    expect(r.map((x) => index.slugs[x.doc])).toEqual([
      'guides',
      'blog/a',
      'other',
      'guides/x',
      'blog/b',
      'blog',
      'zeta',
    ]);
    expect(r[5]!.score).toBe(r[4]!.score);
  });

  it('also when its title holds one word of the query but not all; stays when it holds them all', () => {
    const two = slugsOf('crate van');
    expect(two.indexOf('blog')).toBe(two.indexOf('blog/b') + 1);
    expect(slugsOf('van')[0]).toBe('blog');
  });

  it('stays where it is when none of its pages matched', () => {
    expect(slugsOf('newsroom')).toEqual(['blog', 'guides', 'other']);
  });
});

describe('synonyms: either form of a word, the better score kept', () => {
  const { index, score } = site(
    [
      pg('s-1', 'One', 'sso login'),
      pg('s-2', 'Two', 'single sign-on login'),
      pg('s-3', 'Three', 'sso and single sign-on login'),
      pg('s-4', 'Four', 'single login'),
      pg('s-5', 'Five', 'sign login'),
      pg('s-6', 'Six', 'sso sso sso login'),
    ],
    [{ short: 'SSO', long: ['single sign-on', 'zqxjkv login', 'login zqxjkv'] }],
  );
  const doc = (slug: string) => index.slugs.indexOf(slug);
  const phrase = (d: number) => Math.fround(score('single', d) + score('sign', d));

  it('a page holding the abbreviation or every word of its long form, scored by the better of the two', () => {
    const r = ranked(index, 'sso', 10);
    const expected = [
      { doc: doc('s-1'), score: score('sso', doc('s-1')) },
      { doc: doc('s-2'), score: phrase(doc('s-2')) },
      { doc: doc('s-3'), score: Math.max(score('sso', doc('s-3')), phrase(doc('s-3'))) },
      { doc: doc('s-6'), score: score('sso', doc('s-6')) },
    ].sort((a, b) => b.score - a.score || a.doc - b.doc);
    expect(r).toEqual(expected);
  });
});

describe('rankPages with nothing to rank', () => {
  const { index } = site([pg('a', 'A page', 'crate here'), pg('b', 'B page', 'van here')]);
  it('no clauses, a word on no page, or words on no page together: no pages', () => {
    expect(rankPages(index, [], 10)).toEqual([]);
    expect(ranked(index, 'zqxjkv', 10)).toEqual([]);
    expect(ranked(index, 'crate van', 10)).toEqual([]);
  });
});

describe('an index of more pages than one buffer holds, and far-apart pages', () => {
  // 2,100 pages, two words of its own on each; "crate van" on 1,200 of them, best on the last.
  const pages = Array.from({ length: 2100 }, (_, i) =>
    pg(
      `p${String(i).padStart(4, '0')}`,
      'Page',
      [
        `k${i}a k${i}b`,
        i === 2099 ? 'crate crate crate van van van' : i >= 900 ? 'crate van word' : 'word',
        i === 0 || i === 2099 ? 'rare' : '',
      ].join(' '),
    ),
  );
  const { index } = site(pages);

  it('finds the best of 1,200 pages holding both words', () => {
    expect(ranked(index, 'crate van', 1).map((r) => r.doc)).toEqual([2099]);
  });

  it('a word on the first and the last page only finds both', () => {
    expect(
      ranked(index, 'rare', 10)
        .map((r) => r.doc)
        .sort((a, b) => a - b),
    ).toEqual([0, 2099]);
  });

  it('each page is found by its own words (4,200 terms)', () => {
    const wrong: number[] = [];
    for (let i = 0; i < 2100; i++) {
      const r = ranked(index, `k${i}a k${i}b`, 2);
      if (r.length !== 1 || r[0]!.doc !== i) wrong.push(i);
    }
    expect(wrong).toEqual([]);
    expect(ranked(index, 'page', 3000)).toHaveLength(2100);
  });

  it('every page titled alike scores alike for its title word, on either side of the 4,096th term', () => {
    const scores = index.postings(index.termId(termOf('page'))!).scores;
    expect(scores).toHaveLength(2100);
    expect(new Set(scores).size).toBe(1);
  });
});

describe('match offsets', () => {
  it('an accented word after a letter that folds longer (ß) is found at its offset', () => {
    expect(matchOffsets('Straße Café billing', [[termOf('cafe')]])).toEqual([{ at: 7, group: 0 }]);
  });

  it('the US form of an -our word is found (favorite for favourite)', () => {
    expect(matchOffsets('my favorite crate', [[termOf('favourite')]])).toEqual([{ at: 3, group: 0 }]);
  });

  it('a word cut by the limit is left out, not read as a shorter word', () => {
    expect(matchOffsets('our customers', [[termOf('custom')]], 10)).toEqual([]);
    expect(matchOffsets('our custom', [[termOf('custom')]])).toEqual([{ at: 4, group: 0 }]);
  });
});

describe('a query of stop words only: the score and the title it reads', () => {
  const { index, content } = site([
    pg('a-about', 'About us', 'Words.'),
    pg('b-about', 'About us', 'Words.'),
    pg('c', 'Team', 'Words.'),
  ]);
  const titled = (titles: [string, string][]) => {
    const list = titles.map(([slug, title]) => ({ ...pg(slug, 'x', 'Words.'), title }));
    return site(list);
  };

  it('ties by slug, scored 100 x words / title words', () => {
    const r = searchSite({ content, index }, 'about us', 10);
    expect(r.results.map((x) => [x.slug, x.score])).toEqual([
      ['a-about', 100],
      ['b-about', 100],
    ]);
  });

  it('the site suffix after the last " | " is not part of the title', () => {
    const s = titled([
      ['a', 'A | about | Kartage'],
      ['b', 'Our team | About'],
      ['c', 'Was | Kartage'],
    ]);
    const slugs = (q: string) => searchSite(s, q, 10).results.map((x) => x.slug);
    expect(slugs('about')).toEqual(['a']);
    expect(slugs('was')).toEqual(['c']);
  });
});

describe('the snippet passage', () => {
  const two = [[termOf('crate')], [termOf('van')]];

  it('is found past the first 2 KiB of a long page', () => {
    const text = `${'filler '.repeat(400)}crate van here.`;
    expect(bestSnippet(text, two)).toContain('crate van here.');
  });

  it('holds both words past 2 KiB rather than one word before', () => {
    const text = `crate ${'filler '.repeat(400)}crate van here. ${'tail '.repeat(10)}`;
    expect(bestSnippet(text, two)).toContain('crate van here.');
  });

  it('holds words at most 112 characters apart (0.7 of the size)', () => {
    const text = `crate ${'x '.repeat(72)}van ${'filler '.repeat(100)}crate van pair ${'tail '.repeat(50)}`;
    expect(text.indexOf('van')).toBe(150);
    const s = bestSnippet(text, two)!;
    expect(s).toContain('crate van pair');
    expect(s.startsWith('… ')).toBe(true);
  });

  it('a window is less than 112 characters wide: 111 apart is one passage, 112 apart two', () => {
    const near = `crate ${'x '.repeat(52)} van ${'filler '.repeat(100)}crate van pair ${'tail '.repeat(50)}`;
    const far = `crate ${'x '.repeat(53)}van ${'filler '.repeat(100)}crate van pair ${'tail '.repeat(50)}`;
    expect([near.indexOf('van'), far.indexOf('van')]).toEqual([111, 112]);
    expect(bestSnippet(near, two)!.startsWith('crate x x')).toBe(true);
    expect(bestSnippet(far, two)).toContain('crate van pair');
  });

  it('counts a word repeated as one', () => {
    const text = `crate crate crate ${'filler '.repeat(50)}crate van pair ${'tail '.repeat(50)}`;
    const s = bestSnippet(text, two)!;
    expect(s).toContain('crate van pair');
    expect(s.startsWith('… ')).toBe(true);
  });

  it('forgets a word once the window has passed it', () => {
    const text = `crate ${'filler '.repeat(30)}van ${'filler '.repeat(30)}crate van pair ${'tail '.repeat(50)}`;
    expect(bestSnippet(text, two)).toContain('crate van pair');
  });

  it('keeps a word the window still holds twice', () => {
    const text = `crate ${'w '.repeat(47)}crate ${'w '.repeat(22)}van ${'tail '.repeat(60)}`;
    expect([text.indexOf('crate', 1), text.indexOf('van')]).toEqual([100, 150]);
    const s = bestSnippet(text, two)!;
    expect(s.startsWith('… w w')).toBe(true);
    expect(s).toContain('crate w w');
  });

  it('of equal passages, the earliest', () => {
    const text = `crate ${'filler '.repeat(40)}crate ${'tail '.repeat(40)}`;
    expect(bestSnippet(text, [[termOf('crate')]])!.startsWith('crate filler')).toBe(true);
  });
});

describe('the snippet cut', () => {
  it('a text within the size is returned as it is, spaces and all', () => {
    expect(snippetAround('  two words  ', 2)).toBe('  two words  ');
    const full = ` ${'a'.repeat(158)} `;
    expect(snippetAround(full, 10)).toBe(full);
  });

  it('a match near the start: from the first word, no ellipsis before', () => {
    const text = `alpha beta ${'word '.repeat(60)}`;
    expect(snippetAround(text, 6).startsWith('alpha beta word')).toBe(true);
  });

  it('no space between the start and the match: cut inside the word before it', () => {
    const text = `${'a '.repeat(50)}${'x'.repeat(60)}/target rest ${'tail '.repeat(60)}`;
    expect(snippetAround(text, text.indexOf('target')).startsWith(`… ${'x'.repeat(39)}/target rest`)).toBe(true);
    const bare = `a b ${'x'.repeat(300)}`;
    expect(snippetAround(bare, 200)).toBe(`… ${'x'.repeat(160)}`);
  });

  it('a match near the end: to the very end, no ellipsis after', () => {
    const text = `${'word '.repeat(60)}final words here`;
    expect(snippetAround(text, 300)).toBe(`… ${'word '.repeat(28)}final words here`);
  });

  it('a match in a word running past the end of the window: cut inside it', () => {
    const text = `${'word '.repeat(60)}target${'x'.repeat(300)}`;
    expect(snippetAround(text, 300)).toBe(`… ${'word '.repeat(7)}target${'x'.repeat(114)} …`);
  });

  it('double spaces at the cut are trimmed', () => {
    const text = 'ab  '.repeat(100);
    expect(snippetAround(text, 200)).toBe(`… ${'ab  '.repeat(38)}ab …`);
  });
});

describe('searchSite results', () => {
  const pages = [
    pg('a', 'Crate hire', 'Plain words only.', {
      description: 'Hire crates by the week.',
      markdown_url: 'https://x.test/a.md',
    }),
    pg('b', 'Boxes', `Boxes and tape. ${'word '.repeat(40)}A crate for every move.`),
    pg('c', 'Crate guide', 'Nothing relevant here at all.'),
  ];
  const { index, content } = site(pages);

  it('a snippet around the match in the text, else the description, else the start of the text', () => {
    const r = searchSite({ content, index }, 'crate', 10);
    const bySlug = Object.fromEntries(r.results.map((x) => [x.slug, x.snippet]));
    expect(bySlug.b!.startsWith('… ')).toBe(true);
    expect(bySlug).toEqual({
      a: 'Hire crates by the week.',
      b: snippetAround(pages[1]!.text, pages[1]!.text.indexOf('crate')),
      c: 'Nothing relevant here at all.',
    });
  });

  it('markdown_url only for a page that has one', () => {
    const r = searchSite({ content, index }, 'crate', 10);
    const keys = Object.fromEntries(r.results.map((x) => [x.slug, Object.keys(x).sort()]));
    expect(keys.a).toEqual(['markdown_url', 'score', 'slug', 'snippet', 'title', 'url']);
    expect(keys.b).toEqual(['score', 'slug', 'snippet', 'title', 'url']);
  });

  it('a page the index holds but the content does not is left out', () => {
    const partial = site(pages, [], pages.slice(0, 2));
    const r = searchSite(partial, 'crate', 10);
    expect(r.results.map((x) => x.slug).sort()).toEqual(['a', 'b']);
    expect(r.count).toBe(2);
  });
});

describe('searchPartial results', () => {
  const {
    index,
    content,
    score: bm25f,
  } = site([
    pg('both', 'Both', `Start here. ${'word '.repeat(40)}crate and van ${'word '.repeat(10)}`),
    pg('one', 'One', 'crate crate crate crate', { kind: 'post' }),
    pg('two', 'Two', 'van van'),
    pg('tri', 'Crates galore', 'Nothing to see.', { description: 'All about crates.' }),
  ]);
  const q = 'crates vans flumps flump crate';

  it('pages holding more of the words first, scored BM25F x prior x (share held)², in points', () => {
    const r = searchPartial({ content, index }, q, 10);
    const doc = (s: string) => index.slugs.indexOf(s);
    const score = (s: string, held: number) => {
      const d = doc(s);
      const sum = bm25f('crate', d) + bm25f('van', d);
      return Math.round(sum * (index.kinds[d] === 'post' ? 0.85 : 1) * (held / 2) ** 2 * 100);
    };
    expect(r.results[0]!.slug).toBe('both');
    const expected = Object.fromEntries([
      ['both', score('both', 2)],
      ['one', score('one', 1)],
      ['two', score('two', 1)],
      ['tri', score('tri', 1)],
    ]);
    expect(Object.fromEntries(r.results.map((x) => [x.slug, x.score]))).toEqual(expected);
    const scores = r.results.map((x) => x.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('names matched words as first typed, per result and in all, and the missing ones', () => {
    const r = searchPartial({ content, index }, q, 10);
    expect(Object.fromEntries(r.results.map((x) => [x.slug, x.matched]))).toEqual({
      both: ['crates', 'vans'],
      one: ['crates'],
      two: ['vans'],
      tri: ['crates'],
    });
    expect(r.matched).toEqual(['crates', 'vans']);
    expect(r.missing).toEqual(['flumps']);
    expect(searchPartial({ content, index }, 'crates', 10).missing).toEqual([]);
  });

  it('a page the index holds but the content does not is left out', () => {
    const shown = content.entries().filter((e) => e.slug !== 'one');
    const partial = {
      index,
      content: { ...content, entries: () => shown, entry: (slug: string) => shown.find((e) => e.slug === slug) },
    };
    const r = searchPartial(partial, q, 10);
    expect(r.results.map((x) => x.slug).sort()).toEqual(['both', 'tri', 'two']);
    expect(r.count).toBe(3);
  });

  it('snippets from the text, else the description; the limit is a count of real pages', () => {
    const r = searchPartial({ content, index }, q, 4);
    expect(r.count).toBe(4);
    const bySlug = Object.fromEntries(r.results.map((x) => [x.slug, x.snippet]));
    const both = `Start here. ${'word '.repeat(40)}crate and van ${'word '.repeat(10)}`;
    expect(bySlug.both).toBe(snippetAround(both, both.indexOf('crate')));
    expect(bySlug.both).toContain('crate and van');
    expect(bySlug.tri).toBe('All about crates.');
    expect(bySlug.two).toBe('van van');
  });
});

/** Offsets and groups of the matches, the groups given as raw index terms. */
const at = (text: string, groups: string[][]) => matchOffsets(text, groups).map((h) => [h.at, h.group]);

describe('folding a text keeps what the analyzer makes of its words', () => {
  it('a Greek word ending in a capital sigma is found by its term (final sigma, as the analyzer folds it)', () => {
    expect(termOf('οδος')).toBe('οδος');
    expect(at('ΟΔΟΣ', [['οδος']])).toEqual([[0, 0]]);
    expect(at('Η ΟΔΟΣ', [['οδος']])).toEqual([[2, 0]]);
  });
});

describe('surface forms a term is looked for by', () => {
  it('a stem longer than four letters without its last letter: "possibility" for possibl', () => {
    expect(termOf('possibility')).toBe('possibl');
    expect(at('the possibility', [['possibl']])).toEqual([[4, 0]]);
  });

  it('the -ense form of an -ence stem inside the word: "defenseless" for defenceless', () => {
    expect(termOf('defenseless')).toBe('defenceless');
    expect(at('a defenseless van', [['defenceless']])).toEqual([[2, 0]]);
  });

  it('the stem itself, when every US replacement would change it', () => {
    expect(termOf('pourisenctry')).toBe('pourisenctri');
    expect(at('pourisenctry', [['pourisenctri']])).toEqual([[0, 0]]);
  });

  it('-iz for an -is inside the stem, and no form with the -is left out', () => {
    expect(termOf('sizing')).toBe('size');
    // sisine's form "sizin" starts "sizing", a word of the group's other term.
    expect(at('sizing', [['sisine', 'size']])).toEqual([[0, 0]]);
  });

  it('a stem of four letters or fewer, not ending in i, is looked for whole: "usual" is no match of use', () => {
    expect([termOf('usual'), termOf('movie')]).toEqual(['usual', 'movi']);
    // Shortened, "us" and "mov" would start "usual" and "movie": words the page does not hold.
    expect(at('usual movie', [['use'], ['move']])).toEqual([]);
    expect(at('use move', [['use'], ['move']])).toEqual([
      [0, 0],
      [4, 1],
    ]);
  });

  it('a two-letter term ending in i whole: "ai" does not stand for every word starting with a', () => {
    expect(termOf('aluminum')).toBe('aluminium');
    expect(at('aluminum', [['ai', 'aluminium']])).toEqual([]);
    expect(at('aluminium', [['ai', 'aluminium']])).toEqual([[0, 0]]);
  });

  it('a long stem less its last letter only, never its first letter alone: "apple" is no match of aluminium', () => {
    expect(at('apple aluminium', [['aluminium']])).toEqual([[6, 0]]);
  });

  it('-ter only for a final tr: "trin" is not looked for as "terin"', () => {
    expect(termOf('tering')).toBe('tere');
    expect(at('tering', [['trin', 'tere']])).toEqual([]);
  });

  it('-ter for a final tr, never the stem with the tr dropped: litr is not looked for as "li"', () => {
    expect(termOf('lining')).toBe('line');
    expect(at('lining', [['litr', 'line']])).toEqual([]);
    expect(at('liter lining', [['litr', 'line']])).toEqual([[0, 0]]);
  });
});

describe('the snippet cut around an offset on a space', () => {
  // 50 x, a space at 50, 100 y: with size 40 the window is 40..80.
  const text = `${'x'.repeat(50)} ${'y'.repeat(100)}`;

  it('moves its start only to a word starting before the offset, its end only to a space after it', () => {
    expect(snippetAround(text, 50, 40)).toBe(`… ${'x'.repeat(10)} ${'y'.repeat(29)} …`);
  });
});

describe('the snippet passage: a word held twice, a text without spaces', () => {
  it('counts a word twice in one window as one: the earliest window holding it wins', () => {
    const text = `crate ${'filler '.repeat(30)}crate crate ${'tail '.repeat(40)}`;
    expect(bestSnippet(text, [[termOf('crate')]])).toBe(snippetAround(text, 0));
    expect(snippetAround(text, 0)).toBe(`crate ${'filler '.repeat(21)}filler …`);
  });

  it('a text without a space in its first 2 KiB: a passage with every word there ends the search', () => {
    // "van" ends at the 2,048th character, the first part of "vanilla": read as van in the first step.
    const head = `crate-${'w-'.repeat(1016)}-crate-`;
    const text = `${head}vanilla-${'w-'.repeat(200)}`;
    expect(head.length + 3).toBe(2048);
    const two = [[termOf('crate')], [termOf('van')]];
    const x = head.length - 6;
    expect(bestSnippet(text, two)).toBe(`… ${text.slice(x - 40, x + 120)} …`);
  });
});

describe('the lead snippet', () => {
  it('a page without a description or a text to cut from answers with an empty snippet', () => {
    const page: ContentPage = {
      slug: 'a',
      title: 'Crate hire | Kartage',
      url: 'https://x.test/a',
      markdown: 'crate',
      text: 'crate',
      kind: 'page',
    };
    const index = loadSearchIndex(JSON.stringify(buildSearchIndex([page])));
    const data = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages: [page] }, () => index);
    const content = {
      entries: () => data.entries(),
      entry: (s: string) => data.entry(s),
      snippetText: () => undefined,
    };
    const r = searchSite({ content, index }, 'crate', 10);
    expect(r.results.map((x) => [x.slug, x.snippet])).toEqual([['a', '']]);
    expect(searchSite({ content, index }, 'about', 10).results).toEqual([]);
  });
});

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
  const { index, score } = site(pages);
  const base = [...index.slugs.keys()]
    .map((doc) => ({ doc, score: score('crate', doc) }))
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
  const { index, score } = site(pages);
  const f = Math.fround;
  const sum = (doc: number, order: string[]) =>
    order.reduce((s, w, k) => (k ? f(s + score(w, doc)) : score(w, doc)), 0);
  const docs = [...index.slugs.keys()].filter((d) => score('yard', d) > 0);
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
  const { index, score } = site([
    pg('a/crate', 'Alpha', `crate ${'word '.repeat(6)}`),
    pg('b', 'Beta', `${'crate '.repeat(3)}${'word '.repeat(7)}`),
    pg('c', 'Gamma', 'other words here'),
    pg('d', 'Delta', 'more other words'),
  ]);

  it('the premise: by the word alone /b scores half as much again as /a/crate', () => {
    expect(score('crate', 1)).toBe(score('crate', 0) * 1.5);
  });

  it('go in page order: the boosted page, now level, first', () => {
    const r = ranked(index, 'crate', 10);
    expect(r).toEqual([
      { doc: 0, score: score('crate', 1) },
      { doc: 1, score: score('crate', 1) },
    ]);
  });
});

describe('searchPartial order and matched words', () => {
  // "crate" and "van" on two pages each, with the same score on the one-word pages /b (van) and /c (crate).
  const { index, content, score } = site([
    pg('a', 'Alpha', 'crate van word'),
    pg('b', 'Beta', 'van word word'),
    pg('c', 'Gamma', 'crate word word'),
  ]);
  const d = { index, content };

  it('the premise: /b and /c score alike for their one word', () => {
    expect(score('van', 1)).toBe(score('crate', 2));
  });

  it('the page holding both words first, then ties in page order, though /c was found first', () => {
    const r = searchPartial(d, 'crate van', 10);
    const both = Math.round(Math.fround(score('crate', 0) + score('van', 0)) * 100);
    const one = Math.round(score('van', 1) * 0.25 * 100);
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

/** A page as given: its title without the site suffix. */
const barePage = (slug: string, title: string, text: string): ContentPage => ({
  slug,
  title,
  url: `https://x.test/${slug}`,
  markdown: text,
  text,
  kind: 'page',
});

/** The pages in the order given, the index loaded through the content source. */
function bareSite(pages: ContentPage[]) {
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
      barePage('b-about', 'About us', 'Words.'),
      barePage('a-about', 'About us', 'Words.'),
      barePage('c-about', 'All about the team here', 'Words.'),
      barePage('other', 'Pricing', 'Words about prices.'),
    ];
    const { content, index } = bareSite(pages);
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
      barePage(`p${String(i).padStart(4, '0')}`, `Page ${i}`, i % 2 ? 'storage billing' : 'storage only'),
    );
    const { content, index } = bareSite(pages);
    const r = searchSite({ content, index }, 'storage billing', 5);
    expect(r.count).toBe(5);
    expect(r.results.map((x) => x.slug)).toEqual(['p0001', 'p0003', 'p0005', 'p0007', 'p0009']);
  });
});
