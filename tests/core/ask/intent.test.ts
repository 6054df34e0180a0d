// Stage 2, intent: the classifier trained at build time, its request threshold and its guard rule.
import { describe, expect, it } from 'vitest';
import { classifyIntent, intentFeatures, intentOf, intentScores } from '../../../src/core/ask/intent.ts';
import { trainIntents } from '../../../src/core/ask-indexer/train-intents.ts';
import { INTENT_EXAMPLES, siteIndex } from './site.ts';

const index = await siteIndex();
const model = index.data.intents;

describe('intent', () => {
  it('reads words and their bigrams, chat speak as meant, numbers as one token', () => {
    expect(intentFeatures('pls call me 0400', index.lexicon)).toEqual(
      expect.arrayContaining(['please', 'call', 'please call', 'call me', 'me #']),
    );
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
  });

  it('reads a message the price list prices as a question, not a request for sales', () => {
    const contact = classifyIntent(model, 'i want to talk to sales', index.lexicon);
    expect(contact).toBe('contact');
    expect(intentOf(model, 'i want to talk to sales', index.lexicon, true)).toBe('none');
    expect(intentOf(model, 'could i book a demo', index.lexicon, true)).toBe('demo');
  });

  it('trains the same model from the same examples', () => {
    const again = trainIntents(INTENT_EXAMPLES, index.lexicon, { epochs: 20 });
    expect(trainIntents(INTENT_EXAMPLES, index.lexicon, { epochs: 20 })).toEqual(again);
  });
});
