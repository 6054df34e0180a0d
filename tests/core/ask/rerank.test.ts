// Stage 5, rerank: the named features of a candidate and the fitted scoring function over them.
import { describe, expect, it } from 'vitest';
import { termGroups } from '../../../src/core/ask/analyse.ts';
import { analyze } from '../../../src/core/search/analyze.ts';
import { ASK_FIELDS, bodyOf } from '../../../src/core/ask/index.ts';
import { K1 } from '../../../src/core/search/bm25f.ts';
import {
  type Feature,
  FEATURES,
  featuresOf,
  holdsTerm,
  logitOf,
  predictOf,
  rerank,
} from '../../../src/core/ask/rerank.ts';
import { retrieve } from '../../../src/core/ask/retrieve.ts';
import { PAGES, siteIndex, WRITTEN } from './site.ts';

const index = await siteIndex();
const feature = (x: number[], f: (typeof FEATURES)[number]) => x[FEATURES.indexOf(f)]!;

describe('features', () => {
  const question = 'does the crew app work offline';
  const groups = termGroups(question, index, index.lexicon);
  const found = retrieve(index, groups, 5);
  const xs = featuresOf(index, found, { text: question, groups, cited: new Set(['faq']) });

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
  });

  it('measure how near the question is to a question written for the section', () => {
    const written = 'no signal out bush, will the app still go?';
    const g = termGroups(written, index, index.lexicon);
    const found = retrieve(index, g, 5);
    const xs = featuresOf(index, found, { text: written, groups: g, cited: new Set() });
    const offline = found.findIndex((c) => index.heading(c.section) === 'Does the crew app work offline?');
    expect(feature(xs[offline]!, 'nearest')).toBeGreaterThan(0.5);
    for (const [i, x] of xs.entries()) if (i !== offline) expect(feature(x, 'nearest')).toBe(0);
  });
});

describe('per-field BM25', () => {
  // "bill" is read with its alternative "invoice" (one word group, weighed by the rarer: invoice).
  const question = 'bill storage invoice barcode';
  const groups = termGroups(question, index, index.lexicon);
  const found = retrieve(index, groups, 12);
  const xs = featuresOf(index, found, { text: question, groups, cited: new Set() });
  const fields = {
    text: (s: number) => analyze(bodyOf(index.text(s), index.heading(s) !== null)),
    heading: (s: number) => analyze(index.heading(s) ?? ''),
    title: (s: number) => analyze(index.pageOf(s).title),
    expansions: (s: number) => (index.data.expansions[s] ? index.data.expansions[s].split(' ') : []),
  };

  it("is each field's BM25: each word group's saturated count over the field's length, by its rarest term's idf", () => {
    expect(groups.some((g) => new Set(g.terms.map((t) => index.idf(t))).size > 1)).toBe(true);
    for (const [f, [name, termsOf]] of Object.entries(fields).entries()) {
      const { b } = Object.values(ASK_FIELDS)[f]!;
      const values = found.map((c, k) => {
        const terms = termsOf(c.section);
        const norm = 1 - b + (b * terms.length) / index.data.averages[f]!;
        let expected = 0;
        for (const g of groups.filter((g) => !g.unknown)) {
          const tf = Math.max(...g.terms.map((t) => terms.filter((x) => x === t).length));
          const idf = g.weight * Math.max(...g.terms.map((t) => index.idf(t)));
          if (tf) expected += (idf * tf) / (tf + K1 * norm);
        }
        expect([name, c.section, feature(xs[k]!, name as Feature)]).toEqual([
          name,
          c.section,
          expect.closeTo(expected, 9),
        ]);
        return expected;
      });
      // Each field scores some candidate, and not all alike (the check can fail).
      expect([name, new Set(values).size > 1]).toEqual([name, true]);
    }
  });

  it("reads a section's text without its heading, and no heading for a page's opening", () => {
    const headed = found.find((c) => index.heading(c.section) === 'Billing runs')!;
    const opening = found.find((c) => index.heading(c.section) === null)!;
    expect(feature(xs[found.indexOf(headed)]!, 'heading')).toBeGreaterThan(0);
    expect(feature(xs[found.indexOf(opening)]!, 'heading')).toBe(0);
    // "tracking" is in Lot tracking's heading, not its text: the text field does not read the heading.
    const lots = retrieve(index, termGroups('barcode', index, index.lexicon), 3);
    const lot = lots.find((c) => index.heading(c.section) === 'Lot tracking')!;
    const tracking = termGroups('tracking', index, index.lexicon);
    const [x] = featuresOf(index, [lot], { text: 'tracking', groups: tracking, cited: new Set() });
    expect([feature(x!, 'text'), feature(x!, 'heading') > 0]).toEqual([0, true]);
  });
});

