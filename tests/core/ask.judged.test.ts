// The assistant on the judged question sets (tests/data/ask-*.json, each written from the content by a helper who
// did not write the assistant; ASK_SETS says how each was used): floors on the sets it was developed on, each
// scored with its own questions left out of what the assistant learns (learnedIndex), and the never-invent check
// over every answer of every set (the clean sets' figures are reported by `npm run bench`, never tuned to).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { termGroups } from '../../src/core/ask/question.ts';
import { askSite } from '../../src/core/ask/answer.ts';
import type { AskIndex } from '../../src/core/ask/index.ts';
import { loadContent } from '../../src/adapters/composition-root.ts';
import {
  ASK_SETS,
  askSourcesOf,
  CLEAN_SETS,
  inventedSentences,
  LEARNED_SETS,
  learnedIndex,
  loadJudged,
  scoreAsk,
  unmatched,
} from '../helpers/ask-metrics.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const pricing = PricingSchema.parse(pricingData);
const content = loadContent(join(PROJECT_ROOT, 'build'));
const index = content.askIndex();
const pages = askSourcesOf(content);
// Noon AEST on a Wednesday: a fixed hour, so every handoff label is the same on every run.
const NOW = Date.parse('2026-11-25T02:00:00Z');
type Conversation = Parameters<typeof askSite>[1]['conversation'];
const askOn = (on: AskIndex) => (question: string, conversation?: Conversation) =>
  askSite({ index: on, pricing, origin: 'https://kartage.com.au', now: NOW }, { question, conversation });
const ask = askOn(index);
/** A learned set's scores with its own questions left out of what the assistant learns. */
const unseen = (x: (typeof sets)[number]) => {
  const on = learnedIndex(pages, x.set);
  return scoreAsk(on, x.judged, askOn(on), pricing);
};
const sets = ASK_SETS.map((x) => ({ ...x, judged: loadJudged(x.file) }));
const tuning = sets[0]!.judged;
const all = sets.flatMap((x) => x.judged.questions);

