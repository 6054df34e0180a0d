/**
 * The pricing page's copy and the price list (content/data/pricing.json) agree: what the page's prose
 * (content/pages/pricing.md) and its rendered tables and notes (dist/pricing.md, the page's markdown twin, built by
 * `node server/build-check.ts`) say of annual billing and the trial is what the machine-readable fields say, the
 * fields the chat computes from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const pricing = PricingSchema.parse(pricingData);
const prose = readFileSync(join(PROJECT_ROOT, 'content/pages/pricing.md'), 'utf8');
const rendered = readFileSync(join(PROJECT_ROOT, 'dist/pricing.md'), 'utf8');
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const count = (word: string) => (/^\d+$/.test(word) ? Number(word) : WORDS.indexOf(word.toLowerCase()));
/** Every match of `re` in `text`, as the numbers of its groups. */
const stated = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m.slice(1).map(count));
const names = (plans: typeof pricing.plans) => plans.map((p) => p.name).join(' and ');

describe('the pricing copy and the price list agree', () => {
  const charged = pricing.annualBilling.monthsCharged;

  it('annual billing: the months off and "twelve months for the price of ten" are the months charged', () => {
    expect(stated(pricing.annualDiscount, /takes (\w+) months? off/g)).toEqual([[12 - charged]]);
    const twelve = stated(prose, /you get (\w+) months off: (\w+) months of Kartage for the price of (\w+)\./g);
    expect(twelve).toEqual([[12 - charged, 12, charged]]);
    expect(stated(prose, /where the (\w+) months off come from/g)).toEqual([[12 - charged]]);
    // The page renders the price list's sentence in its table note and its notes.
    expect(rendered.split(pricing.annualDiscount).length - 1).toBe(2);
  });

  it('the trial: its days and plans, in the front matter, the prose and the rendered notes', () => {
    const trial = pricing.plans.filter((p) => p.trial);
    const setUp = pricing.plans.filter((p) => !p.trial);
    expect(prose).toContain(`with a ${pricing.trialDays}-day trial on ${names(trial)}.`);
    expect(prose).toContain(`${names(trial)} come with a ${pricing.trialDays}-day trial.`);
    expect(prose).toContain(`${names(setUp)} start with a guided [demo](/demo)`);
    expect(rendered).toContain(`${pricing.trialDays}-day trial on ${names(trial)}.`);
    expect(rendered).toContain(`${pricing.trialDays}-day trial on ${names(trial)}; ${names(setUp)} start with`);
  });

  it('a quoted plan is "from" its price in the rendered notes', () => {
    for (const p of pricing.plans.filter((x) => x.quoted))
      expect(rendered).toContain(`**${p.name}:** from $${p.monthly.toLocaleString('en-AU')} a month, quoted`);
  });
});
