import { describe, expect, it, afterEach, vi } from 'vitest';
import {
  analyze,
  analyzeSynonyms,
  auSpelling,
  fold,
  isStopWord,
  termOf,
  words,
} from '../../../src/core/search/analyze.ts';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };

const synonyms = { entries: lexicon.synonyms };

describe('the search analyzer', () => {
  it('stems English word forms to one term (Porter2)', () => {
    for (const group of [
      ['reduce', 'reduces', 'reducing', 'reduced'],
      ['survey', 'surveys', 'surveying', 'surveyed'],
      ['quote', 'quotes', 'quoting', 'quoted'],
      ['schedule', 'schedules', 'scheduling'],
      ['label', 'labels', 'labelled', 'labelling', 'labeled'],
      ['story', 'stories'],
    ])
      expect(new Set(group.map(termOf)), group.join()).toHaveProperty('size', 1);
    expect(termOf('customs')).not.toBe(termOf('customers'));
  });

  it('folds US spellings onto Australian ones', () => {
    const pairs = [
      ['utilization', 'utilisation'],
      ['organizing', 'organising'],
      ['containerized', 'containerised'],
      ['analyze', 'analyse'],
      ['center', 'centre'],
      ['centered', 'centred'],
      ['meters', 'metres'],
      ['kilometer', 'kilometre'],
      ['color', 'colour'],
      ['favorite', 'favourite'],
      ['defense', 'defence'],
      ['license', 'licence'],
      ['catalog', 'catalogue'],
      ['program', 'programme'],
      ['harbor', 'harbour'],
    ];
    for (const [us, au] of pairs) expect(termOf(us!), us).toBe(termOf(au!));
    for (const w of ['size', 'prize', 'seize', 'citizen', 'for', 'door', 'motor', 'water'])
      expect(auSpelling(w), w).toBe(w);
  });

  it('drops stop words and single letters, keeps topic words', () => {
    expect(analyze('How do I reduce the damage claims?')).toEqual(['reduc', 'damag', 'claim']);
    expect(analyze('e-signature')).toEqual(['signatur']);
    for (const w of ['the', 'how', 'my', 'does', 'a', 's', 'offer']) expect(isStopWord(w), w).toBe(true);
    for (const w of ['storage', 'use', 'report', 'new', 'first', 'myob', 'support'])
      expect(isStopWord(w), w).toBe(false);
  });

  it('reads a thousands separator as part of its number ("$2,500" is the 2500 a visitor types)', () => {
    expect(analyze('a fee of $2,500 and 10,000 pages')).toEqual(['fee', '2500', '10000', 'page']);
    expect(words('$1,890.50 a month')).toEqual(['1890', '50', 'a', 'month']);
    // Not a thousands group: a list, a longer run, a comma and a space.
    expect(words('1,2,3 12,3456 5, 000 2,50')).toEqual(['1', '2', '3', '12', '3456', '5', '000', '2', '50']);
    // A number at the start of the text; a comma after a letter; a space or a point before three digits.
    expect(words('2,500 pages')).toEqual(['2500', 'pages']);
    expect(words('page,500 a4,000')).toEqual(['page', '500', 'a4000']);
    expect(words('3 500 or 4.500')).toEqual(['3', '500', 'or', '4', '500']);
  });

  it('folds case, accents and superscripts', () => {
    expect(words('Crème Brûlée, m³ and ß')).toEqual(['creme', 'brulee', 'm3', 'and', 'ss']);
  });

  it('analyzes the synonym list: every entry is one term with long forms that analyze to something', () => {
    const analyzed = analyzeSynonyms(synonyms.entries);
    expect(analyzed.length).toBe(synonyms.entries.length);
    const map = new Map(analyzed);
    expect(map.get('sso')).toEqual([['singl', 'sign']]);
    expect(map.get('cor')).toEqual([['chain', 'respons']]);
    expect(map.get('m3')).toEqual([['cubic', 'metr']]);
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

// A word's term is memoised, and each code point outside ASCII is classified once: these tests load the module
// afresh (empty memos) with the stemmer wrapped to record the words it is given.
describe('memos and lookups', () => {
  it('fold keeps the last long texts it folded: each text, short or long, again or not, folds as on its own', () => {
    const own = (s: string) =>
      s
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/ß/g, 'ss');
    const long = (unit: string, n = 300) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    // Texts of the same length that differ in one place, more of them than are kept, short ones between.
    const texts = ['Émigré ﬁle ', 'STRAßE m³ ', '\ufdfa', '\u3316 ', 'Café ', 'cafe '].flatMap((u) => [long(u), u]);
    texts.push(`${long('a')}É`, `${long('a')}e`, `${long('a', 255)}É`, `${long('a', 256)}É`);
    for (let round = 0; round < 3; round++)
      for (const t of [...texts, ...[...texts].reverse()]) expect(fold(t)).toBe(own(t));
  });

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
});

// The spelling table, stop words, stem exceptions and the ASCII table are built when the module loads: these
// tests load it afresh and read that load's tables.
describe('the tables the module builds', () => {
  const load = async () => {
    vi.resetModules();
    return import('../../../src/core/search/analyze.ts');
  };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** US spelling -> the Australian one (Macquarie Dictionary), every word of the table. */
  const US_TO_AU: [string, string][] = [
    ['color', 'colour'],
    ['favor', 'favour'],
    ['behavior', 'behaviour'],
    ['labor', 'labour'],
    ['neighbor', 'neighbour'],
    ['harbor', 'harbour'],
    ['honor', 'honour'],
    ['humor', 'humour'],
    ['flavor', 'flavour'],
    ['rumor', 'rumour'],
    ['vapor', 'vapour'],
    ['odor', 'odour'],
    ['endeavor', 'endeavour'],
    ['armor', 'armour'],
    ['parlor', 'parlour'],
    ['savor', 'savour'],
    ['defense', 'defence'],
    ['offense', 'offence'],
    ['license', 'licence'],
    ['pretense', 'pretence'],
    ['catalog', 'catalogue'],
    ['dialog', 'dialogue'],
    ['analog', 'analogue'],
    ['program', 'programme'],
    ['gray', 'grey'],
    ['mold', 'mould'],
    ['plow', 'plough'],
    ['aluminum', 'aluminium'],
    ['jewelry', 'jewellery'],
    ['enroll', 'enrol'],
    ['fulfill', 'fulfil'],
    ['install', 'install'],
    ['tire', 'tyre'],
    ['pajamas', 'pyjamas'],
    ['cozy', 'cosy'],
  ];

  describe('US spellings fold onto the Australian ones', () => {
    it('each word of the table, as it is and with -s', async () => {
      const { auSpelling } = await load();
      for (const [us, au] of US_TO_AU) {
        expect(auSpelling(us), us).toBe(au);
        expect(auSpelling(`${us}s`), `${us}s`).toBe(`${au}s`);
      }
    });

    it('a table word followed by more than an inflection is another word, left as it is', async () => {
      const { auSpelling } = await load();
      expect(auSpelling('laboratory')).toBe('laboratory');
      expect(auSpelling('programming')).toBe('programming');
      expect(auSpelling('colorado')).toBe('colorado');
      expect(auSpelling('colorful')).toBe('colourful');
    });

    it('-er words Australians write -re, whole words only', async () => {
      const { auSpelling } = await load();
      expect(auSpelling('center')).toBe('centre');
      expect(auSpelling('theaters')).toBe('theatres');
      expect(auSpelling('fiber')).toBe('fibre');
      expect(auSpelling('centered')).toBe('centred');
      expect(auSpelling('kilometer')).toBe('kilometre');
      expect(auSpelling('milliliters')).toBe('millilitres');
      expect(auSpelling('literal')).toBe('literal');
      expect(auSpelling('literature')).toBe('literature');
    });

    it('own: a table answers for its own keys only, not for what every object inherits', async () => {
      const { own } = await load();
      expect(own({ color: 'colour' }, 'color')).toBe('colour');
      expect(own({ color: 'colour' }, 'constructor')).toBeUndefined();
      expect(own({ color: 'colour' }, 'toString')).toBeUndefined();
    });
  });

  describe('stop words', () => {
    it('the list holds words only: no empty entry where the list breaks its lines', async () => {
      const { STOP_WORDS, isStopWord } = await load();
      expect([...STOP_WORDS].filter((w) => !/^[a-z]+$/.test(w))).toEqual([]);
      expect(STOP_WORDS.has('')).toBe(false);
      for (const w of ['about', 'but', 'by', 'from', 'happened', 'i', 'thing', 'would']) {
        expect(STOP_WORDS.has(w), w).toBe(true);
      }
      expect(isStopWord('pricing')).toBe(false);
    });
  });

  describe('stem exceptions', () => {
    it('"customs" and "customer(s)" keep terms of their own, apart from "custom"', async () => {
      const { termOf, analyze } = await load();
      expect(termOf('customs')).toBe('customs');
      expect(termOf('customer')).toBe('customer');
      expect(termOf('customers')).toBe('customer');
      expect(termOf('custom')).toBe('custom');
      expect(analyze('Customs for customers, custom reports')).toEqual(['customs', 'customer', 'custom', 'report']);
    });
  });

  describe('the thousands group', () => {
    it('three digits after the comma, and no fourth, make one number with the digits before', async () => {
      const { words } = await load();
      expect(words('$2,500 and 10,000 but 1,2345 or 1,23')).toEqual([
        '2500',
        'and',
        '10000',
        'but',
        '1',
        '2345',
        'or',
        '1',
        '23',
      ]);
    });
  });

  describe('the ASCII fast path', () => {
    it('text with any character outside ASCII is folded (accents removed)', async () => {
      const { words } = await load();
      expect(words('Café ÉTÉ Zoë')).toEqual(['cafe', 'ete', 'zoe']);
      expect(words('ÉTÉ')).toEqual(['ete']);
      expect(words('Ωmega\u007f')).toEqual(['ωmega']);
    });

    it('plain ASCII text is only lower-cased, not Unicode-normalized', async () => {
      const { words } = await load();
      const normalize = vi.spyOn(String.prototype, 'normalize');
      expect(words('Van Hire, 24/7\u007f')).toEqual(['van', 'hire', '24', '7']);
      expect(normalize).not.toHaveBeenCalled();
      expect(words('Café')).toEqual(['cafe']);
      expect(normalize).toHaveBeenCalledTimes(1);
    });
  });
});
