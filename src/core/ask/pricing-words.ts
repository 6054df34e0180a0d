/**
 * @module The price stage's vocabulary, generated from the price list (content/data/pricing.json: plan names and
 * ids, add-on names) and the visitors' words for the same things (pricing-words.json, checked here): patterns that
 * find a plan's name used as a plan, a count of an add-on, and the figures a plan is sized by.
 */
import { z } from 'zod';
import type { Pricing } from '../../contract/content.ts';
import { fold } from '../search/analyze.ts';
import data from './pricing-words.json' with { type: 'json' };

const note = z.string().min(20);
const words = z.array(z.string().min(1)).min(1);
const figure = z.strictObject({ note, words });

export const PricingWordsSchema = z.strictObject({
  note,
  /** Other words for a plan, by plan id. */
  plans: z.record(z.string(), z.strictObject({ note, words })),
  /** Words after a plan's name that keep it a plan. */
  planFollowers: z.strictObject({ note, words }),
  /** Words for what an add-on counts, by add-on id: `qualifiers` may stand before them, `units` fill a bundle. */
  addOns: z.record(
    z.string(),
    z.strictObject({
      note,
      qualifiers: z.array(z.string().min(1)),
      words,
      units: words.optional(),
      oneWhenNamed: z.literal(true).optional(),
    }),
  ),
  /** Words for what the plans are sized by. */
  figures: z.strictObject({ movesPerYear: figure, warehouses: figure }),
  /** Counts written as words. */
  numbers: z.strictObject({ note, words: z.record(z.string(), z.number().int().min(0)) }),
});
export type PricingWords = z.infer<typeof PricingWordsSchema>;

/** The visitors' words for priced things (pricing-words.json). */
export const PRICING_WORDS: PricingWords = PricingWordsSchema.parse(data);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Words as one alternation, longest first, each word of each with an optional plural unless `plural` is false. */
export function alternatives(list: readonly string[], plural = true): string {
  const suffix = plural ? '(?:s|es)?' : '';
  return [...new Set(list.map((w) => fold(w).trim()))]
    .sort((a, b) => b.length - a.length)
    .map((w) =>
      w
        .split(/\s+/)
        .map((part) => `${escapeRegExp(part)}${suffix}`)
        .join(String.raw`\s+`),
    )
    .join('|');
}

/** A number as a visitor may write one: digits (with commas, a fraction, an exponent, a sign), or not a number. */
const NUMERAL = String.raw`(?<![\w.,])(?:[-−]\s?)?(?:\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|∞|\b(?:nan|infinity)\b)`;

/** An add-on and the patterns that count it. */
export interface AddOnWords {
  addOn: Pricing['addOns'][number];
  /** A count of the add-on: group 1 the number, the whole match what was counted. */
  count: RegExp;
  /** The add-on named without a number (an app is one). */
  named?: RegExp;
  /** A count of the units a bundle holds ("2,500 texts"): group 1 the number. */
  units?: RegExp;
}

export interface PricingVocabulary {
  /** A plan's name used as a plan; group 1 the word, `planIds` maps it to the plan. */
  planName: RegExp;
  planIds: ReadonlyMap<string, string>;
  addOns: readonly AddOnWords[];
  /**
   * People counted by what they use, rewritten as a count of the add-on they need before counting ("a crew of 18 on
   * phones" -> "18 crew device", "7 of us log into the office" -> "7 office user log into the office").
   */
  rewrites: readonly (readonly [RegExp, string])[];
  /** Moves in a given time: group 1 the number, group 2 the period ("year", "month", "week"). */
  moves: RegExp;
  /** A number of warehouses: group 1 the number. */
  warehouses: RegExp;
  /** People in the office ("12 in the office", "12 office staff"): group 1 or 2 the number. */
  officeStaff?: RegExp;
  /** Counts written as words. */
  numbers: Readonly<Record<string, number>>;
}

const vocabularies = new WeakMap<Pricing, PricingVocabulary>();

