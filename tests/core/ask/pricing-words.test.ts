// The price stage's words (src/core/ask/pricing-words.ts): pricing-words.json's phrases, each read as a regular
// expression made from its data, and the answer's sentences filled in from the working.
import { describe, expect, it } from 'vitest';
import pricingData from '../../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../../src/contract/content.ts';
import { priceQuestion, workingSentence } from '../../../src/core/ask/pricing.ts';
import {
  anyOf,
  find,
  listsOf,
  matches,
  mayMatch,
  PRICING_WORDS,
  says,
  wordsOf,
} from '../../../src/core/ask/pricing-words.ts';
import written from '../../../src/build/ask-questions.json' with { type: 'json' };
import { fold } from '../../../src/core/search/analyze.ts';

const pricing = PricingSchema.parse(pricingData);
const addOn = (id: string) => pricing.addOns.find((a) => a.id === id)!;

describe('pricing-words.json', () => {
  it('names in its phrases only lists it has', () => {
    const W = PRICING_WORDS;
    const phrases = [
      ...Object.values(W.phrases).flatMap((e) => e.words),
      ...Object.values(W.addOns).flatMap((e) => e.people ?? []),
      ...Object.values(W.figures).flatMap((e) => e.phrases),
    ];
    const lists = new Set([...Object.keys(W.phrases), 'perYear', 'numbers', 'words', 'qualifiers', 'units', 'n', 'd']);
    const named = phrases.flatMap((p) => [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !lists.has(name))).toEqual([]);
  });

  it('reads a phrase with its counts, plurals, optional parts and a hyphen after a number', () => {
    const counts = (q: string, id: string) => find(fold(q), '{counts}', listsOf(addOn(id))).map((m) => m.counts);
    expect(counts('growth plus two 1,000-message sms bundles', 'sms-bundle')).toEqual([
      [
        { n: 2, w: 'two' },
        { n: 1000, w: '1,000' },
      ],
    ]);
    expect(counts('3 bundles of SMS and a couple of extra office logins', 'office-user')).toEqual([
      [{ n: 2, w: 'a couple of' }],
    ]);
    expect(
      counts('−5 office users, 2.5 seats and nan logins', 'office-user')
        .flat()
        .map((c) => c.n),
    ).toEqual([-5, 2.5, Number.NaN]);
    // No list of words is a word inside another ("uses" is not "us"; "pro" is not in "process").
    expect(says(fold('billed month-to-month'), 'monthByMonth')).toBe(true);
    expect(says(fold('a monthly bill'), 'asksPrice')).toBe(true);
    expect(says(fold('the process is costly'), 'asksPrice')).toBe(false);
  });
});

describe('a phrase as a regular expression', () => {
  const texts = (q: string, phrase: string | string[], lists = listsOf(undefined)) =>
    find(q, phrase, lists).map((m) => m.text);
  const counts = (q: string, phrase: string) => find(q, phrase).map((m) => m.counts.map((c) => c.n));

  it('reads its words literally, whole, and in the singular unless a list is plural', () => {
    expect(texts('rate is x.y today', 'x.y')).toEqual(['x.y']);
    expect(texts('rate is xzy today', 'x.y')).toEqual([]);
    expect(texts('two users', 'user')).toEqual([]);
    expect(texts('two users', 'two {words}', listsOf(undefined, ['user']))).toEqual(['two users']);
  });

  it('tries the longest of its phrases first', () => {
    expect(texts('paid month to month', ['month', 'month to month'])).toEqual(['month to month']);
  });

  it('keeps the regular expressions of different lists apart', () => {
    expect(texts('an ab and a b', '{words}', listsOf(undefined, ['ab']))).toEqual(['ab']);
    expect(texts('an ab and a b', '{words}', listsOf(undefined, ['a', 'b']))).toEqual(['a', 'b']);
  });

  it('reads {d} as digits only, {n} also as number words, and *N as up to N words', () => {
    expect(counts('two vans', '{d} vans')).toEqual([]);
    expect(counts('two vans', '{n} vans')).toEqual([[2]]);
    expect(counts('- infinity vans and −∞ vans', '{d} vans')).toEqual([[-Infinity], [-Infinity]]);
    expect(counts('7 of us all work in the office', '{d} of us *3 in the office')).toEqual([[7]]);
    expect(counts('7 of us all do our work in the office', '{d} of us *3 in the office')).toEqual([]);
  });

  it('has no words in a text of none', () => {
    expect(wordsOf(' — ')).toEqual([]);
  });

  it('counts the bundles of an add-on that has no words of its own', () => {
    const more = structuredClone(pricing);
    more.addOns.push({ id: 'pallet', name: 'Pallet pack', price: 30, unit: 'per pack', bundleSize: 10 });
    expect(priceQuestion('Growth plus 2 pallet packs, how much?', more)?.monthly).toBe(890 + 2 * 30);
  });
});