describe("the question's topic and a page's opening", () => {
  it('mark a section holding the heaviest word of the question (not only an expansion), and a section with no heading', () => {
    // "barcode" (on one section, and first: the topic's index 0) weighs more than "storage" (on several).
    const question = 'barcode storage';
    const groups = termGroups(question, index, index.lexicon);
    const found = retrieve(index, groups, 12);
    const xs = featuresOf(index, found, { text: question, groups, cited: new Set() });
    const own = (s: number) =>
      new Set([
        ...analyze(bodyOf(index.text(s), index.heading(s) !== null)),
        ...analyze(index.heading(s) ?? ''),
        ...analyze(index.pageOf(s).title),
      ]);
    const topic = found.map((c) => (own(c.section).has('barcod') ? 1 : 0));
    expect(topic).toContain(1);
    expect(topic).toContain(0);
    expect(xs.map((x) => feature(x, 'topic'))).toEqual(topic);
    const intro = found.map((c) => (index.heading(c.section) === null ? 1 : 0));
    expect(intro).toContain(1);
    expect(intro).toContain(0);
    expect(xs.map((x) => feature(x, 'intro'))).toEqual(intro);
  });
});

describe('the asking sentence', () => {
  const at = (text: string, found = retrieve(index, termGroups(text, index, index.lexicon), 8)) =>
    featuresOf(index, found, { text, groups: termGroups(text, index, index.lexicon), cited: new Set() });
  const asked = (text: string, found: ReturnType<typeof retrieve>) =>
    at(text, found).map((x) => feature(x, 'semanticAsk'));

  it('is the whole question when it is one sentence', () => {
    for (const x of at('does the crew app work offline'))
      expect(feature(x, 'semanticAsk')).toBe(feature(x, 'semanticQuestion'));
  });

  it('is the sentences ending "?" (or else the last) when the question first says what it is about', () => {
    const ask = 'Does the crew app work offline?';
    const found = retrieve(index, termGroups(ask, index, index.lexicon), 8);
    const nearest = at(ask, found).map((x) => feature(x, 'semanticQuestion'));
    expect(nearest.some((v) => v > 0)).toBe(true);
    for (const said of ['We bill storage by the vault and text every invoice. ', 'We bill storage by the vault! '])
      expect(asked(`${said}${ask}`, found)).toEqual(nearest);
    expect(asked('We bill storage by the vault. Does the crew app work offline', found)).toEqual(
      at('Does the crew app work offline', found).map((x) => feature(x, 'semanticQuestion')),
    );
    // What it says first still counts in the whole question's nearness, not in the asking sentence's.
    const whole = at(`We bill storage by the vault. ${ask}`, found).map((x) => feature(x, 'semanticQuestion'));
    expect(whole).not.toEqual(nearest);
  });
});

