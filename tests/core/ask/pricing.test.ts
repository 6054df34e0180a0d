// The chat's price stage (src/core/ask/pricing.ts): pricing questions read with the price list's own vocabulary,
// priced from content/data/pricing.json with the working, and answered through askSite with each price cited.
import { describe, expect, it } from 'vitest';
import pricingData from '../../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../../src/contract/content.ts';
import { askSite } from '../../../src/core/ask/answer.ts';
import { askIndexOf } from '../../../src/core/ask/index.ts';
import { priceQuestion, workingSentence } from '../../../src/core/ask/pricing.ts';
import { inventedSentences } from '../../helpers/ask-metrics.ts';

const pricing = PricingSchema.parse(pricingData);

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

  it('counts a crew "of 18 on phones" as crew devices', () => {
    const w = priceQuestion(
      'starter for a crew of 18 on phones and 6 of us in the office, how much a month?',
      pricing,
    )!;
    // Starter has 10 devices and 5 users of its own.
    expect(w.monthly).toBe(390 + 8 * 12 + 1 * 45);
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

  it('counts SMS bundles named with their size between the count and the bundle', () => {
    const w = priceQuestion('growth plus two 1,000-message sms bundles, what a month?', pricing)!;
    expect([w.plan, w.monthly]).toEqual(['Growth', 890 + 2 * 60]);
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

  it('a follow-up keeps the add-ons and takes the new plan', () => {
    const w = priceQuestion('and the Professional one?', pricing, 'How much is Growth with 3 extra users a month?')!;
    expect(w.plan).toBe('Professional');
    expect(w.monthly).toBe(1890 + 3 * 45);
  });
});

describe('pricing answers through askSite', () => {
  const index = askIndexOf([
    {
      slug: 'pricing',
      title: 'Pricing | Kartage',
      url: 'https://k.example/pricing',
      markdown:
        '# Pricing\n\n## Compare plans\n\n| Plan | Price |\n|---|---|\n| Starter | $390 |\n| Growth | $890 |\n| Professional | $1,890 |\n\n## Add-ons\n\n| Add-on | Price |\n|---|---|\n| Extra office user | $45 |\n\n## GST\n\nAll prices exclude GST.\n',
    },
  ]);
  const at = Date.parse('2026-11-25T02:00:00Z');
  const ask = (question: string) => askSite({ index, pricing, origin: 'https://k.example', now: at }, { question });

  it('answers pricing arithmetic with its working, each price cited', () => {
    const r = ask('Starter plus 2 extra office users, how much a month?');
    expect(r.working?.monthly).toBe(480);
    expect(r.sources.map((s) => s.heading)).toEqual(['Compare plans', 'Add-ons', 'GST']);
    expect(r.answer).toContain('All prices exclude GST.');
    expect(inventedSentences(r, pricing)).toEqual([]);
  });
});
