/**
 * Where search finds a query's words in a page's text (`matchOffsets`) and the snippet it cuts around them
 * (`snippetAround`), word by word: a match starts and ends at a word boundary (letters and digits of any
 * case and script are word characters, punctuation is not), its surface forms are the stem less its last
 * letter and the US spellings, stop words never match, and the offsets come sorted. tests/core/search/engine.test.ts
 * holds the main promises; these were written against the mutants `npm run mutate` left (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { matchOffsets, snippetAround } from '../../../src/core/search/engine.ts';
import { termOf } from '../../../src/core/search/analyze.ts';

const at = (text: string, words: string[][], limit?: number) =>
  matchOffsets(
    text,
    words.map((g) => g.map(termOf)),
    limit,
  ).map((h) => [h.at, h.group]);

describe('word boundaries', () => {
  it('a letter or digit of any case before or after a match makes it part of another word', () => {
    for (const glued of ['xbill', 'Xbill', '0bill', '9bill', 'zbill', 'Zbill', 'ébill'])
      expect(at(`${glued} bill`, [['bill']]), glued).toEqual([[glued.length + 1, 0]]);
    for (const glued of ['billa', 'billZ', 'bill0', 'bill9', 'bill名'])
      expect(at(`${glued} bill`, [['bill']]), glued).toEqual([[glued.length + 1, 0]]);
  });

  it('punctuation on either side is a boundary: @, [, `, { and / are not word characters', () => {
    for (const p of ['@', '[', '`', '{', '/', ':', '-']) expect(at(`${p}bill${p}`, [['bill']]), p).toEqual([[1, 0]]);
  });

  it('a match at the very start and the very end of the text', () => {
    expect(at('bill', [['bill']])).toEqual([[0, 0]]);
    expect(at('a bill', [['bill']])).toEqual([[2, 0]]);
  });
});

describe('surface forms', () => {
  it('a stem longer than four letters matches its words without the last letter (story -> stori)', () => {
    expect(at('a story, two stories', [['stories']])).toEqual([
      [2, 0],
      [13, 0],
    ]);
    expect(at('the storage', [['storage']])).toEqual([[4, 0]]);
  });

  it('a stem of four letters or fewer is matched whole', () => {
    expect(at('the crew', [['crew']])).toEqual([[4, 0]]);
    expect(at('the cre', [['crew']])).toEqual([]);
  });

  it('US spellings of a stem match: -ize, -ter, -ense', () => {
    expect(at('we organize it', [['organise']])).toEqual([[3, 0]]);
    expect(at('the center', [['centre']])).toEqual([[4, 0]]);
    expect(at('a license', [['licence']])).toEqual([[2, 0]]);
  });

  it('a stop word sharing the prefix never matches; a word of another term neither', () => {
    expect(at('my myob', [['myob']])).toEqual([[3, 0]]);
    expect(at('billboard bill', [['bill']])).toEqual([[10, 0]]);
  });
});

describe('several groups, and a limit', () => {
  it('offsets of every group, sorted by place, each place once', () => {
    expect(at('crew quote crew', [['crew'], ['quote']])).toEqual([
      [0, 0],
      [5, 1],
      [11, 0],
    ]);
    expect(at('quote quote', [['quote', 'quotes']])).toEqual([
      [0, 0],
      [6, 0],
    ]);
  });

  it('looks only at the text before the limit, cut at a space', () => {
    expect(at('crew one crew two crew', [['crew']], 12)).toEqual([[0, 0]]);
    expect(at('crew one crew two crew', [['crew']], 13)).toEqual([
      [0, 0],
      [9, 0],
    ]);
    // No space before the limit: cut at the limit itself.
    expect(at('crew-crew-crew crew', [['crew']], 9)).toEqual([
      [0, 0],
      [5, 0],
    ]);
  });
});

describe('the snippet around a match', () => {
  const text = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '); // 149 characters

  it('a text within the size is whole; exactly the size too', () => {
    expect(snippetAround(text, 100, 149)).toBe(text);
    expect(snippetAround(text, 100, 200)).toBe(text);
  });

  it('starts a quarter of the size before the match, at a word, with ellipses where cut', () => {
    expect(snippetAround(text, 60, 40)).toBe('… w16 w17 w18 w19 w20 w21 w22 w23 w24 …');
    expect(snippetAround(text, 0, 40)).toBe('w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 …');
  });

  it('near the end it shows the last size characters', () => {
    expect(snippetAround(text, 145, 40)).toBe('… w30 w31 w32 w33 w34 w35 w36 w37 w38 w39');
  });
});
