// The assistant on the judged question set (tests/data/ask-judged.json, written from the content by someone who
// did not write the assistant): floors on its figures, and the never-invent check over every answer of both the
// tuning set and the held-out fifth (whose figures are reported by `npm run bench`, never tuned to).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { askSite } from '../../src/core/ask/answer.ts';
import { loadContent } from '../../src/adapters/deps.ts';
import { inventedSentences, loadJudged, scoreAsk, unmatched } from '../helpers/ask-metrics.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const pricing = PricingSchema.parse(pricingData);
const index = loadContent(join(PROJECT_ROOT, 'build')).askIndex();
// Noon AEST on a Wednesday: a fixed hour, so every handoff label is the same on every run.
const NOW = Date.parse('2026-11-25T02:00:00Z');
const ask = (question: string, conversation?: Parameters<typeof askSite>[1]['conversation']) =>
  askSite({ index, pricing, origin: 'https://kartage.com.au', now: NOW }, { question, conversation });
const tuning = loadJudged('ask-judged.json');
const heldOut = loadJudged('ask-held-out.json');

describe('the judged question set', () => {
  it('is what the issue asks for: 150+ questions, 25+ the site does not answer, 20+ for a person, every intent', () => {
    const all = [...tuning.questions, ...heldOut.questions];
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(all.filter((q) => q.kind === 'absent').length).toBeGreaterThanOrEqual(25);
    const handoffs = all.filter((q) => q.kind === 'handoff');
    expect(handoffs.length).toBeGreaterThanOrEqual(20);
    expect(new Set(handoffs.map((q) => q.intent))).toEqual(new Set(['demo', 'contact', 'callback', 'message']));
    expect(heldOut.questions.length / all.length).toBeGreaterThan(0.18);
    expect(new Set(all.map((q) => q.question)).size).toBe(all.length);
  });

  it('names only sections the site has', () => {
    expect(unmatched(index, tuning)).toEqual([]);
    expect(unmatched(index, heldOut)).toEqual([]);
  });

  it('no sentence is shown that is not in its cited section, on every question of both sets', () => {
    for (const q of [...tuning.questions, ...heldOut.questions]) {
      expect(inventedSentences(ask(q.question, q.conversation), pricing), `${q.id}: ${q.question}`).toEqual([]);
    }
  });

  it('keeps its floors on the tuning set', () => {
    const s = scoreAsk(index, tuning, ask, pricing);
    expect(s.invented).toEqual([]);
    expect(s.answerAt1).toBeGreaterThanOrEqual(0.62);
    expect(s.answerAt3).toBeGreaterThanOrEqual(0.78);
    expect(s.twoPart).toBeGreaterThanOrEqual(0.55);
    expect(s.absentCorrect).toBeGreaterThanOrEqual(0.65);
    expect(s.handoffCorrect).toBe(1);
    expect(s.pricingCorrect).toBe(1);
    // So that refusing everything cannot score: answerable questions left unanswered.
    expect(s.noAnswerRate).toBeLessThanOrEqual(0.08);
  });
});
