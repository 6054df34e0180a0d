// The chat's work per question is bounded whatever the question holds: the number of index look-ups
// (vocabulary, document frequency, postings) one request makes is counted, not timed, for the hostile corpus, alone
// and after ten turns of itself, and for seeded random questions over an alphabet of the characters that fold into
// several letters. Time is measured in `npm run bench`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { ASK_LIMITS } from '../../src/contract/limits.ts';
import { askSite } from '../../src/core/ask/answer.ts';
import { askIndexOf } from '../../src/core/ask-indexer/assemble.ts';
import { FUZZ_SEED, runs } from '../fuzz/support.ts';
import { HOSTILE_QUESTIONS } from '../helpers/hostile-questions.ts';

const pricing = PricingSchema.parse(pricingData);
const index = askIndexOf([
  {
    slug: 'pricing',
    title: 'Pricing | Kartage',
    url: 'https://kartage.test/pricing',
    markdown:
      '# Pricing\n\n## Plans\n\nStarter is $390 a month. Growth is $890 a month.\n\n## Trial\n\nStarter and Growth come with a 30-day trial.\n',
  },
  {
    slug: 'product/storage',
    title: 'Storage | Kartage',
    url: 'https://kartage.test/product/storage',
    markdown: '# Storage\n\n## Billing runs\n\nStorage billing runs invoice every vault on the same day each month.\n',
  },
]);

/** Look-ups made by `run` (each call of the index's word, frequency and postings readers). */
function lookups(run: () => void): number {
  let n = 0;
  const target = index as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = ['wordCount', 'df', 'postings'].map((m) => [m, target[m]!] as const);
  for (const [m, f] of saved)
    target[m] = function (this: unknown, ...a: unknown[]) {
      n++;
      return f.apply(this, a);
    };
  try {
    run();
  } finally {
    for (const [m, f] of saved) target[m] = f;
  }
  return n;
}

const ask = (question: string, turns = 0) =>
  askSite(
    { index, pricing, origin: 'https://kartage.test', now: Date.parse('2026-11-25T02:00:00Z') },
    { question, conversation: Array.from({ length: turns }, () => ({ question })) },
  );

/**
 * The most look-ups one request may make: a few thousand per corrected word (one edit of a 20-letter word, two of a
 * 12-letter one), at most eight corrected words a text, and a handful of texts a request (its parts and the turn
 * before). Unbounded, a 500-character run of "ﬃ" made about a million.
 */
const BOUND = 150_000;

describe('work per question', () => {
  for (const [name, q] of Object.entries(HOSTILE_QUESTIONS)) {
    it(`${name}: at most ${BOUND} look-ups, alone and after ten turns`, () => {
      expect(lookups(() => ask(q))).toBeLessThanOrEqual(BOUND);
      expect(lookups(() => ask(q, ASK_LIMITS.turnsMax))).toBeLessThanOrEqual(BOUND);
    });
  }

  it('a normal question makes a few hundred look-ups at most', () => {
    expect(lookups(() => ask('How much is Growth a month, and is there a trial?'))).toBeLessThan(500);
  });

  it('seeded random questions of folding characters, digits and misspellings stay within the bound', () => {
    const pieces = ['\ufb03', '\u3316', '\ufdfa', 'qwertyuiop', 'storag', '9', ' ', '?', '@', 'and is ', '\u0301'];
    const question = fc
      .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 200 })
      .map((p) => p.join('').slice(0, ASK_LIMITS.questionMax));
    fc.assert(
      fc.property(question, fc.integer({ min: 0, max: ASK_LIMITS.turnsMax }), (q, turns) => {
        expect(lookups(() => ask(q, turns))).toBeLessThanOrEqual(BOUND);
      }),
      { seed: FUZZ_SEED, numRuns: runs(0.05) },
    );
  });
});
