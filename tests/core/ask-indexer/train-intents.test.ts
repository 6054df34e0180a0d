// The intent classifier's training (src/core/ask-indexer/train-intents.ts): softmax regression fitted by Adam.
import { describe, expect, it } from 'vitest';
import { classifyIntent, INTENTS, type Intent, intentScores } from '../../../src/core/ask/intent.ts';
import { compileLexicon } from '../../../src/core/ask-indexer/lexicon.ts';
import { type IntentExample, trainIntents } from '../../../src/core/ask-indexer/train-intents.ts';
import { EMPTY_LEXICON } from '../../../src/core/lexicon.ts';

const lexicon = compileLexicon(EMPTY_LEXICON);
const K = INTENTS.length;
const ex = (intent: Intent, ...texts: string[]): IntentExample[] => texts.map((text) => ({ text, intent }));
/** Per intent, in INTENTS order: `on` for the ones named, `off` for the others. */
const perIntent = (on: number, off: number, ...named: Intent[]) =>
  INTENTS.map((intent) => (named.includes(intent) ? on : off));
/** Rate 1, no regularisation, every intent weighed the same. */
const PLAIN = { rate: 1, l2: 0, balance: 0, minCount: 1 };
/**
 * A parameter after two Adam steps from zero with gradients `g1` then `g2` (decay rates 0.9 and 0.999): each step is
 * the rate times the running gradient over the root of the running squared gradient, both corrected for their start.
 */
function adamTwice(g1: number, g2: number, rate: number): number {
  const first = (rate * g1) / (Math.abs(g1) + 1e-8);
  const m = 0.9 * 0.1 * g1 + 0.1 * g2;
  const v = 0.999 * 0.001 * g1 ** 2 + 0.001 * g2 ** 2;
  return -first - (rate * m) / (1 - 0.9 ** 2) / (Math.sqrt(v / (1 - 0.999 ** 2)) + 1e-8);
}

