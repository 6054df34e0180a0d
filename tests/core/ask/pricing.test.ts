// The chat's price stage (src/core/ask/pricing.ts): pricing questions read with the price list's own vocabulary,
// priced from content/data/pricing.json with the working, and answered through askSite with each price cited.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pricingData from '../../../content/data/pricing.json' with { type: 'json' };
import { AskResponseSchema } from '../../../src/contract/ask.ts';
import { type Plan, type Pricing, PricingSchema } from '../../../src/contract/content.ts';
import { askSite } from '../../../src/core/ask/answer.ts';
import { askIndexOf } from '../../../src/core/ask-indexer/assemble.ts';
import type { AskIndex } from '../../../src/core/ask/index.ts';
import {
  askedAddOns,
  comparedPlans,
  countsPriced,
  dollars,
  MOST_PRICED,
  priceQuestion,
  quantityProblem,
  type UnpricedReason,
  workingSentence,
} from '../../../src/core/ask/pricing.ts';
import wordsData from '../../../src/core/ask/pricing-words.json' with { type: 'json' };
import { PRICING_WORDS, PricingWordsSchema } from '../../../src/core/ask/pricing-words.ts';
import { inventedSentences } from '../../../eval/ask/metrics.ts';
import { PROJECT_ROOT } from '../../helpers/server.ts';
import { siteIndex } from './site.ts';

const pricing = PricingSchema.parse(pricingData);
/** A site of one pricing page, its markdown given. */
const pricingSite = (markdown: string) =>
  askIndexOf([{ slug: 'pricing', title: 'Pricing | Kartage', url: 'https://k.example/pricing', markdown }]);
/** askSite on a site, at noon on a weekday. */
const askOn = (index: AskIndex, question: string, conversation?: { question: string }[]) =>
  askSite(
    { index, pricing, origin: 'https://k.example', now: Date.parse('2026-11-25T02:00:00Z') },
    { question, conversation },
  );

