/**
 * Search's match offsets, surface forms and snippets (src/core/search/engine.ts, its first 200 lines), held where
 * the mutants `npm run mutate` left survived (bench/mutation.md). Some tests hold what the snippet does not
 * look for: a short stem is looked for whole and a US form is looked for only as -ize, -or, -ter or -ense, so
 * a word the index files under a term ("using" under "use") need not be a match in the text.
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import {
  bestSnippet,
  buildSearchIndex,
  loadSearchIndex,
  matchOffsets,
  searchSite,
  snippetAround,
} from '../../../src/core/search/engine.ts';
import { termOf } from '../../../src/core/search/analyze.ts';

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

describe('the snippet passage', () => {
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
