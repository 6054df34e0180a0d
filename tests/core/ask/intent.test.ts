// Stage 2, intent: the classifier trained at build time, its request threshold and its guard rule.
import { describe, expect, it } from 'vitest';
import { classifyIntent, INTENTS, intentFeatures, intentOf, intentScores } from '../../../src/core/ask/intent.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const model = index.data.intents;
/** A model that reads no word: its biases alone decide. */
const flat = { features: {}, weights: model.weights.map(() => []) };

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
    expect(classifyIntent({ ...flat, bias: model.bias.map(() => 0) }, 'book a demo', index.lexicon)).toBe('none');
    // [bias per intent (none, demo, contact, support, callback, message), what the text is read as]
    const BIASED: [number[], string][] = [
      // Demo the most probable at 0.35: below REQUEST_MIN, a question.
      [[0, 1, 0, 0, 0, 0], 'none'],
      // Demo at REQUEST_MIN 0.5 is 2 parts of 4 beside contact and support at 1 each: just over it (2.01 parts), a
      // request; just under (1.99), a question.
      [[-1e4, Math.log(2.01), 0, 0, -1e4, -1e4], 'demo'],
      [[-1e4, Math.log(1.99), 0, 0, -1e4, -1e4], 'none'],
      // Far apart (no overflow): certain.
      [[0, 1000, 0, 0, 0, 0], 'demo'],
    ];
    for (const [bias, intent] of BIASED)
      expect(classifyIntent({ ...flat, bias }, 'book a demo', index.lexicon), String(bias)).toBe(intent);
    expect(intentScores({ ...flat, bias: [0, 1000, 0, 0, 0, 0] }, 'x', index.lexicon)).toEqual([0, 1, 0, 0, 0, 0]);
  });

  it('reads a message the price list prices as a question, unless it asks for sales or support beyond doubt', () => {
    // A model that reads every text as `intent` with probability p (the rest spread evenly over the others).
    const sure = (intent: string, p: number) => ({
      ...flat,
      bias: INTENTS.map((k) => (k === intent ? Math.log(p) : Math.log((1 - p) / (INTENTS.length - 1)))),
    });
    const text = 'please quote us for Professional with 45 office staff';
    // Sales or support between REQUEST_MIN and PRICED_REQUEST_MIN (0.9): a request, but a question when priced.
    for (const intent of ['contact', 'support'] as const) {
      expect(intentOf(sure(intent, 0.8), text, index.lexicon, false), intent).toBe(intent);
      expect(intentOf(sure(intent, 0.8), text, index.lexicon, true), intent).toBe('none');
      expect(intentOf(sure(intent, 0.89), text, index.lexicon, true), intent).toBe('none');
      // Beyond doubt: a request, priced or not.
      expect(intentOf(sure(intent, 0.91), text, index.lexicon, true), intent).toBe(intent);
    }
    // The rule is about sales and support: a demo, a call back or a message asked beside a price stays a request.
    for (const intent of ['demo', 'callback', 'message'] as const)
      expect(intentOf(sure(intent, 0.6), text, index.lexicon, true), intent).toBe(intent);
    // The trained model: a quote asked for is sales; sales asked for in so many words beside a price stays a request,
    // as does a demo.
    expect(intentOf(model, text, index.lexicon, false)).toBe('contact');
    const sales = 'I want to talk to someone in sales about pricing for Growth with 20 office users';
    expect(intentOf(model, sales, index.lexicon, true)).toBe('contact');
    expect(intentOf(model, 'could i book a demo', index.lexicon, true)).toBe('demo');
  });

  it('reads a message that asks whom to talk to as a request for a person, which the classifier may not', () => {
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
