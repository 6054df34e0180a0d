// Stage 6, decide: one calibrated score and its threshold, a known gap, and what the score reads.
import { describe, expect, it } from 'vitest';
import { termGroups } from '../../../src/core/ask/analyse.ts';
import { DECISION_FEATURES, decide, decisionFeatures } from '../../../src/core/ask/decide.ts';
import models from '../../../src/core/ask/ranker.json' with { type: 'json' };
import { FEATURES, holdsTerm, rerank } from '../../../src/core/ask/rerank.ts';
import { retrieve } from '../../../src/core/ask/retrieve.ts';
import { siteIndex, WRITTEN } from './site.ts';

const byScore = {
  features: [...FEATURES],
  mean: FEATURES.map(() => 0),
  scale: FEATURES.map(() => 1),
  weights: FEATURES.map((f) => (f === 'bm25' ? 1 : 0)),
  bias: 0,
};
/** A decision model that reads only the share of the question on no page (more: less sure). */
const byUnknown = (threshold: number) => ({
  features: [...DECISION_FEATURES],
  mean: DECISION_FEATURES.map(() => 0),
  scale: DECISION_FEATURES.map(() => 1),
  weights: DECISION_FEATURES.map((f) => (f === 'unknown' ? -10 : 0)),
  bias: 3,
  threshold,
});
/** A decision model that declines every question (its reason then says why). */
const declines = byUnknown(1);

const rankedFor = (index: Awaited<ReturnType<typeof siteIndex>>, question: string) => {
  const groups = termGroups(question, index, index.lexicon);
  const found = retrieve(index, groups, 10);
  return { groups, ranked: rerank(index, found, { text: question, groups, cited: new Set() }, byScore) };
};

const index = await siteIndex();