describe('pricing arithmetic', () => {
  it('prices a plan with extra office users and crew devices, with its working', () => {
    const w = priceQuestion('What would Starter plus 2 more office logins and 4 crew phones cost?', pricing)!;
    expect(w.monthly).toBe(390 + 2 * 45 + 4 * 12);
    expect(w.lines.map((l) => [l.item, l.quantity])).toEqual([
      ['Starter plan', 1],
      ['Extra office user', 2],
      ['Extra crew device', 4],
    ]);
    expect(workingSentence(w)).toContain('$528 a month excluding GST');
  });

  it('reads a plan named before "going", "upfront" or "be" as the plan, and a full or whole year paid upfront', () => {
    expect(
      priceQuestion("what's Growth going to cost us for a full year if we go annual billing?", pricing),
    ).toMatchObject({ plan: 'Growth', monthly: 890, annual: 8900, yearBilled: 'annually' });
    expect(
      priceQuestion("if we pay for professional upfront for the whole year, what's the total?", pricing),
    ).toMatchObject({ plan: 'Professional', annual: 18900, yearBilled: 'annually' });
    expect(priceQuestion('how much would starter be each month?', pricing)).toMatchObject({ monthly: 390 });
    // Before "should", "only" and the like too: the plan named, not the one the figures pick.
    expect(
      priceQuestion(
        "small outfit, Starter should do. 6 office logins and 13 crew on phones, what's the monthly?",
        pricing,
      ),
    ).toMatchObject({ plan: 'Starter', monthly: 390 + 45 + 3 * 12 });
    // Still not a plan when the word describes something else.
    expect(priceQuestion('how much is professional indemnity insurance?', pricing)).toBeUndefined();
  });

  it('counts users beyond the plan when the question gives a total, and prices a year paid annually', () => {
    expect(priceQuestion('starter with 7 office users, how much a month?', pricing)!.monthly).toBe(390 + 2 * 45);
    // Office users counted as people in the office, by whatever verb they use it.
    for (const q of [
      'starter plan, 7 of us log into the office side, what would we pay monthly?',
      'starter plan and 7 of us work in the office: monthly price?',
    ])
      expect(priceQuestion(q, pricing)!.monthly, q).toBe(390 + 2 * 45);
    const w = priceQuestion('growth with the video survey app, paid annually?', pricing)!;
    expect([w.monthly, w.annual]).toEqual([890 + 150, (890 + 150) * 10]);
    expect(priceQuestion('Professional plus two SMS bundles per month?', pricing)!.monthly).toBe(1890 + 120);
  });

  it('gives Enterprise no total, and leaves non-pricing questions alone', () => {
    const w = priceQuestion('how much is enterprise with 3 extra users?', pricing)!;
    expect(w.from).toBe(true);
    expect(workingSentence(w)).toMatch(/quoted/);
    expect(priceQuestion('does the crew app work offline?', pricing)).toBeUndefined();
    expect(priceQuestion('what does Growth include?', pricing)).toBeUndefined();
  });

  it('counts extras only in the clause that says so; a number beats "an" for the same thing', () => {
    // "plus" belongs to the add-on; the staff count after "we've got" is a total (15 are Growth's own).
    expect(
      priceQuestion('growth plus the video survey add on, and we have got 18 office staff. monthly cost?', pricing)!
        .monthly,
    ).toBe(890 + 150 + 3 * 45);
    // "45 people need an office login": 45 in all, not 45 and one more.
    expect(
      priceQuestion("Professional tier, but 45 people need an office login. What's the monthly bill?", pricing)!
        .monthly,
    ).toBe(1890 + 5 * 45);
  });

  it('reads extras said as extras and what a total leaves beyond the plan as the same seats: the larger', () => {
    // Starter has 10 devices and 5 users of its own: a crew of 5 needs none beyond them, the 2 extra are extra.
    const extra = (q: string) =>
      priceQuestion(q, pricing)!
        .lines.slice(1)
        .map((l) => [l.item, l.quantity]);
    expect(extra('Starter with 2 extra crew devices and a crew of 5 on phones, how much a month?')).toEqual([
      ['Extra crew device', 2],
    ]);
    expect(extra('Starter with a crew of 5 on phones and 2 extra crew devices, how much a month?')).toEqual([
      ['Extra crew device', 2],
    ]);
    // Growth has 15 users: 18 staff leave 3 beyond them, the 3 extra the visitor worked out; 20 staff leave 5, more
    // than the 2 said.
    expect(extra('we need 18 people in the office logged in. growth plus 3 extra users, how much?')).toEqual([
      ['Extra office user', 3],
    ]);
    expect(extra('growth plus 2 more office users and 20 staff in the office, how much?')).toEqual([
      ['Extra office user', 5],
    ]);
    expect(extra('growth plus 6 more office users and 20 staff in the office, how much?')).toEqual([
      ['Extra office user', 6],
    ]);
    expect(extra('starter plus 2 more users plus 3 more users, how much?')).toEqual([['Extra office user', 5]]);
  });

  it('counts a crew "of 18 on phones", "16 blokes running the app", "13 crew using it" or 14 casuals as crew devices', () => {
    const w = priceQuestion(
      'starter for a crew of 18 on phones and 6 of us in the office, how much a month?',
      pricing,
    )!;
    // Starter has 10 devices and 5 users of its own.
    expect(w.monthly).toBe(390 + 8 * 12 + 1 * 45);
    expect(priceQuestion('we got 16 blokes running the crew app, on starter what a month?', pricing)!.monthly).toBe(
      390 + 6 * 12,
    );
    expect(priceQuestion('on starter with 13 crew using the app, what a month?', pricing)!.monthly).toBe(390 + 3 * 12);
    expect(priceQuestion('starter with 14 casuals on the crew app, how much a month?', pricing)!.monthly).toBe(
      390 + 4 * 12,
    );
  });

  it('reads "xtra" as extra', () => {
    expect(priceQuestion('hw much is starter + 2 xtra office users a month', pricing)!.monthly).toBe(390 + 2 * 45);
  });

  it('reads "a second warehouse" as two and self-storage sites as warehouses when it picks the plan', () => {
    // Growth has one warehouse, Professional two to five.
    expect(priceQuestion("we've opened a second warehouse, which plan and what a month?", pricing)!.plan).toBe(
      'Professional',
    );
    expect(priceQuestion('two self-storage sites, which plan and how much a month?', pricing)!.plan).toBe(
      'Professional',
    );
    expect(priceQuestion('one self-storage site, which plan and how much a month?', pricing)!.plan).toBe('Growth');
  });

  it('a year paid at once or in advance is paid annually, whatever else says monthly', () => {
    const at = (q: string) => priceQuestion(q, pricing)!.annual;
    expect(at('growth for the year paid at once, and what do we save against paying monthly?')).toBe(8_900);
    expect(at('growth for the year paid in advance vs monthly?')).toBe(8_900);
    expect(at('growth for the year paid monthly?')).toBe(10_680);
    expect(at("starter: what's it monthly, and what's the total if we prepay the year?")).toBe(3_900);
  });

  it('a plan paid or billed some way is the plan', () => {
    expect(priceQuestion("professional paid annually — what's the total for the year?", pricing)?.annual).toBe(18_900);
    expect(priceQuestion('growth billed monthly, how much is that?', pricing)?.monthly).toBe(890);
  });

  it('a plan name used as an adjective is not a plan', () => {
    expect(priceQuestion('do you hold professional indemnity insurance, and for how much?', pricing)).toBeUndefined();
    expect(priceQuestion('what does a growth strategy cost a removalist?', pricing)).toBeUndefined();
    expect(priceQuestion('professional, how much a month?', pricing)!.plan).toBe('Professional');
  });

  it('counts SMS bundles named with their size, or "of the", between the count and the bundle', () => {
    const w = priceQuestion('growth plus two 1,000-message sms bundles, what a month?', pricing)!;
    expect([w.plan, w.monthly]).toEqual(['Growth', 890 + 2 * 60]);
    expect(priceQuestion("starter and we'll need 3 of the sms bundles, whats the bill", pricing)!.monthly).toBe(
      390 + 3 * 60,
    );
  });

  it('reads the office users a named plan is given as a figure as the users in all, its own free', () => {
    expect(priceQuestion("we're 8 in the office, what's starter come to a month", pricing)).toMatchObject({
      plan: 'Starter',
      monthly: 390 + 3 * 45,
    });
    expect(priceQuestion('12 staff work in the office, how much is growth?', pricing)!.monthly).toBe(890);
    expect(countsPriced("we're 8 in the office", pricing)).toBe(true);
    expect(countsPriced('and we do 400 moves a year', pricing)).toBe(true);
    expect(countsPriced('plus 2 more office users', pricing)).toBe(true);
    expect(countsPriced('can customers reply to the texts?', pricing)).toBe(false);
    // A figure with no plan named and no price asked is still no question of price.
    expect(priceQuestion("we're 8 in the office, what does growth include?", pricing)).toBeUndefined();
  });

  it('reads a year paid in one payment as paid annually', () => {
    const at = (q: string) => priceQuestion(q, pricing)?.annual;
    expect(at('If I pay Starter plan for all year one time, how much I pay?')).toBe(3900);
    expect(at('growth in one lump sum, how much?')).toBe(8900);
    expect(at('what is professional in a single payment for the year?')).toBe(18_900);
  });

  it('reads card payments taken on site as needing online payments', () => {
    const w = priceQuestion(
      'we want crews taking card payments on site, 300 moves a year. which plan, what cost?',
      pricing,
    )!;
    expect([w.plan, w.modules]).toEqual(['Growth', ['Online payments']]);
  });

  it('a plan named before a question word is the plan asked about, whatever the figures would pick', () => {
    // 17 office users would pick Professional (Growth includes 15): the visitor names Growth.
    const w = priceQuestion('17 of us in the office need logins. on growth how much is that?', pricing)!;
    expect([w.plan, w.monthly]).toEqual(['Growth', 890 + 2 * 45]);
    expect(priceQuestion("we'd have 6 office users, starter what's the monthly cost?", pricing)!.monthly).toBe(
      390 + 45,
    );
  });

  it('picks the plan from the figures when none is named: the figure needing the biggest plan wins', () => {
    const w = priceQuestion(
      '1400 moves a yr, one warehouse, 12 in the office, plus the video survey app: how much?',
      pricing,
    )!;
    expect([w.plan, w.monthly, w.chosenFor]).toEqual([
      'Growth',
      890 + 150,
      { officeUsers: 12, movesPerYear: 1400, warehouses: 1 },
    ]);
    expect(workingSentence(w)).toMatch(
      /^For 12 office users, 1,400 moves a year and 1 warehouse, the plan that fits is Growth\./,
    );
    // 300 a month is 3,600 a year: Professional, whatever the warehouses say.
    expect(priceQuestion('about 300 jobs a month and no warehouse, which plan and what cost?', pricing)!.plan).toBe(
      'Professional',
    );
    expect(priceQuestion('we have 3 trucks, what does it cost?', pricing)).toBeUndefined();
  });

  it('a module the question needs, beside a figure or "which plan", picks at least the first plan that has it', () => {
    const xero = priceQuestion(
      '4 of us in the office, 350 moves, no warehouse, we need Xero. Cheapest plan and price?',
      pricing,
    )!;
    expect([xero.plan, xero.monthly, xero.modules]).toEqual(['Growth', 890, ['Xero and MYOB sync']]);
    expect(workingSentence(xero)).toMatch(
      /^For 4 office users, 350 moves a year, 0 warehouses and Xero and MYOB sync, the plan/,
    );
    const abroad = priceQuestion(
      'an international mover, 700 moves a year: which plan and what does it cost?',
      pricing,
    )!;
    expect([abroad.plan, abroad.modules]).toEqual(['Professional', ['International module']]);
    // Negated, it is no need; named with no figure and no "which plan", it asks no price ("how much" of a story).
    const none = priceQuestion(
      "we don't do international and have no storage, 300 moves a year: which plan, what price?",
      pricing,
    )!;
    expect([none.plan, none.modules]).toEqual(['Starter', undefined]);
    expect(
      priceQuestion('how much did Southern Cross improve their groupage container fill?', pricing),
    ).toBeUndefined();
    // A figure alone, or "which plan" alone, is enough to read the modules beside it.
    expect(priceQuestion('350 moves a year and we need Xero, how much?', pricing)!.plan).toBe('Growth');
    expect(priceQuestion('which plan for two branches, and what does it cost?', pricing)!.modules).toEqual([
      'Multi-branch',
    ]);
  });

  it('a year paid month by month is twelve months, and "moves a year" asks for no year\'s price', () => {
    const w = priceQuestion("growth billed month to month, what's that over a year?", pricing)!;
    expect([w.annual, w.yearBilled]).toEqual([890 * 12, 'monthly']);
    expect(workingSentence(w)).toMatch(/Paid month by month that is \$10,680 a year \(12 × \$890\)\.$/);
    const moves = priceQuestion('1,400 moves a year and one warehouse, how much?', pricing)!;
    expect([moves.plan, moves.annual]).toEqual(['Growth', undefined]);
  });

  it('a follow-up keeps the add-ons and takes the new plan', () => {
    const w = priceQuestion('and the Professional one?', pricing, 'How much is Growth with 3 extra users a month?')!;
    expect(w.plan).toBe('Professional');
    expect(w.monthly).toBe(1890 + 3 * 45);
  });
});