describe('a section on a dated article', () => {
  it('is marked a post (the blog), a section of any other page not', async () => {
    const asPost = (p: (typeof PAGES)[number]) => (p.slug === 'faq' ? { ...p, kind: 'post' } : p);
    const posts = await siteIndex(WRITTEN, PAGES.map(asPost));
    const question = 'does the crew app work offline';
    const groups = termGroups(question, posts, posts.lexicon);
    const found = retrieve(posts, groups, 8);
    const xs = featuresOf(posts, found, { text: question, groups, cited: new Set() });
    const onPost = found.map((c) => posts.pageOf(c.section).slug === 'faq');
    expect(onPost).toContain(true);
    expect(onPost).toContain(false);
    expect(xs.map((x) => feature(x, 'post') === 1)).toEqual(onPost);
  });
});

describe('features worked out on demand', () => {
  it('are those named in `need`, each as the full vector has it; the rest are 0', () => {
    const question = 'can i bill storage customers by the vault';
    const groups = termGroups(question, index, index.lexicon);
    const found = retrieve(index, groups, 8);
    const input = { text: question, groups, cited: new Set(['pricing']) };
    const all = featuresOf(index, found, input);
    for (const need of [['coverageAll', 'semanticQuestion'], ['text', 'coverage', 'headingCoverage'], []]) {
      const some = featuresOf(index, found, { ...input, need: new Set(need) });
      const expected = all.map((x) => x.map((v, k) => (need.includes(FEATURES[k]!) ? v : 0)));
      expect(some).toEqual(expected);
    }
    // Each feature named above is worked out to something other than 0 for some candidate (the check can fail).
    for (const f of ['coverageAll', 'semanticQuestion', 'text', 'coverage', 'headingCoverage'] as const)
      expect(all.some((x) => feature(x, f) !== 0)).toBe(true);
  });

  it("read a section's terms from the postings: holdsTerm is the text, heading, title and expansions together", () => {
    for (let s = 0; s < index.sectionCount; s++) {
      const heading = index.heading(s);
      const held = new Set([
        ...analyze(bodyOf(index.text(s), heading !== null)),
        ...analyze(heading ?? ''),
        ...analyze(index.pageOf(s).title),
        ...((index.data.expansions[s] || undefined)?.split(' ') ?? []),
      ]);
      for (const t of held) expect([s, t, holdsTerm(index, s, t)]).toEqual([s, t, true]);
      const other = index.heading((s + 7) % index.sectionCount) ?? 'pricing storage crew';
      for (const t of analyze(other)) expect([s, t, holdsTerm(index, s, t)]).toEqual([s, t, held.has(t)]);
    }
  });
});

describe('the scoring function', () => {
  const model = { features: ['a', 'b'], mean: [1, 0], scale: [2, 1], weights: [2, -1], bias: 0.5 };

  it('is a logistic model of the standardised features', () => {
    expect(logitOf(model, model.features, [3, 1])).toBeCloseTo(0.5 + 2 * ((3 - 1) / 2) - 1, 12);
    // The model reads the features it names, wherever the vector holds them.
    expect(logitOf(model, ['c', 'b', 'a'], [9, 1, 3])).toBeCloseTo(0.5 + 2 * ((3 - 1) / 2) - 1, 12);
    expect(predictOf(model, model.features, [1, 0.5])).toBeCloseTo(1 / (1 + Math.exp(-0)), 12);
  });

  it('orders candidates by it, best first', () => {
    const question = 'storage billing';
    const groups = termGroups(question, index, index.lexicon);
    const found = retrieve(index, groups, 5);
    const byBm25Reversed = {
      features: [...FEATURES],
      mean: FEATURES.map(() => 0),
      scale: FEATURES.map(() => 1),
      weights: FEATURES.map((f) => (f === 'bm25' ? -1 : 0)),
      bias: 0,
    };
    const ranked = rerank(index, found, { text: question, groups, cited: new Set() }, byBm25Reversed);
    expect(ranked.map((r) => r.section)).toEqual([...found].reverse().map((c) => c.section));
    expect(ranked[0]!.score).toBeGreaterThan(ranked.at(-1)!.score);
  });
});