describe('a phrase that cannot match', () => {
  const W = PRICING_WORDS;
  const lists = [undefined, ...pricing.addOns].map((a) => listsOf(a));
  const phrases = [
    ...Object.keys(W.phrases).map((name) => `{${name}}`),
    '{people}',
    ...Object.values(W.figures).flatMap((f) => f.phrases),
  ];

  it('is one whose words are not all in the text, and is not compiled', () => {
    const office = listsOf(addOn('office-user'));
    expect(mayMatch(fold('is there a free trial?'), '{counts}', office)).toBe(false);
    expect(mayMatch(fold('growth with 3 extra logins'), '{counts}', office)).toBe(true);
    // Each part must be there: a word of a list it names, a literal word, not an optional part, a gap or a number.
    expect(mayMatch('two vans', '{d} vans', office)).toBe(true);
    expect(mayMatch('two vans', '{d} vans trucks', office)).toBe(false);
    expect(mayMatch('two vans', 'two vans/utes *2 trucks?', office)).toBe(true);
    expect(mayMatch('two', '{nothing}', office)).toBe(false);
    // Only a part that is all a gap, a number or optional is left out: these are words the text must hold.
    for (const part of ['va*s', 'tw?o', 'x{d}', '{d}x']) expect(mayMatch('two vans', part, office), part).toBe(false);
  });

  it('never hides a match: on every written question, each phrase with every list finds what its expression does', () => {
    const texts = [
      ...written.flatMap((w) => w.questions).filter((_, i) => i % 3 === 0),
      'growth plus two 1,000-message sms bundles',
    ].map(fold);
    let found = 0;
    for (const q of texts)
      for (const l of lists)
        for (const p of phrases) {
          const all = matches(q, anyOf([p], l));
          found += all.length;
          expect(find(q, p, l), `${p} in "${q}"`).toEqual(all);
        }
    expect(found).toBeGreaterThan(100);
  });
});

describe('the people counted by what they use', () => {
  it('are counted once, as the add-on they use', () => {
    const w = priceQuestion('Growth with 12 people on phones, how much a month?', pricing)!;
    expect(w.lines.map((l) => [l.item, l.quantity])).toEqual([
      ['Growth plan', 1],
      ['Extra crew device', 12],
    ]);
  });
});

describe("the answer's sentences", () => {
  it('join the figures a plan is chosen by with "and", whatever their digits', () => {
    const w = priceQuestion('12 in the office and 1,400 moves a year, how much?', pricing)!;
    expect(workingSentence(w)).toMatch(/^For 12 office users and 1,400 moves a year, the plan that fits is Growth\./);
  });

  it('leave no name unfilled', () => {
    for (const q of [
      'Starter plus 2 more office logins and 4 crew phones, paid annually?',
      'growth billed month to month, what is that over a year?',
      'how much is enterprise with 3 extra users?',
      'Growth plus 2.5 extra users and 1e308 crew devices, how much?',
      'which plan for 1e308 moves a year and 3 warehouses, how much?',
      'how much more is Professional than Growth?',
    ]) {
      const w = priceQuestion(q, pricing)!;
      expect(workingSentence(w), q).not.toMatch(/[{}]|undefined|NaN/);
    }
  });
});