describe('pricing answers through askSite', () => {
  const index = pricingSite(
    '# Pricing\n\n## Compare plans\n\n| Plan | Price |\n|---|---|\n| Starter | $390 |\n| Growth | $890 |\n| Professional | $1,890 |\n\n## Add-ons\n\n| Add-on | Price |\n|---|---|\n| Extra office user | $45 |\n\n## GST\n\nAll prices exclude GST.\n',
  );
  const ask = (question: string) => askOn(index, question);

  it('answers pricing arithmetic with its working, each price cited', () => {
    const r = ask('Starter plus 2 extra office users, how much a month?');
    expect(r.working?.monthly).toBe(480);
    // The working says prices exclude GST: the page's GST sentence is not said twice.
    expect(r.sources.map((s) => s.heading)).toEqual(['Compare plans', 'Add-ons']);
    expect(r.answer).toContain('$480 a month excluding GST');
    expect(r.answer).not.toContain('All prices exclude GST.');
    expect(inventedSentences(r, pricing)).toEqual([]);
  });
});

describe('a pricing answer beside the parts it does not price', () => {
  const pages = [
    {
      slug: 'pricing',
      title: 'Pricing | Kartage',
      url: 'https://k.example/pricing',
      markdown:
        '# Pricing\n\n## Compare plans\n\n| Plan | Price | Office users |\n|---|---|---|\n| Starter | $390 | 5 |\n| Growth | $890 | 15 |\n\n## How to choose a plan\n\nAnswer three questions; the answer that points to the biggest plan wins.\n',
    },
    {
      slug: 'contact',
      title: 'Contact | Kartage',
      url: 'https://k.example/contact',
      markdown: '# Contact\n\n## Offices\n\nOur head office is in Melbourne, with offices in Sydney and Brisbane.\n',
    },
  ];
  const offices = ['where is your office?', 'where are you based?', 'which office is nearest?'];

  it('answers no part that only counts what the working prices ("we\'re 8 in the office")', async () => {
    const index = await siteIndex(
      offices.map((question) => ({ question, sections: [{ slug: 'contact', heading: 'Offices' }] })),
      pages,
    );
    // Alone, the office sentence reads as a question about the offices.
    expect(askOn(index, "we're 8 in the office").sources[0]).toMatchObject({ slug: 'contact', role: 'answer' });
    const r = askOn(index, "we're 8 in the office and do 400 moves, which plan?");
    expect(r.working).toMatchObject({ plan: 'Growth', chosenFor: { officeUsers: 8, movesPerYear: 400 } });
    expect(r.sources.map((s) => s.slug)).toEqual(['pricing', 'pricing']);
    expect(r.answer).not.toContain('head office');
    expect(inventedSentences(r, pricing)).toEqual([]);
  });
});