describe('trainIntents', () => {
  it('learns features seen in at least `minCount` examples, numbered the same whatever the examples’ order', () => {
    const examples = [...ex('demo', 'book a demo', 'book a call'), ...ex('callback', 'call me')];
    const features = (minCount: number, list = examples) =>
      trainIntents(list, lexicon, { epochs: 1, minCount, minWeight: 0 }).features;
    expect(Object.keys(features(2)).sort()).toEqual(['a', 'book', 'book a', 'call']);
    expect(Object.keys(features(3))).toEqual([]);
    const all = features(1);
    expect(Object.keys(all).sort()).toEqual([
      'a',
      'a call',
      'a demo',
      'book',
      'book a',
      'call',
      'call me',
      'demo',
      'me',
    ]);
    expect(Object.values(all).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(features(1, [...examples].reverse())).toEqual(all);
  });

  it('gives every intent a weight per feature and a bias, rounded to four places', () => {
    const model = trainIntents([...ex('demo', 'book a demo'), ...ex('none', 'what is a demo')], lexicon, PLAIN);
    const D = Object.keys(model.features).length;
    expect(model.weights).toHaveLength(K);
    for (const row of model.weights) expect(row).toHaveLength(D);
    expect(model.bias).toHaveLength(K);
    const values = [...model.weights.flat(), ...model.bias];
    expect(values.some((v) => v !== 0)).toBe(true);
    for (const v of values) expect(Math.abs(v * 1e4 - Math.round(v * 1e4))).toBeLessThan(1e-6);
  });

  it('starts from zero: no epoch, no weight', () => {
    const model = trainIntents(ex('demo', 'book demo'), lexicon, { ...PLAIN, epochs: 0 });
    expect(model.bias).toEqual(perIntent(0, 0));
    expect(model.weights.flat().every((v) => v === 0)).toBe(true);
  });

  it('takes one Adam step per epoch: the first moves every parameter by the rate, against its gradient', () => {
    // One example: the gradient is (1/K - 1) for its intent, 1/K for the others; a feature in every example moves as
    // the bias does.
    const one = trainIntents(ex('demo', 'book demo'), lexicon, { ...PLAIN, epochs: 1, rate: 0.5 });
    expect(one.bias).toEqual(perIntent(0.5, -0.5, 'demo'));
    expect(Object.keys(one.features)).toHaveLength(3);
    for (const column of Object.values(one.features)) expect(one.weights.map((row) => row[column])).toEqual(one.bias);
    // Two examples of different intents with the same words: the mean of their gradients, (2/K - 1) / 2 for both.
    const two = trainIntents([...ex('demo', 'demo'), ...ex('none', 'demo')], lexicon, { ...PLAIN, epochs: 1 });
    expect(two.bias).toEqual(perIntent(1, -1, 'demo', 'none'));
    // The second step starts from the first: logits 2 and -2 (bias and weight), so the intent's probability is
    // e^4 / (e^4 + K - 1); the step follows the running gradients of both.
    const p = Math.exp(4) / (Math.exp(4) + K - 1);
    const second = trainIntents(ex('demo', 'demo'), lexicon, { ...PLAIN, epochs: 2 });
    const expected = perIntent(adamTwice(1 / K - 1, p - 1, 1), adamTwice(1 / K, (1 - p) / (K - 1), 1), 'demo');
    for (const [k, v] of second.bias.entries()) expect(v).toBeCloseTo(expected[k]!, 3);
    expect(second.weights.map((row) => row[0])).toEqual(second.bias);
  });

  it('pulls the weights towards zero by `l2` of their value (the bias is not)', () => {
    const l2 = 0.1;
    const model = trainIntents(ex('demo', 'demo'), lexicon, { ...PLAIN, l2, epochs: 2 });
    // The first step moves the weight and the bias alike, to 1 for the intent and -1 for the others; the second adds
    // l2 times that to the weight's gradient only.
    const p = Math.exp(4) / (Math.exp(4) + K - 1);
    const demo = INTENTS.indexOf('demo');
    for (let k = 0; k < K; k++) {
      const [g1, g2] = k === demo ? [1 / K - 1, p - 1] : [1 / K, (1 - p) / (K - 1)];
      const first = k === demo ? 1 : -1;
      expect(model.bias[k]).toBeCloseTo(adamTwice(g1, g2, 1), 3);
      expect(model.weights[k]![0]).toBeCloseTo(adamTwice(g1, g2 + l2 * first, 1), 3);
      expect(Math.abs(model.weights[k]![0]!)).toBeLessThan(Math.abs(model.bias[k]!));
    }
  });

  it('weighs each intent by the inverse of its share to the power `balance`', () => {
    // Three examples of one intent and one of another, all the same word: trained long, the model's probabilities
    // for that word are the intents' weighed shares.
    const examples = [...ex('demo', 'demo', 'demo', 'demo'), ...ex('none', 'demo')];
    const share = (balance: number) => {
      const model = trainIntents(examples, lexicon, { ...PLAIN, rate: 0.05, balance, epochs: 600 });
      const p = intentScores(model, 'demo', lexicon);
      return [p[INTENTS.indexOf('demo')]!, p[INTENTS.indexOf('none')]!];
    };
    // Not balanced: each example counts once, 3 to 1.
    const [demo, none] = share(0);
    expect(demo).toBeCloseTo(0.75, 2);
    expect(none).toBeCloseTo(0.25, 2);
    // Balanced: the intent with one example weighs as much as the one with three.
    const [even, other] = share(1);
    expect(even).toBeCloseTo(0.5, 2);
    expect(other).toBeCloseTo(0.5, 2);
  });

  it('drops the features whose weights are all under `minWeight` and keeps the others’ columns whole', () => {
    const examples = [
      ...ex('demo', 'book a demo please', 'can i see a demo'),
      ...ex('none', 'how much is a demo', 'is the demo free', 'how long is the demo'),
    ];
    const train = (minWeight: number) => trainIntents(examples, lexicon, { minCount: 1, epochs: 40, minWeight });
    const all = train(0);
    const column = (m: typeof all, f: string) => m.weights.map((row) => row[m.features[f]!]!);
    const names = Object.keys(all.features);
    const largest = (f: string) => Math.max(...column(all, f).map(Math.abs));
    // The median feature's largest weight: about half fall under it.
    const minWeight = names.map(largest).sort((a, b) => a - b)[names.length >> 1]!;
    const small = (f: string) => largest(f) < minWeight;
    const pruned = train(minWeight);
    expect(names.filter(small).length).toBeGreaterThan(0);
    expect(Object.keys(pruned.features)).toEqual(names.filter((f) => !small(f)));
    expect(Object.values(pruned.features)).toEqual(Object.keys(pruned.features).map((_, i) => i));
    for (const f of Object.keys(pruned.features)) expect(column(pruned, f)).toEqual(column(all, f));
    for (const row of pruned.weights) expect(row).toHaveLength(Object.keys(pruned.features).length);
    expect(pruned.bias).toEqual(all.bias);
    // A bar of 0 keeps every feature, even one whose weights are all 0 (no epoch).
    const untrained = trainIntents(examples, lexicon, { minCount: 1, epochs: 0, minWeight: 0 });
    expect(Object.keys(untrained.features)).toEqual(names);
  });

  it('keeps the softmax finite when the logits grow far apart', () => {
    const model = trainIntents(ex('demo', 'demo'), lexicon, { ...PLAIN, rate: 1000, epochs: 3 });
    for (const v of [...model.bias, ...model.weights.flat()]) expect(Number.isFinite(v)).toBe(true);
  });

  it('learns each request from a few examples and leaves questions alone', () => {
    const examples = [
      ...ex('demo', 'book a demo please', 'can i see a demo', 'we want a demo of kartage'),
      ...ex('callback', 'call me back', 'please ring me back', 'can someone call me'),
      ...ex('none', 'how much is storage', 'does the app work offline', 'where is our data kept'),
    ];
    const model = trainIntents(examples, lexicon);
    expect(classifyIntent(model, 'could i book a demo', lexicon)).toBe('demo');
    expect(classifyIntent(model, 'someone please call me back', lexicon)).toBe('callback');
    expect(classifyIntent(model, 'how much is the app', lexicon)).toBe('none');
    expect(trainIntents(examples, lexicon, { epochs: 20 })).toEqual(trainIntents(examples, lexicon, { epochs: 20 }));
  });
});
