/**
 * Search's ranking and snippets held value by value (src/core/search/engine.ts): the bounded top-k of the BM25F
 * matches, the title, description, phrase and address boosts, the listing rule, synonym unions, the snippet
 * passage and its cut, what searchSite and searchPartial answer with. tests/core/search/engine.test.ts holds the main
 * promises; these were written against the mutants `npm run mutate` left (bench/mutation.md). Expected scores
 * come from the index's own postings (the BM25F part) times the boosts the module documents.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import {
  bestSnippet,
  buildSearchIndex,
  loadSearchIndex,
  matchOffsets,
  rankPages,
  searchPartial,
  searchSite,
  snippetAround,
} from '../../../src/core/search/engine.ts';
import { termOf } from '../../../src/core/search/analyze.ts';
import type { SynonymEntry } from '../../../src/core/search/analyze.ts';
import { ranked, searchPage, wordScore } from '../../helpers/search-score.ts';

const pg = searchPage;

function site(list: ContentPage[], synonyms: SynonymEntry[] = [], shown = list) {
  const pages = [...list].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const index = loadSearchIndex(JSON.stringify(buildSearchIndex(pages, synonyms)));
  const visible = [...shown].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const content = contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages: visible }, () => index);
  return { index, content };
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
  const { index } = site(pages);
  const base = [...index.slugs.keys()]
    .map((doc) => ({
      doc,
      score: wordScore(index, 'crate', doc) * Math.fround(index.kinds[doc] === 'post' ? 0.85 : 1),
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
  const { index } = site(
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
        const bm25 =
          words.length === 1
            ? wordScore(index, q, r.doc)
            : Math.fround(words.reduce((s, w) => s + wordScore(index, w, r.doc), 0));
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
  const { index } = site([
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
    const bm25 = (doc: number) => wordScore(index, 'crate', doc) * Math.fround(index.kinds[doc] === 'post' ? 0.85 : 1);
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
  const { index } = site(
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
  const phrase = (d: number) => Math.fround(wordScore(index, 'single', d) + wordScore(index, 'sign', d));

  it('a page holding the abbreviation or every word of its long form, scored by the better of the two', () => {
    const r = ranked(index, 'sso', 10);
    const expected = [
      { doc: doc('s-1'), score: wordScore(index, 'sso', doc('s-1')) },
      { doc: doc('s-2'), score: phrase(doc('s-2')) },
      { doc: doc('s-3'), score: Math.max(wordScore(index, 'sso', doc('s-3')), phrase(doc('s-3'))) },
      { doc: doc('s-6'), score: wordScore(index, 'sso', doc('s-6')) },
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

describe('a query of stop words only', () => {
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
  const { index, content } = site([
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
      const sum = wordScore(index, 'crate', d) + wordScore(index, 'van', d);
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