/** The vocabulary of a price list (built once per price list). */
export function vocabularyOf(pricing: Pricing): PricingVocabulary {
  const known = vocabularies.get(pricing);
  if (known) return known;
  const w = PRICING_WORDS;
  const planIds = new Map<string, string>();
  for (const p of pricing.plans)
    for (const word of [p.name, p.id, ...(w.plans[p.id]?.words ?? [])]) planIds.set(fold(word), p.id);
  const numeral = `(${NUMERAL})`;
  const num = String.raw`(${NUMERAL}|\b(?:${alternatives(Object.keys(w.numbers.words), false)})\b)`;
  const more = String.raw`(?:\s+(?:more|extra|additional|further|new))?`;
  const rewrites: [RegExp, string][] = [];
  let officeStaff: RegExp | undefined;
  const addOns = pricing.addOns.map((addOn): AddOnWords => {
    const own = w.addOns[addOn.id];
    // The add-on's own name, without its note in brackets or the "extra" a count says anyway.
    const name = fold(addOn.name)
      .replace(/\s*\(.*\)\s*/, '')
      .replace(/^extra\s+/, '');
    const quals = own?.qualifiers.length ? alternatives(own.qualifiers) : undefined;
    const units = own?.units && addOn.bundleSize ? alternatives(own.units) : undefined;
    // A bundle's size may stand between the count and the bundle ("two 1,000-message sms bundles").
    const size = units ? String.raw`(?:\s+\d[\d,]*[- ](?:${units}))?` : '';
    const thing = alternatives([name, ...(own?.words ?? [])]);
    if (own && quals) {
      const canonical = `$1 ${fold(own.qualifiers[0]!)} ${fold(own.words[0]!)}`;
      const uses = String.raw`(?:in|on|into|at|use|using)\s+the\s+(?:${quals})\b`;
      if (addOn.adds === 'officeUsers') {
        rewrites.push([new RegExp(String.raw`${num}\s+of\s+us(?=\s+(?:[a-z']+\s+){0,3}${uses})`, 'g'), canonical]);
        officeStaff = new RegExp(
          String.raw`${numeral}\s+(?:(?:of\s+us|people|staff|users?)\s+(?:[a-z']+\s+){0,3})?${uses}|${numeral}\s+(?:${quals})\s+(?:${thing})\b`,
        );
      }
      if (addOn.adds === 'crewDevices') {
        const on = String.raw`\s+(?:on|with|using)\s+(?:(?:${alternatives(own.words, false)})s?|the\s+(?:(?:${quals})\s+)?app)\b`;
        rewrites.push([new RegExp(String.raw`\bcrews?\s+of\s+${num}${on}`, 'g'), canonical]);
        rewrites.push([
          new RegExp(String.raw`${num}\s+(?:guys|blokes|workers|(?:${quals})\s+members|people)${on}`, 'g'),
          canonical,
        ]);
      }
    }
    return {
      addOn,
      count: new RegExp(
        String.raw`${num}${more}${size}${quals ? String.raw`(?:\s+(?:${quals}))?` : ''}\s+(?:${thing})\b`,
        'g',
      ),
      named: own?.oneWhenNamed ? new RegExp(String.raw`\b(?:${thing})\b`) : undefined,
      units: units ? new RegExp(String.raw`${numeral}\s*(?:${units})\b`) : undefined,
    };
  });
  const vocabulary: PricingVocabulary = {
    planName: new RegExp(
      String.raw`\b(${alternatives([...planIds.keys()], false)})\b(?=\s*(?:$|[^\s\w]|\d|(?:${w.planFollowers.words.map(escapeRegExp).join('|')})\b))`,
      'g',
    ),
    planIds,
    addOns,
    rewrites,
    moves: new RegExp(
      String.raw`${numeral}\s*(?:${alternatives(w.figures.movesPerYear.words)})(?:\s+(?:a|per|each|every|in a)\s+(yr|year|annum|month|mth|week|wk))?\b`,
    ),
    warehouses: new RegExp(String.raw`${num}\s+(?:${alternatives(w.figures.warehouses.words)})\b`),
    officeStaff,
    numbers: w.numbers.words,
  };
  vocabularies.set(pricing, vocabulary);
  return vocabulary;
}