describe('the judged question set', () => {
  it('is what the issue asks for: 150+ questions, 25+ the site does not answer, 20+ for a person, every intent', () => {
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(all.filter((q) => q.kind === 'absent').length).toBeGreaterThanOrEqual(25);
    const handoffs = all.filter((q) => q.kind === 'handoff');
    expect(handoffs.length).toBeGreaterThanOrEqual(20);
    expect(new Set(handoffs.map((q) => q.intent))).toEqual(new Set(['demo', 'contact', 'callback', 'message']));
    // Every held-out set was scored once untuned when it was written (README Benchmarks keeps those figures); the
    // clean ones were never tuned to, and are large enough to mean something.
    const clean = sets.filter((x) => CLEAN_SETS.some((c) => c.set === x.set));
    expect(clean.reduce((n, x) => n + x.judged.questions.length, 0)).toBeGreaterThanOrEqual(100);
    expect(all.length - tuning.questions.length).toBeGreaterThanOrEqual(all.length / 5);
    expect(new Set(all.map((q) => q.question)).size).toBe(all.length);
  });

  it('names only sections the site has', () => {
    for (const x of sets) expect(unmatched(index, x.judged), x.file).toEqual([]);
  });

  it('no sentence is shown that is not in its cited section, on every question of both sets', () => {
    for (const q of all) {
      expect(inventedSentences(ask(q.question, q.conversation), pricing), `${q.id}: ${q.question}`).toEqual([]);
    }
  });

  it('keeps its floors on the tuning set, its own questions unlearned', () => {
    const s = unseen(sets[0]!);
    expect(s.invented).toEqual([]);
    expect(s.answerAt1).toBeGreaterThanOrEqual(0.72);
    expect(s.answerAt3).toBeGreaterThanOrEqual(0.86);
    expect(s.twoPart).toBeGreaterThanOrEqual(0.7);
    expect(s.absentCorrect).toBeGreaterThanOrEqual(0.7);
    expect(s.handoffCorrect).toBe(1);
    expect(s.pricingCorrect).toBe(1);
    // So that refusing everything cannot score: answerable questions left unanswered.
    expect(s.noAnswerRate).toBeLessThanOrEqual(0.03);
  });

  it('keeps its floors on the sets it was developed on since (held-out 2 and 3), their own questions unlearned', () => {
    for (const x of sets.filter((x) => x.set === 'held-out-2' || x.set === 'held-out-3')) {
      const s = unseen(x);
      expect(s.answerAt1, x.file).toBeGreaterThanOrEqual(0.7);
      expect(s.noAnswerRate, x.file).toBeLessThanOrEqual(0.12);
    }
  });

  it('learns from the other sets: each learned set, its own questions left out, and their mean keep floors', () => {
    const learned = sets.filter((x) => LEARNED_SETS.some((l) => l.set === x.set));
    const scores = learned.map((x) => unseen(x));
    const mean = (f: (s: (typeof scores)[number]) => number) => scores.reduce((a, s) => a + f(s), 0) / scores.length;
    // Session 10: the mean of the learned sets went 0.60 -> 0.82 answer@1 and 0.11 -> 0.04 no-answer with learning;
    // session 11 (fifteen sets, the written questions): answer@1 0.86, answer@3 0.94, two-part 0.88, absent 0.91,
    // no-answer 0.01.
    expect(mean((s) => s.answerAt1)).toBeGreaterThanOrEqual(0.85);
    expect(mean((s) => s.answerAt3)).toBeGreaterThanOrEqual(0.92);
    expect(mean((s) => s.twoPart)).toBeGreaterThanOrEqual(0.85);
    // Known gaps (absent questions of the other sets): absent-correct 0.75 -> 0.91.
    expect(mean((s) => s.absentCorrect)).toBeGreaterThanOrEqual(0.9);
    expect(mean((s) => s.noAnswerRate)).toBeLessThanOrEqual(0.03);
    // The same sets scored with their own questions learned: learning what was asked answers it.
    const seen = learned.map((x) => scoreAsk(index, x.judged, ask, pricing));
    expect(seen.reduce((a, s) => a + s.answerAt1, 0) / seen.length).toBeGreaterThan(mean((s) => s.answerAt1) + 0.05);
  });

  it('answers a question of duration with a length of time: "how long" reads as minutes, days, weeks', () => {
    const r = ask('how long does the walkthrough run');
    expect(r.answered).toBe(true);
    expect(r.sources[0]!.slug).toBe('demo');
    expect(r.answer).toContain('45-minute walkthrough');
  });

  it('reads being on the hook, compensation or costing us money as a question of liability', () => {
    const r = ask('if your system goes down and we lose a days work can we get compensation?');
    expect(r.answered).toBe(true);
    expect(r.sources[0]).toMatchObject({ slug: 'terms', heading: 'Liability' });
    expect(ask('what would kartage be on the hook for if the software cost us money').sources[0]).toMatchObject({
      slug: 'terms',
      heading: 'Liability',
    });
  });

  it('answers a question the way a page asks it from that section first: "How much does Kartage cost?"', () => {
    // "cost" finds every product page's "Plans" and a written "how much does it cost to get started?" (storage)
    // too; the FAQ asks the visitor's own question.
    const r = ask('How much does Kartage cost?');
    expect(r.sources[0]).toMatchObject({ slug: 'faq', heading: 'How much does Kartage cost?', role: 'answer' });
    expect(r.answer).toContain('$390');
  });

  it('reads who started the company as who founded it', () => {
    const groups = termGroups('who started the company', index);
    expect(groups.filter((g) => g.optional).map((g) => g.word)).toEqual(['founded', 'founder']);
    const r = ask('who started the company');
    expect(r.answered).toBe(true);
    // The about page's intro ("Kartage started on a removals dispatch desk") comes first since the written
    // questions (a learned "what year did the company start?" reads like it); where it started is among the three.
    expect(r.sources.slice(0, 3).map((s) => `${s.slug}#${s.heading}`)).toContain('about#Where it started');
  });

  it('hands off to the right person and prices exactly, on every set', () => {
    for (const x of sets) {
      const s = scoreAsk(index, x.judged, ask, pricing);
      expect(s.handoffCorrect, x.file).toBe(1);
      expect(s.pricingCorrect, x.file).toBe(1);
    }
  });
});