describe('decide', () => {
  it('answers when the calibrated score reaches the threshold, and says no-match below it', () => {
    const { groups, ranked } = rankedFor(index, 'storage billing runs');
    expect(decide(index, ranked, groups, 'storage billing runs', byUnknown(0.5))).toMatchObject({ answered: true });
    const odd = rankedFor(index, 'storage hubspot salesforce');
    expect(decide(index, odd.ranked, odd.groups, 'storage hubspot salesforce', byUnknown(0.5))).toMatchObject({
      answered: false,
      reason: 'no-match',
    });
  });

  it('answers at the threshold itself, and never a question with no word on any page unless it follows up', () => {
    const { groups, ranked } = rankedFor(index, 'storage billing runs');
    const { confidence } = decide(index, ranked, groups, 'storage billing runs', byUnknown(0));
    expect(decide(index, ranked, groups, 'storage billing runs', byUnknown(confidence)).answered).toBe(true);
    // "zzqx qqpv" is on no page: nothing to score, whatever the threshold; as a follow-up its subject is the turn
    // before's ("and Growth?"), so the best section of the turn before is scored.
    const none = termGroups('zzqx qqpv', index, index.lexicon);
    expect(decide(index, ranked, none, 'zzqx qqpv', byUnknown(0))).toMatchObject({ answered: false, confidence: 0 });
    expect(decide(index, ranked, none, 'zzqx qqpv', byUnknown(0), true).confidence).toBeGreaterThan(0);
  });

  it('says a question it declines that is nearer a reviewed gap than any the site answers is a known gap', async () => {
    const gapIndex = await siteIndex([{ question: 'do you have a public status page for outages?', sections: [] }]);
    const question = 'is there a status page for outages';
    const { groups, ranked } = rankedFor(gapIndex, question);
    expect(decide(gapIndex, ranked, groups, question, declines)).toMatchObject({
      answered: false,
      reason: 'known-gap',
    });
  });

  it('does not decline as a known gap a question nearer one the best section answers', async () => {
    const gap = { question: 'does the crew app work without reception on a tablet?', sections: [] };
    const gapIndex = await siteIndex([...WRITTEN, gap]);
    const question = 'does the crew app work without reception';
    const { groups, ranked } = rankedFor(gapIndex, question);
    const x = decisionFeatures(gapIndex, ranked, groups, question);
    expect(x[DECISION_FEATURES.indexOf('nearestGap')]).toBeGreaterThanOrEqual(0.5);
    expect(decide(gapIndex, ranked, groups, question, declines)).toMatchObject({ reason: 'no-match' });
  });

  it("does not decline as a known gap a question that one of the best sections' heading asks", async () => {
    // No question is written for the FAQ entry; its heading is the question it answers.
    const gapIndex = await siteIndex([{ question: 'is our data stored with backups?', sections: [] }]);
    const question = 'where is our data stored';
    const { groups, ranked } = rankedFor(gapIndex, question);
    expect(gapIndex.heading(ranked[0]!.section)).toBe('Where is our data stored?');
    const x = decisionFeatures(gapIndex, ranked, groups, question);
    expect(x[DECISION_FEATURES.indexOf('nearestGap')]).toBeGreaterThanOrEqual(0.5);
    expect(decide(gapIndex, ranked, groups, question, declines)).toMatchObject({ reason: 'no-match' });
    // Any of the best three sections answering a question as near counts; the fourth does not.
    const asks = ranked[0]!;
    const others = rankedFor(gapIndex, 'storage billing crew app trial').ranked.filter(
      (r) => r.section !== asks.section,
    );
    const at = (k: number) => [...others.slice(0, k), asks, ...others.slice(k)];
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(decide(gapIndex, at(2), groups, question, declines)).toMatchObject({ reason: 'no-match' });
    expect(decide(gapIndex, at(3), groups, question, declines)).toMatchObject({ reason: 'known-gap' });
    // Nearness to a gap is a feature of the score, not a rule over it: a score over the threshold answers.
    expect(decide(gapIndex, at(3), groups, question, byUnknown(0))).toMatchObject({ reason: 'answered' });
    // A question the heading does not ask, as near the gap, is still declined as one.
    const other = 'is our data stored with backups';
    const near = rankedFor(gapIndex, other);
    expect(decide(gapIndex, near.ranked, near.groups, other, declines)).toMatchObject({ reason: 'known-gap' });
  });

  it("weighs a known gap against the best section's nearest question by the question's known words", async () => {
    // "zzqx" is on no page: the gap holds it, the written question does not. By all of the question's words the gap
    // is nearer; by its known words, the written question (all of them) is.
    const gap = { question: 'does the crew app work without reception on zzqx tablets?', sections: [] };
    const gapIndex = await siteIndex([...WRITTEN, gap]);
    const question = 'does the crew app work without reception on zzqx';
    const { groups, ranked } = rankedFor(gapIndex, question);
    expect(groups.find((g) => g.word === 'zzqx')?.unknown).toBe(true);
    expect(decide(gapIndex, ranked, groups, question, declines)).toMatchObject({ reason: 'no-match' });
    // With no section found at all, a question as near a known gap is declined as one, whatever the threshold.
    expect(decide(gapIndex, [], groups, question, byUnknown(0))).toMatchObject({
      answered: false,
      reason: 'known-gap',
    });
  });

  it('reads how near the question is to a known gap, in words and by the sentence model', async () => {
    const gapIndex = await siteIndex([...WRITTEN, { question: 'can vault billing runs be paused?', sections: [] }]);
    const at = (question: string) => {
      const { groups, ranked } = rankedFor(gapIndex, question);
      const x = decisionFeatures(gapIndex, ranked, groups, question);
      return [x[DECISION_FEATURES.indexOf('nearestGap')]!, x[DECISION_FEATURES.indexOf('semanticGap')]!];
    };
    const [near, far] = [at('can we pause the vault billing run'), at('where is our data hosted')];
    expect(near[0]).toBeGreaterThan(0.5);
    expect(near[1]).toBeGreaterThan(0.8);
    expect(far[0]).toBe(0);
    expect(far[1]).toBeLessThan(near[1]! - 0.3);
    // With no known gap, both are 0.
    const none = rankedFor(index, 'can we pause the vault billing run');
    const x = decisionFeatures(index, none.ranked, none.groups, 'can we pause the vault billing run');
    expect([x[DECISION_FEATURES.indexOf('nearestGap')], x[DECISION_FEATURES.indexOf('semanticGap')]]).toEqual([0, 0]);
  });

  it('reads the share of the question on no page, and a number asked for that the section does not state', () => {
    const { groups, ranked } = rankedFor(index, 'how many vaults does storage billing hubspot');
    const x = decisionFeatures(index, ranked, groups, 'how many vaults does storage billing hubspot');
    expect(x).toHaveLength(DECISION_FEATURES.length);
    expect(x[DECISION_FEATURES.indexOf('unknown')]).toBeGreaterThan(0);
    expect(x[DECISION_FEATURES.indexOf('numberMissing')]).toBe(1);
    const trial = rankedFor(index, 'how long is the free trial');
    const y = decisionFeatures(index, trial.ranked, trial.groups, 'how long is the free trial');
    expect(y[DECISION_FEATURES.indexOf('numberMissing')]).toBe(0);
  });
});