describe('onboarding priced from the price list', () => {
  const fee = dollars(pricing.onboarding.from);
  const index = pricingSite(
    `# Pricing\n\n## Add-ons and one-off costs\n\n| Add-on | Price (AUD, ex GST) |\n|---|---|\n| Onboarding and data migration | From ${fee} |\n\n## Onboarding and data migration\n\nA product specialist imports your jobs. Onboarding and data migration start from ${fee} as a one-off fee.\n\n## GST\n\nAll prices exclude GST.\n`,
  );
  const ask = (question: string) => askOn(index, question);

  it.each(['how much is onboarding?', 'what does onboarding cost', 'the price of data migration?'])(
    '%s: the fee as the section on onboarding says it, not the table row',
    (question) => {
      const r = ask(question);
      expect(r.answered).toBe(true);
      expect(r.answer).toBe(`Onboarding and data migration start from ${fee} as a one-off fee.`);
      expect(r.sources.map((s) => [s.heading, s.role])).toEqual([['Onboarding and data migration', 'answer']]);
      expect(inventedSentences(r, pricing)).toEqual([]);
    },
  );

  it('quotes the GST sentence beside it only when tax is asked', () => {
    const r = ask('how much is onboarding, inc gst?');
    expect(r.answer).toContain('All prices exclude GST.');
    expect(r.sources.map((s) => s.heading)).toEqual(['Onboarding and data migration', 'GST']);
  });

  it.each([
    // A price word beside the onboarding role, not the fee; setting up a feature is no onboarding.
    'thinking of applying for the onboarding role - do you pay for the take-home task?',
    'how much does it cost to set up single sign-on?',
    'is the onboarding fee refundable?',
  ])('%s: not the onboarding fee', (question) => {
    expect(ask(question).answer).not.toContain(fee);
  });
});

/** A pricing page with every row of the price list, its annual billing note, plan-choice rule and GST sentence. */
function pricingPage(p: Pricing): string {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    '# Pricing',
    '## Compare plans',
    `Prices in Australian dollars (AUD) per month, excluding GST. ${p.annualDiscount}`,
    [
      row(['Plan', 'Price (AUD per month, ex GST)', 'Office users']),
      row(['---', '---', '---']),
      ...p.plans.map((x) => row([x.name, `${x.priceFrom ? 'From ' : ''}${dollars(x.monthly)}`, x.officeUsers ?? '-'])),
    ].join('\n'),
    '## Add-ons',
    [
      row(['Add-on', 'Price', 'Billed']),
      row(['---', '---', '---']),
      ...p.addOns.map((a) => row([a.name, dollars(a.price), a.unit])),
    ].join('\n'),
    '## How to choose a plan',
    'Answer three questions; the answer that points to the biggest plan wins.',
    '## GST',
    'All prices are in Australian dollars and exclude GST.',
  ].join('\n\n');
}

const site = pricingSite(`${pricingPage(pricing)}\n`);
const askPricing = (question: string, conversation?: { question: string }[]) => askOn(site, question, conversation);

const NINES = '9'.repeat(309);

describe('never a price the price list does not give', () => {
  // [question, the reasons of what is unpriced, a fragment of the sentence shown, the monthly total of the rest]
  const HOSTILE: [string, UnpricedReason[], string, number | undefined][] = [
    [
      'How much is Starter plus 20,000 extra office users?',
      ['over-limit'],
      "I can't price 20,000 extra office users: that is more than 10,000",
      390,
    ],
    ['Starter plus 1e308 crew devices, how much?', ['too-large'], "I can't price 1e308 crew devices", 390],
    ['Starter plus NaN extra users, how much?', ['not-a-number'], "I can't price nan extra users: that is not a", 390],
    ['Growth plus 2.5 extra users, how much?', ['not-whole'], "I can't price 2.5 extra users: it is not a whole", 890],
    ['-5 extra office users on Starter, how much?', ['negative'], "I can't price -5 extra office users", 390],
    ['Starter plus −5 extra office users, how much?', ['negative'], "I can't price −5 extra office users", 390],
    [`Growth plus ${NINES} SMS, how much a month?`, ['too-large'], "I can't price 999999…999 sms", 890],
    [
      `5 office staff and ${NINES} moves a year, how much?`,
      ['too-large'],
      "I can't choose a plan for 999999…999 moves a year: the number is too large to work out exactly. For 5 office users, the plan that fits is Starter.",
      390,
    ],
    ['Growth plus infinity crew phones, what a month?', ['too-large'], "I can't price infinity crew phones", 890],
    ['Growth plus ∞ crew phones, what a month?', ['too-large'], "I can't price ∞ crew phones", 890],
    ['how much is Starter plus 1e20 extra users?', ['too-large'], "I can't price 1e20 extra users", 390],
    [
      'Starter plus 9007199254740993 crew devices, how much?',
      ['too-large'],
      "I can't price 900719…993 crew devices",
      390,
    ],
    ['Starter plus 10,001 crew devices, how much?', ['over-limit'], "I can't price 10,001 crew devices", 390],
    ['Starter plus 10,000 crew devices, how much?', [], 'That comes to $120,390 a month', 390 + 10_000 * 12],
    [
      'Professional with 10,040 office users, how much a month?',
      ['over-limit'],
      "I can't price 10,040 office users",
      1890,
    ],
    ['Growth plus 0.5 sms bundles, how much?', ['not-whole'], "I can't price 0.5 sms bundles", 890],
    ['Growth and 2,500.5 texts a month, how much?', ['not-whole'], "I can't price 2,500.5 texts", 890],
    ['Growth with 3 extra users and 2.5 crew phones, how much?', ['not-whole'], 'The rest comes to $1,025', 890 + 135],
    [
      'which plan for 1e308 moves a year and 3 warehouses, how much?',
      ['too-large'],
      'the plan that fits is Professional',
      1890,
    ],
    ['which plan for 2.5 warehouses, how much?', [], '', undefined],
    [`Starter with ${NINES}.5 users paid annually, how much?`, ['too-large'], 'The rest comes to $390', 390],
  ];

  const named = HOSTILE.map(([q, ...rest]) => [q.replace(/9{309}/, '9…9 (309 digits)'), q, ...rest] as const);
  it.each(named)('%s', (_name, question, reasons, shown, monthly) => {
    const r = askPricing(question);
    // Valid against the contract, and the same after a trip through JSON (no NaN or Infinity turned into null).
    const parsed = AskResponseSchema.parse(r);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(parsed.working?.monthly).toBe(monthly);
    expect((r.working?.unpriced ?? []).map((u) => u.reason)).toEqual(reasons);
    expect(r.answer).toContain(shown);
    expect(r.answer).not.toMatch(/∞ (a|moves)|\$∞|NaN|Infinity|undefined|null/);
    expect(inventedSentences(r, pricing)).toEqual([]);
    // What cannot be priced is quoted with its price per unit, from the price list's row.
    for (const u of r.working?.unpriced ?? []) {
      if (u.unitPrice === undefined) continue;
      const addOn = pricing.addOns.find((a) => a.name === u.item)!;
      expect([u.unitPrice, u.unit]).toEqual([addOn.price, addOn.unit]);
      expect(r.answer).toContain(`are ${dollars(addOn.price)} ${addOn.unit}.`);
      expect(r.answer).toContain(`| ${addOn.name} | ${dollars(addOn.price)} | ${addOn.unit} |`);
      expect(r.sources.map((s) => s.heading)).toContain('Add-ons');
    }
  });

  it('a follow-up carries what could not be priced to the next plan', () => {
    const r = askPricing('and the Professional one?', [{ question: 'How much is Growth with 2.5 extra users?' }]);
    expect(r.working).toMatchObject({ plan: 'Professional', monthly: 1890 });
    expect(r.working?.unpriced?.map((u) => u.asked)).toEqual(['2.5 extra users']);
  });

  it('a quantity is priced only when it is a whole number from 0 to the most priced', () => {
    expect(
      [Number.NaN, -1, -0.5, 0.5, Number.POSITIVE_INFINITY, 2 ** 53, 1e308].map((n) => quantityProblem(n)),
    ).toEqual(['not-a-number', 'negative', 'negative', 'not-whole', 'too-large', 'too-large', 'too-large']);
    expect([0, 1, MOST_PRICED].map((n) => quantityProblem(n, MOST_PRICED))).toEqual([undefined, undefined, undefined]);
    expect(quantityProblem(MOST_PRICED + 1, MOST_PRICED)).toBe('over-limit');
  });
});

