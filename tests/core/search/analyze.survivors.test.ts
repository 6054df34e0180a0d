/**
 * The analyzer's memos and lookups (src/core/search/analyze.ts), written against the mutants `npm run mutate`
 * left (bench/mutation.md): a word's term is stemmed once (and the memo is emptied past 200,000 words), each
 * code point outside ASCII is classified once by its Unicode class while ASCII is read from a table, and the
 * US-spelling table answers only for its own words.
 *
 * The memos live in the module, so each test that counts loads it afresh (vi.resetModules()), with the
 * stemmer wrapped to record the words it is given.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auSpelling, words } from '../../../src/core/search/analyze.ts';

type Stem = (w: string) => string;

/** The analyzer, loaded afresh (empty memos), and the words its stemmer is asked for, in order. */
const loadCountingStems = async () => {
  vi.resetModules();
  const stemmed: string[] = [];
  vi.doMock('wink-porter2-stemmer', async (importOriginal) => {
    const real = (await importOriginal<{ default: Stem }>()).default;
    return {
      default: (w: string) => {
        stemmed.push(w);
        return real(w);
      },
    };
  });
  const analyzer = await import('../../../src/core/search/analyze.ts');
  return { ...analyzer, stemmed };
};

afterEach(() => {
  vi.doUnmock('wink-porter2-stemmer');
  vi.restoreAllMocks();
});

describe('termOf is memoised', () => {
  it('stems a word once, however often its term is asked for', async () => {
    const { termOf, stemmed } = await loadCountingStems();
    expect(termOf('reducing')).toBe('reduc');
    expect(termOf('reducing')).toBe('reduc');
    expect(termOf('quotes')).toBe('quot');
    expect(termOf('reducing')).toBe('reduc');
    expect(stemmed).toEqual(['reducing', 'quotes']);
  });

  it('keeps 200,001 words, and empties the memo for the word after them', async () => {
    const { termOf, stemmed } = await loadCountingStems();
    termOf('moving');
    // Words without a letter are memoised as they are (no stemming): 199,999 of them fill the memo to 200,000.
    for (let i = 0; i < 199_999; i++) termOf(String(i));
    expect(termOf('quotes')).toBe('quot'); // the 200,001st word: still kept with the others
    expect(termOf('moving')).toBe('move'); // from the memo
    expect(stemmed).toEqual(['moving', 'quotes']);
    expect(termOf('storage')).toBe('storag'); // the memo holds 200,001: emptied before this one is kept
    expect(termOf('moving')).toBe('move'); // stemmed again
    expect(stemmed).toEqual(['moving', 'quotes', 'storage', 'moving']);
  });
});

describe('word characters', () => {
  it('ASCII is read from its table; every other code point (from U+0080) gets one Unicode test, once', async () => {
    vi.resetModules();
    const { words: freshWords } = await import('../../../src/core/search/analyze.ts');
    const classified: string[] = [];
    const test = RegExp.prototype.test;
    vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, s: string) {
      if (this.source === '^[\\p{L}\\p{N}]$') classified.push(s);
      return test.call(this, s);
    });
    expect(freshWords('ab\u0080\u0080ωω cd ω\u0080')).toEqual(['ab', 'ωω', 'cd', 'ω']);
    expect(classified).toEqual(['\u0080', 'ω']);
  });

  it('U+0080 is a separator', () => {
    expect(words('van\u0080hire')).toEqual(['van', 'hire']);
  });
});

describe('auSpelling', () => {
  it('answers only for the words of its table, not for names an object has ("constructor")', () => {
    expect(auSpelling('constructor')).toBe('constructor');
    expect(auSpelling('constructors')).toBe('constructors');
    expect(auSpelling('colorless')).toBe('colourless');
  });
});