describe('the words a decision reads', () => {
  it('are the margin over the next section, the known words, and the heaviest word the best section lacks', () => {
    // "hubspot" is on no page; "barcode" is not on Billing runs, which "storage billing" ranks first.
    const question = 'storage billing barcode hubspot';
    const { groups, ranked } = rankedFor(index, question);
    const x = decisionFeatures(index, ranked, groups, question);
    const at = (f: (typeof DECISION_FEATURES)[number]) => x[DECISION_FEATURES.indexOf(f)]!;
    expect(at('margin')).toBeCloseTo(ranked[0]!.score - ranked[1]!.score, 12);
    expect(at('margin')).toBeGreaterThan(0);
    expect(at('known')).toBe(groups.filter((g) => !g.unknown).length);
    expect(groups.filter((g) => g.unknown)).toHaveLength(1);
    // The share of the question's weight of the heaviest word group no field of the best section holds.
    const weight = (g: (typeof groups)[number]) =>
      g.weight * (g.unknown ? index.idf('') : Math.max(...g.terms.map((t) => index.idf(t))));
    const total = groups.reduce((a, g) => a + weight(g), 0);
    const held = (g: (typeof groups)[number]) => g.terms.some((t) => holdsTerm(index, ranked[0]!.section, t));
    const lacking = groups.filter((g) => !held(g));
    expect(lacking.length).toBeGreaterThanOrEqual(2);
    expect(groups.some(held)).toBe(true);
    expect(at('missing')).toBeCloseTo(Math.max(...lacking.map((g) => weight(g) / total)), 12);
    // A word group is held when the section holds any of its terms: "billing" is read with "invoice" too, and Annual
    // billing says "billing" alone.
    const annual = rankedFor(index, 'annual billing');
    expect(index.heading(annual.ranked[0]!.section)).toBe('Annual billing');
    expect(
      annual.groups.some(
        (g) => g.terms.length > 1 && !g.terms.every((t) => holdsTerm(index, annual.ranked[0]!.section, t)),
      ),
    ).toBe(true);
    expect(
      decisionFeatures(index, annual.ranked, annual.groups, 'annual billing')[DECISION_FEATURES.indexOf('missing')],
    ).toBe(0);
    // One section found: no margin to read; none: all of the question is missing.
    expect(decisionFeatures(index, ranked.slice(0, 1), groups, question)[DECISION_FEATURES.indexOf('margin')]).toBe(0);
    expect(decisionFeatures(index, [], groups, question)[DECISION_FEATURES.indexOf('missing')]).toBe(1);
  });

  it('declines as a known gap only a question at least half as near one as its words allow', async () => {
    // The gap shares one word of four with the question: nearer than any question the best sections answer (none is
    // written here), but not near enough to call it known.
    const gapIndex = await siteIndex([{ question: 'hubspot salesforce pipedrive storage', sections: [] }]);
    const question = 'storage billing runs vault';
    const { groups, ranked } = rankedFor(gapIndex, question);
    const gap = decisionFeatures(gapIndex, ranked, groups, question)[DECISION_FEATURES.indexOf('nearestGap')]!;
    expect(gap).toBeGreaterThan(0);
    expect(gap).toBeLessThan(0.5);
    expect(decide(gapIndex, ranked, groups, question, declines)).toMatchObject({ reason: 'no-match' });
  });
});

describe('the features a decision needs from rerank', () => {
  it('give the shipped models the same ranking and decision as every feature worked out', () => {
    const need = new Set([...models.rerank.features, ...models.decide.features]);
    const questions = ['does the crew app work offline', 'how much is growth', 'can i import my xero contacts'];
    for (const question of [...questions, 'is there an api for storage billing', 'who owns kartage']) {
      const groups = termGroups(question, index, index.lexicon);
      const found = retrieve(index, groups, 30);
      const input = { text: question, groups, cited: new Set<string>() };
      const [all, some] = [undefined, need].map((n) => rerank(index, found, { ...input, need: n }, models.rerank));
      expect(some!.map((r) => [r.section, r.score])).toEqual(all!.map((r) => [r.section, r.score]));
      const decided = [all!, some!].map((r) => decide(index, r, groups, question, models.decide));
      expect(decided[1]).toEqual(decided[0]);
    }
  });
});