describe('the vocabulary comes from the price list', () => {
  it("reads a plan by the price list's name for it, and no name the price list does not have", () => {
    const renamed = structuredClone(pricing);
    renamed.plans[1]!.name = 'Scale';
    expect(priceQuestion('how much is Scale with 2 extra users?', renamed)).toMatchObject({
      plan: 'Scale',
      monthly: 890 + 2 * 45,
    });
    expect(priceQuestion('how much is growth with 2 extra users?', renamed)?.plan).toBe('Scale');
    const reId = structuredClone(renamed);
    reId.plans[1]!.id = 'scale' as Plan['id'];
    expect(priceQuestion('how much is growth with 2 extra users?', reId)).toBeUndefined();
    // "pro" is a visitor's word for Professional (pricing-words.json).
    expect(priceQuestion('pro with 2 more users, how much?', pricing)?.plan).toBe('Professional');
  });

  it("counts an add-on by its name in the price list, with no visitor's word for it", () => {
    const more = structuredClone(pricing);
    more.addOns.push({ id: 'gps', name: 'GPS tracker', price: 9, unit: 'per truck per month' });
    expect(priceQuestion('Growth plus 3 GPS trackers, how much?', more)?.lines.at(-1)).toEqual({
      item: 'GPS tracker',
      quantity: 3,
      unitPrice: 9,
      amount: 27,
      unit: 'per month',
    });
    expect(priceQuestion('Growth plus 3 GPS trackers, how much?', pricing)?.monthly).toBe(890);
  });

  it("reads the plan's own allowance, the bundle size and the annual billing from the price list", () => {
    const q = 'starter with 7 office users and 2,500 texts, paid annually, how much?';
    expect(priceQuestion(q, pricing)).toMatchObject({ monthly: 390 + 2 * 45 + 3 * 60, annual: (390 + 90 + 180) * 10 });
    const other = structuredClone(pricing);
    delete other.addOns[0]!.adds;
    other.addOns[3]!.bundleSize = 500;
    other.annualBilling.monthsCharged = 11;
    const w = priceQuestion(q, other)!;
    expect([w.monthly, w.annual]).toEqual([390 + 7 * 45 + 5 * 60, (390 + 7 * 45 + 5 * 60) * 11]);
    expect(workingSentence(w)).toContain('(12 months for the price of 11: 11 × $1,005)');
  });

  it('pricing-words.json: every entry names a plan or add-on of the price list and says why', () => {
    const planIds = new Set(pricing.plans.map((p) => p.id));
    const addOnIds = new Set(pricing.addOns.map((a) => a.id));
    expect(Object.keys(PRICING_WORDS.plans).filter((id) => !planIds.has(id as Plan['id']))).toEqual([]);
    expect(Object.keys(PRICING_WORDS.addOns).filter((id) => !addOnIds.has(id))).toEqual([]);
    const modules = new Set(pricing.plans.flatMap((p) => p.includes));
    expect(Object.keys(PRICING_WORDS.modules.words).filter((m) => !modules.has(m))).toEqual([]);
    expect(() => PricingWordsSchema.parse({ ...wordsData, plans: { growth: { words: ['grow'] } } })).toThrow(/note/);
    // No plan name, price or add-on name is written in the price stage's code (its comments give examples).
    const code = ['src/core/ask/pricing.ts', 'src/core/ask/pricing-words.ts', 'src/core/plans.ts'].map((f) =>
      readFileSync(join(PROJECT_ROOT, f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .toLowerCase(),
    );
    const names = [
      ...pricing.plans.flatMap((p) => [p.name, p.id, dollars(p.monthly)]),
      ...pricing.addOns.flatMap((a) => [a.name, a.id, dollars(a.price)]),
    ];
    for (const name of names) for (const text of code) expect(text).not.toContain(name.toLowerCase());
  });
});

describe('add-ons asked without a plan', () => {
  const named = (q: string) => askedAddOns(q, pricing).map((a) => a.id);

  it('names the add-ons a price question asks, by a word of theirs, and no add-on of a question that asks none', () => {
    expect(named('how much is the SMS pack?')).toEqual(['sms-bundle']);
    expect(named('what does an extra office user cost?')).toEqual(['office-user']);
    expect(named('cost to add another crew phone')).toEqual(['crew-device']);
    expect(named('price of the video survey app and sms bundles?')).toEqual(['video-survey', 'sms-bundle']);
    // A word an add-on shares with everyday talk names it only with a qualifier or "extra".
    expect(named('how much parental leave do your staff get?')).toEqual([]);
    expect(named('how much free space should crew phones have?')).toEqual([]);
    // A plan named is priced with its working instead; no price asked, no add-on.
    expect(named('how much is the sms pack on growth?')).toEqual([]);
    expect(named('do you sell sms packs?')).toEqual([]);
    // A month as a time, not a price's period: a plan's price may be asked "a month", an add-on's is not.
    expect(named("SMS bundles: if we don't use all 1,000 in a month, do they roll over?")).toEqual([]);
    expect(priceQuestion('what is growth a month?', pricing)!.monthly).toBe(890);
  });

  it("quotes each add-on's row of the price list, cited, with no working", () => {
    const r = askPricing('how much is the SMS pack and the video survey app?');
    expect(r.answered).toBe(true);
    expect(r.working).toBeUndefined();
    for (const a of pricing.addOns.filter((x) => ['sms-bundle', 'video-survey'].includes(x.id)))
      expect(r.answer).toContain(`| ${a.name} | ${dollars(a.price)} | ${a.unit} |`);
    expect(r.answer).not.toContain('Extra office user');
    expect(r.sources.map((s) => [s.role, s.heading])).toEqual([
      ['answer', 'Add-ons'],
      ['answer', 'GST'],
    ]);
    // A price worked out (the plan picked by the figures) cites the add-on's row in its working, not quoted again.
    const worked = askPricing('what would 20 office users and an sms pack cost a month?');
    expect(worked.working?.monthly).toBe(1890 + 60);
    expect(worked.answer).not.toMatch(/^\| SMS bundle/m);
  });
});

describe('comparisons of two plans', () => {
  const names = (plans: readonly Plan[] | undefined) => plans?.map((p) => p.name);
  /** The start of a plan's row of "Compare plans", at the start of a line of the answer. */
  const row = (p: Plan) => `\n| ${p.name} | ${p.priceFrom ? 'From ' : ''}${dollars(p.monthly)} |`;
  const [starter, growth, professional, enterprise] = pricing.plans as [Plan, Plan, Plan, Plan];

  it('finds the two plans a question compares, in its order, and only then', () => {
    expect(names(comparedPlans('Growth vs Professional', pricing))).toEqual(['Growth', 'Professional']);
    expect(names(comparedPlans("what's the difference between growth and professional", pricing))).toEqual([
      'Growth',
      'Professional',
    ]);
    expect(names(comparedPlans('how much more is Professional than Growth?', pricing))).toEqual([
      'Professional',
      'Growth',
    ]);
    expect(names(comparedPlans('starter compared with pro?', pricing))).toEqual(['Starter', 'Professional']);
    expect(comparedPlans('Does Growth or Professional include storage?', pricing)).toBeUndefined();
    expect(comparedPlans('professional indemnity vs a growth strategy', pricing)).toBeUndefined();
    expect(comparedPlans('Starter vs Growth vs Professional', pricing)).toBeUndefined();
  });

  it('quotes both plans\' rows of "Compare plans", and no working when no price is asked', () => {
    for (const q of ['Growth vs Professional', "what's the difference between growth and professional"]) {
      const r = askPricing(q);
      expect(r.answered, q).toBe(true);
      expect(r.working, q).toBeUndefined();
      expect(`\n${r.answer}`, q).toContain(row(growth));
      expect(`\n${r.answer}`, q).toContain(row(professional));
      expect(r.sources[0]!.heading, q).toBe('Compare plans');
      expect(inventedSentences(r, pricing), q).toEqual([]);
    }
  });

  it('gives the difference in price with both rows, the dearer plan first, whichever is named first', () => {
    for (const q of ['how much more is Professional than Growth?', 'how much cheaper is Growth than Professional?']) {
      const r = askPricing(q);
      expect(r.working, q).toMatchObject({ plan: 'Professional', comparedWith: 'Growth', monthly: 1000 });
      expect(r.answer, q).toMatch(/^Professional is \$1,000 a month more than Growth, excluding GST: \$1,890 − \$890/);
      expect(`\n${r.answer}`, q).toContain(row(growth));
      expect(`\n${r.answer}`, q).toContain(row(professional));
      expect(inventedSentences(r, pricing), q).toEqual([]);
    }
    // Add-ons asked with a comparison change neither plan's price: the difference is the plans'.
    expect(priceQuestion('how much more is Professional than Starter with 3 extra users?', pricing)?.monthly).toBe(
      professional.monthly - starter.monthly,
    );
  });

  it('a quoted plan has no difference in price to give: the rows say what each costs', () => {
    const r = askPricing('how much more is Enterprise than Professional?');
    expect(r.working).toBeUndefined();
    expect(`\n${r.answer}`).toContain(row(enterprise));
    expect(`\n${r.answer}`).toContain(row(professional));
    expect(r.answer).not.toMatch(/\$2,010/);
  });
});

describe('a pricing answer cites each price by its row and quotes the sentences it rests on', () => {
  const GST = 'All prices are in Australian dollars and exclude GST.';
  const RULE = 'Answer three questions; the answer that points to the biggest plan wins.';
  // [question, the answer's paragraphs after the working, the sources' headings]
  // The working says prices exclude GST, as does the plans' table header: the GST sentence only when tax is asked.
  const CASES: [string, string[], string[]][] = [
    ['Starter plus 2 extra office users, how much a month?', [], ['Compare plans', 'Add-ons']],
    ['12 in the office and 1,400 moves a year, how much?', [RULE], ['How to choose a plan', 'Compare plans']],
    ['growth paid annually, how much?', [pricing.annualDiscount], ['Compare plans']],
    ["growth billed month to month, what's that over a year?", [], ['Compare plans']],
    ['growth paid annually, how much inc gst?', [pricing.annualDiscount, GST], ['Compare plans', 'GST']],
    ['Growth vs Professional: any tax on top?', [GST], ['Compare plans', 'GST']],
  ];
  it.each(CASES)('%s', (question, paragraphs, headings) => {
    const r = askPricing(question);
    expect(r.answer.split('\n\n').slice(1), question).toEqual(paragraphs);
    expect(r.sources.map((s) => s.heading)).toEqual(headings);
    // A section cited by a row links to the page: a row has no text fragment.
    expect(r.sources.find((s) => s.heading === 'Compare plans')?.url).toBe('https://k.example/pricing');
  });

  it('starts a comparison with the rows compared', () => {
    expect(askPricing('Growth vs Professional').answer).toMatch(/^\| Plan \| Price/);
  });

  it("cites a price by the row holding it with its item's name, not a sentence naming either", () => {
    const lead = 'Growth is the plan most movers start on. Plans start at $390 a month.';
    const markdown = pricingPage(pricing).replace('## Compare plans\n\n', `## Compare plans\n\n${lead}\n\n`);
    const led = pricingSite(markdown);
    for (const q of ['Growth vs Professional', 'Starter plus 2 extra office users, how much a month?']) {
      const r = askOn(led, q);
      expect(r.answer, q).not.toMatch(/most movers|Plans start/);
      expect(r.sources[0]?.url, q).toBe('https://k.example/pricing');
    }
  });

  it('cites what the page has: no plan rule when it has none, and any sentence naming GST', () => {
    const bare = pricingSite(
      '# Pricing\n\n## Compare plans\n\n| Plan | Price |\n|---|---|\n| Growth | $890 |\n\n## Tax\n\nPrices are in AUD, plus GST.\n',
    );
    const r = askOn(bare, '12 in the office and 1,400 moves a year, how much plus gst?');
    expect(r.working?.plan).toBe('Growth');
    expect(r.answer.split('\n\n').slice(1)).toEqual(['Prices are in AUD, plus GST.']);
    expect(r.sources.map((s) => s.heading)).toEqual(['Compare plans', 'Tax']);
  });

  it('quotes the GST sentence beside rows whose table header does not say it, and not where it does', () => {
    // The add-ons' header is "| Add-on | Price | Billed |"; the plans' says "ex GST".
    const addOn = askPricing('how much is an extra office user?');
    expect(addOn.working).toBeUndefined();
    expect(addOn.answer.split('\n\n').at(-1)).toBe(GST);
    expect(addOn.sources.map((s) => s.heading)).toEqual(['Add-ons', 'GST']);
    const said = pricingSite(`${pricingPage(pricing).replace('| Add-on | Price |', '| Add-on | Price (ex GST) |')}\n`);
    const r = askOn(said, 'how much is an extra office user?');
    expect(r.answer).not.toContain(GST);
    expect(r.sources.map((s) => s.heading)).toEqual(['Add-ons']);
  });
});

describe('the working and its sentence', () => {
  const line = (item: string, quantity: number, unitPrice: number, unit = 'per month') => ({
    item,
    quantity,
    unitPrice,
    amount: quantity * unitPrice,
    unit,
  });
  const AUD = { from: false, currency: 'AUD', gst: 'excluded' } as const;
  const [starter, growth, professional] = [
    line('Starter plan', 1, 390),
    line('Growth plan', 1, 890),
    line('Professional plan', 1, 1890),
  ];
  const [users, devices] = [
    (n: number) => line('Extra office user', n, 45),
    (n: number) => line('Extra crew device', n, 12),
  ];
  const usersUnpriced = (asked: string) => ({
    item: 'Extra office user',
    unitPrice: 45,
    unit: 'per user per month',
    asked,
    reason: 'not-whole',
  });
  const gps = structuredClone(pricing);
  gps.addOns.push({ id: 'gps', name: 'GPS Tracker', price: 9, unit: 'per truck per month' });

  // [question, the question it follows, the working (undefined: not a pricing question), its sentence]
  const CASES: [string, string | undefined, object | undefined, string][] = [
    [
      'Starter plus 1 extra office user and 2 sms bundles, how much?',
      undefined,
      {
        plan: 'Starter',
        lines: [starter, users(1), line('SMS bundle (1,000 messages)', 2, 60, 'per bundle')],
        monthly: 555,
        ...AUD,
      },
      'That comes to $555 a month excluding GST: $390 for Starter plan + 1 × $45 for extra office user (per month) + ' +
        '2 × $60 for SMS bundles (1,000 messages) (per bundle) = $555.',
    ],
    [
      '3 extra office users and a crew of 18 on phones on growth, how much?',
      undefined,
      { plan: 'Growth', lines: [growth, users(3), devices(18)], monthly: 1241, ...AUD },
      'That comes to $1,241 a month excluding GST: $890 for Growth plan + 3 × $45 for extra office users (per month) + ' +
        '18 × $12 for extra crew devices (per month) = $1,241.',
    ],
    [
      'a crew of 18 on phones, plus 2 office users on starter, how much?',
      undefined,
      { plan: 'Starter', lines: [starter, users(2), devices(8)], monthly: 576, ...AUD },
      'That comes to $576 a month excluding GST: $390 for Starter plan + 2 × $45 for extra office users (per month) + ' +
        '8 × $12 for extra crew devices (per month) = $576.',
    ],
    // Nothing counted and no price asked: not a pricing question; a count of none adds nothing.
    ['Starter with 0 extra users', undefined, undefined, ''],
    ['12 in the office and 2 extra crew devices', undefined, undefined, ''],
    [
      'Starter with 0 extra users, how much?',
      undefined,
      { plan: 'Starter', lines: [starter], monthly: 390, ...AUD },
      'The Starter plan is $390 a month excluding GST.',
    ],
    [
      'starter with 2 extra users',
      undefined,
      { plan: 'Starter', lines: [starter, users(2)], monthly: 480, ...AUD },
      'That comes to $480 a month excluding GST: $390 for Starter plan + 2 × $45 for extra office users (per month) = $480.',
    ],
    [
      'which plan for 12 office users and 2 crew devices?',
      undefined,
      { plan: 'Growth', lines: [growth, devices(2)], monthly: 914, chosenFor: { officeUsers: 12 }, ...AUD },
      'For 12 office users, the plan that fits is Growth. That comes to $914 a month excluding GST: ' +
        '$890 for Growth plan + 2 × $12 for extra crew devices (per month) = $914.',
    ],
    // A follow-up: its own counts, else the earlier question's; a year paid annually carried unless it asks a price.
    [
      'and with 2.5 extra users?',
      'how much is growth?',
      { plan: 'Growth', lines: [growth], monthly: 890, ...AUD, unpriced: [usersUnpriced('2.5 extra users')] },
      "I can't price 2.5 extra users: it is not a whole number. Extra office users are $45 per user per month. " +
        'The rest comes to $890 a month excluding GST: $890 for Growth plan = $890.',
    ],
    [
      'and with 3 extra users?',
      'How much is Growth with 5 extra users a month?',
      { plan: 'Growth', lines: [growth, users(3)], monthly: 1025, ...AUD },
      'That comes to $1,025 a month excluding GST: $890 for Growth plan + 3 × $45 for extra office users (per month) = $1,025.',
    ],
    [
      'how much is professional with 2 extra users?',
      'How much is Growth with 5 extra users a month?',
      { plan: 'Professional', lines: [professional, users(2)], monthly: 1980, ...AUD },
      'That comes to $1,980 a month excluding GST: $1,890 for Professional plan + 2 × $45 for extra office users (per month) = $1,980.',
    ],
    [
      'and the professional one?',
      'how much is growth paid annually?',
      { plan: 'Professional', lines: [professional], monthly: 1890, ...AUD, yearBilled: 'annually', annual: 18900 },
      'The Professional plan is $1,890 a month excluding GST. ' +
        'Paid annually that is $18,900 a year (12 months for the price of 10: 10 × $1,890).',
    ],
    [
      'how much is professional?',
      'how much is growth paid annually?',
      { plan: 'Professional', lines: [professional], monthly: 1890, ...AUD },
      'The Professional plan is $1,890 a month excluding GST.',
    ],
    [
      'and the professional one?',
      'how much is growth?',
      { plan: 'Professional', lines: [professional], monthly: 1890, ...AUD },
      'The Professional plan is $1,890 a month excluding GST.',
    ],
    [
      'growth paid annually rather than month to month, what is that a year?',
      undefined,
      { plan: 'Growth', lines: [growth], monthly: 890, ...AUD, yearBilled: 'annually', annual: 8900 },
      'The Growth plan is $890 a month excluding GST. ' +
        'Paid annually that is $8,900 a year (12 months for the price of 10: 10 × $890).',
    ],
    // What cannot be priced: said first, each in the visitor's words (spaces squeezed, in the order asked).
    [
      'Starter plus 2.5  extra users, how much?',
      undefined,
      { plan: 'Starter', lines: [starter], monthly: 390, ...AUD, unpriced: [usersUnpriced('2.5 extra users')] },
      "I can't price 2.5 extra users: it is not a whole number. Extra office users are $45 per user per month. " +
        'The rest comes to $390 a month excluding GST: $390 for Starter plan = $390.',
    ],
    [
      '2.5 extra users and 7 of us in the office on growth, how much?',
      undefined,
      {
        plan: 'Growth',
        lines: [growth],
        monthly: 890,
        ...AUD,
        unpriced: [usersUnpriced('2.5 extra users and 7 of us in the office')],
      },
      "I can't price 2.5 extra users and 7 of us in the office: it is not a whole number. Extra office users are $45 " +
        'per user per month. The rest comes to $890 a month excluding GST: $890 for Growth plan = $890.',
    ],
    [
      '5 office staff and 1e308 moves a year, how much?',
      undefined,
      {
        plan: 'Starter',
        lines: [starter],
        monthly: 390,
        ...AUD,
        chosenFor: { officeUsers: 5 },
        unpriced: [{ item: 'moves a year', asked: '1e308 moves a year', reason: 'too-large' }],
      },
      "I can't choose a plan for 1e308 moves a year: the number is too large to work out exactly. " +
        'For 5 office users, the plan that fits is Starter. The Starter plan is $390 a month excluding GST.',
    ],
    [
      '5 office staff and 1e308 moves a year, plus 2.5 crew devices, how much?',
      undefined,
      undefined,
      "I can't choose a plan for 1e308 moves a year: the number is too large to work out exactly. " +
        "I can't price 2.5 crew devices: it is not a whole number. Extra crew devices are $12 per device per month. " +
        'For 5 office users, the plan that fits is Starter. The rest comes to $390 a month excluding GST: ' +
        '$390 for Starter plan = $390.',
    ],
    [
      'how much more is Professional than Growth?',
      undefined,
      {
        plan: 'Professional',
        lines: [professional, line('Growth plan', -1, 890)],
        monthly: 1000,
        comparedWith: 'Growth',
        ...AUD,
      },
      'Professional is $1,000 a month more than Growth, excluding GST: $1,890 − $890 = $1,000.',
    ],
  ];
  it.each(CASES)('%s (after "%s")', (question, previous, working, sentence) => {
    const w = priceQuestion(question, pricing, previous);
    if (working) expect(w).toEqual(working);
    if (sentence) expect(workingSentence(w!)).toBe(sentence);
    else expect(w).toBeUndefined();
  });

  it('names an item as the price list does, lower-cased only when it is a capitalised word', () => {
    const w = priceQuestion('2 GPS trackers on growth, how much?', gps)!;
    expect(workingSentence(w)).toBe(
      'That comes to $908 a month excluding GST: $890 for Growth plan + 2 × $9 for GPS Trackers (per month) = $908.',
    );
  });

  it('counts an add-on named like a plan as an add-on', () => {
    const more = structuredClone(pricing);
    more.addOns.push({ id: 'support', name: 'Priority support plan', price: 99, unit: 'per month' });
    expect(workingSentence(priceQuestion('Growth plus 2 priority support plans, how much?', more)!)).toBe(
      'That comes to $1,088 a month excluding GST: $890 for Growth plan + 2 × $99 for priority support plans (per month) = $1,088.',
    );
  });

  it('quotes a plan whose price is from or quoted, and gives no difference with it', () => {
    for (const flag of ['quoted', 'priceFrom'] as const) {
      const one = structuredClone(pricing);
      one.plans[3]![flag] = false;
      expect(priceQuestion('how much is enterprise?', one)?.from, flag).toBe(true);
      expect(priceQuestion('how much more is Enterprise than Professional?', one), flag).toBeUndefined();
    }
  });

  it('says a year paid annually when the working does not say how', () => {
    const w = { plan: 'Growth', lines: [growth], monthly: 890, annual: 8900, ...AUD };
    expect(workingSentence(w)).toMatch(/Paid annually that is \$8,900 a year \(12 months for the price of 10: /);
  });
});
