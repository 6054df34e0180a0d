// Stage 2, intent: the classifier trained at build time, its request threshold and its guard rule.
import { describe, expect, it } from 'vitest';
import { classifyIntent, INTENTS, intentFeatures, intentOf, intentScores } from '../../../src/core/ask/intent.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const model = index.data.intents;

describe('intent', () => {
  it('reads words and their bigrams, chat speak as meant, numbers as one token', () => {
    expect(intentFeatures('pls call me 0400', index.lexicon)).toEqual(
      expect.arrayContaining(['please', 'call', 'please call', 'call me', 'me #']),
    );
    expect(intentFeatures('book a demo', index.lexicon)).toEqual(['book', 'a', 'demo', 'book a', 'a demo']);
    // A word with digits in it is a word, not a number.
    expect(intentFeatures('10am x100', index.lexicon)).toEqual(['10am', 'x100', '10am x100']);
  });

  it('reads at most the first 200 words of a message', () => {
    const features = intentFeatures(Array.from({ length: 250 }, (_, i) => `w${i}`).join(' '), index.lexicon);
    expect(features).toContain('w199');
    expect(features).not.toContain('w200');
  });

  it('learns each request from its examples and leaves questions alone', () => {
    expect(classifyIntent(model, 'could i book a demo', index.lexicon)).toBe('demo');
    expect(classifyIntent(model, 'someone please ring me back', index.lexicon)).toBe('callback');
    expect(classifyIntent(model, 'our app keeps crashing, need support', index.lexicon)).toBe('support');
    expect(classifyIntent(model, 'does storage billing charge part months', index.lexicon)).toBe('none');
  });

  it('gives probabilities that sum to one, and reads a request below REQUEST_MIN as a question', () => {
    const p = intentScores(model, 'demo', index.lexicon);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const flat = { features: {}, weights: model.weights.map(() => []), bias: model.bias.map(() => 0) };
    expect(classifyIntent(flat, 'book a demo', index.lexicon)).toBe('none');
    // [bias per intent (none, demo, contact, support, callback, message), what the text is read as]
    const BIASED: [number[], string][] = [
      // Demo the most probable at 0.35: below REQUEST_MIN, a question.
      [[0, 1, 0, 0, 0, 0], 'none'],
      // Demo at REQUEST_MIN 0.6 is 3 parts of 5 beside contact and support at 1 each: just over it (3.01 parts), a
      // request; just under (2.99), a question.
      [[-1e4, Math.log(3.01), 0, 0, -1e4, -1e4], 'demo'],
      [[-1e4, Math.log(2.99), 0, 0, -1e4, -1e4], 'none'],
      // Far apart (no overflow): certain.
      [[0, 1000, 0, 0, 0, 0], 'demo'],
    ];
    for (const [bias, intent] of BIASED)
      expect(classifyIntent({ ...flat, bias }, 'book a demo', index.lexicon), String(bias)).toBe(intent);
    expect(intentScores({ ...flat, bias: [0, 1000, 0, 0, 0, 0] }, 'x', index.lexicon)).toEqual([0, 1, 0, 0, 0, 0]);
  });

  it('reads a message the price list prices as a question, unless it asks for sales or support beyond doubt', () => {
    const quote = 'please quote us for Professional with 45 office staff';
    const sales = 'I want to talk to someone in sales about pricing for Growth with 20 office users';
    const contact = (t: string) => intentScores(model, t, index.lexicon)[INTENTS.indexOf('contact')]!;
    expect(contact(quote)).toBeGreaterThan(0.6);
    expect(contact(quote)).toBeLessThan(0.9);
    expect(contact(sales)).toBeGreaterThanOrEqual(0.9);
    expect(intentOf(model, quote, index.lexicon, false)).toBe('contact');
    expect(intentOf(model, quote, index.lexicon, true)).toBe('none');
    expect(intentOf(model, sales, index.lexicon, true)).toBe('contact');
    expect(intentOf(model, 'could i book a demo', index.lexicon, true)).toBe('demo');
    // The rule is about sales: a demo asked beside a price stays a request, however sure.
    const demo = 'starter for 5 office users, we might want to see it first';
    expect(intentScores(model, demo, index.lexicon)[INTENTS.indexOf('demo')]).toBeLessThan(0.9);
    expect(intentOf(model, demo, index.lexicon, true)).toBe('demo');
    // A customer pricing a change to their own plan may read as support; it is a question too, unless beyond doubt.
    const change =
      'we are on growth, add the video survey app so recordings help with disputes, plus 2 users. monthly cost?';
    const support = intentScores(model, change, index.lexicon)[INTENTS.indexOf('support')]!;
    expect([support > 0.6, support < 0.9]).toEqual([true, true]);
    expect(intentOf(model, change, index.lexicon, false)).toBe('support');
    expect(intentOf(model, change, index.lexicon, true)).toBe('none');
  });

  it('reads a message that asks whom to talk to as a request for a person, which the classifier may not', () => {
    const flat = { features: {}, weights: model.weights.map(() => []) };
    const none = { ...flat, bias: [1000, 0, 0, 0, 0, 0] };
    expect(classifyIntent(none, 'who do I talk to about a written quote?', index.lexicon)).toBe('none');
    for (const text of ['who do I talk to about a written quote?', 'Our sync stopped. Who can I contact?'])
      expect(intentOf(none, text, index.lexicon, false), text).toBe('contact');
    // Asking whom to email, or where to take a complaint, is a question the site answers.
    for (const text of ['who do I email about an invoice?', 'who can I go to about a privacy complaint?'])
      expect(intentOf(none, text, index.lexicon, false), text).toBe('none');
    // A request the classifier reads stays what it is.
    const callback = { ...flat, bias: [0, 0, 0, 0, 1000, 0] };
    expect(intentOf(callback, 'who do I talk to? please ring me', index.lexicon, false)).toBe('callback');
  });
});
