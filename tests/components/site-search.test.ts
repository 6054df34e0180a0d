/** The /search page's rule for when a query also goes to POST /api/v1/ask: it reads as a question. */
import { describe, expect, it } from 'vitest';
import { isQuestion } from '../../src/components/site-search.ts';

describe('isQuestion', () => {
  it('is a question when it ends with a question mark', () => {
    expect(isQuestion('free trial?')).toBe(true);
    expect(isQuestion('  pricing ?  ')).toBe(true);
  });

  it('is a question when it starts with a question word, in any case', () => {
    for (const word of 'how what when where which who why can could do does is are will would should'.split(' '))
      expect(isQuestion(`${word} storage`), word).toBe(true);
    expect(isQuestion('How much')).toBe(true);
    expect(isQuestion("what's the price")).toBe(true);
    expect(isQuestion('“Does the crew app work offline')).toBe(true);
  });

  it('is a question when it has five words or more', () => {
    expect(isQuestion('storage billing for vault units monthly')).toBe(true);
    expect(isQuestion('storage billing for vault units')).toBe(true);
    expect(isQuestion('storage billing for vaults')).toBe(false);
  });

  it('is not a question for keywords, or for words that only start like a question word', () => {
    expect(isQuestion('storage billing')).toBe(false);
    expect(isQuestion('pricing')).toBe(false);
    expect(isQuestion('cancel subscription')).toBe(false);
    expect(isQuestion('island moves')).toBe(false);
    expect(isQuestion('whois lookup')).toBe(false);
    expect(isQuestion('')).toBe(false);
    expect(isQuestion('   ')).toBe(false);
  });
});
