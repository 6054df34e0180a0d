/**
 * The analyzer's module-level tables (src/core/search/analyze.ts): the US -> Australian spelling table and its
 * -er/-re and inflection rules, the stop-word list, the stem exceptions and the ASCII fast path. They are built
 * when the module loads, so each test loads it afresh (vi.resetModules()) and reads the tables of that load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

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
