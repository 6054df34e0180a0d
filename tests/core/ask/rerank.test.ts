// Stage 5, rerank: the named features of a candidate and the fitted scoring function over them.
import { describe, expect, it } from 'vitest';
import { termGroups } from '../../../src/core/ask/analyse.ts';
import { FEATURES, featuresOf, logit, predict, rerank } from '../../../src/core/ask/rerank.ts';
import { retrieve } from '../../../src/core/ask/retrieve.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const feature = (x: number[], f: (typeof FEATURES)[number]) => x[FEATURES.indexOf(f)]!;

describe('features', () => {
  const question = 'does the crew app work offline';
  const groups = termGroups(question, index, index.lexicon);
  const found = retrieve(index, groups, 5);
  const xs = featuresOf(index, found, { text: question, groups, context: [], cited: new Set(['faq']) });

  it('are one vector per candidate, in FEATURES order', () => {
    expect(xs).toHaveLength(found.length);
    for (const x of xs) expect(x).toHaveLength(FEATURES.length);
  });

  it('measure how much of the question a section holds, and whether its heading does', () => {
    expect(feature(xs[0]!, 'coverage')).toBe(1);
    expect(feature(xs[0]!, 'headingCoverage')).toBe(1);
    expect(feature(xs[0]!, 'topic')).toBe(1);
    expect(feature(xs[0]!, 'bm25')).toBe(1);
    expect(feature(xs[0]!, 'cited')).toBe(1);
    expect(feature(xs[0]!, 'rank')).toBe(0);
  });

  it('measure how near the question is to a question written for the section', () => {
    const written = 'no signal out bush, will the app still go?';
    const g = termGroups(written, index, index.lexicon);
    const found = retrieve(index, g, 5);
    const xs = featuresOf(index, found, { text: written, groups: g, context: [], cited: new Set() });
    const offline = found.findIndex((c) => index.heading(c.section) === 'Does the crew app work offline?');
    expect(feature(xs[offline]!, 'nearest')).toBeGreaterThan(0.5);
    for (const [i, x] of xs.entries()) if (i !== offline) expect(feature(x, 'nearest')).toBe(0);
  });
});

describe('the scoring function', () => {
  const model = { features: ['a', 'b'], mean: [1, 0], scale: [2, 1], weights: [2, -1], bias: 0.5 };

  it('is a logistic model of the standardised features', () => {
    expect(logit(model, [3, 1])).toBeCloseTo(0.5 + 2 * ((3 - 1) / 2) - 1, 12);
    expect(predict(model, [1, 0.5])).toBeCloseTo(1 / (1 + Math.exp(-0)), 12);
  });

  it('orders candidates by it, best first', () => {
    const question = 'storage billing';
    const groups = termGroups(question, index, index.lexicon);
    const found = retrieve(index, groups, 5);
    const byRank = {
      features: [...FEATURES],
      mean: FEATURES.map(() => 0),
      scale: FEATURES.map(() => 1),
      weights: FEATURES.map((f) => (f === 'rank' ? 1 : 0)),
      bias: 0,
    };
    const ranked = rerank(index, found, { text: question, groups, context: [], cited: new Set() }, byRank);
    expect(ranked.map((r) => r.section)).toEqual([...found].reverse().map((c) => c.section));
    expect(ranked[0]!.score).toBeGreaterThan(ranked.at(-1)!.score);
  });
});
