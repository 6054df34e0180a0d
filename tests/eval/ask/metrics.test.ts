// The evaluation's figures (eval/ask/metrics.ts) and its sections (eval/ask/sections.ts) on made-up questions and
// responses: each figure counts what its definition says, over its own denominator.
import { describe, expect, it } from 'vitest';
import { ENGINE_WORDS, PRICING } from '../../../eval/ask/engine.ts';
import { type Asker, type AskReply, handsOff, scoreAsk } from '../../../eval/ask/metrics.ts';
import { headingKey, sectionKey, sectionsOfPage } from '../../../eval/ask/sections.ts';
import type { SetQuestion } from '../../../eval/ask/sets.ts';

const LABEL = 'Call us on 1300 000 000.';
const source = (slug: string, heading: string | null, role: 'answer' | 'related' = 'answer') => ({
  slug,
  title: slug,
  heading,
  url: `https://k.example/${slug}`,
  text: `## ${heading}\n\nText of ${slug} ${heading}.`,
  role,
});
type Source = ReturnType<typeof source>;
const reply = (answered: boolean, sources: Source[], more: Partial<AskReply> = {}): AskReply => ({
  question: 'q',
  answered,
  answer: answered ? sources.find((s) => s.role === 'answer')!.text : ENGINE_WORDS.noAnswer,
  sources,
  handoff: answered ? null : { intent: 'contact', label: LABEL, url: 'https://k.example/contact' },
  mode: 'extractive',
  reason: answered ? 'answered' : 'no-match',
  ...more,
});
const q = (id: string, kind: SetQuestion['kind'], more: Partial<SetQuestion> = {}): SetQuestion => ({
  id,
  question: `question ${id}`,
  kind,
  set: 'made-up',
  split: 'dev',
  ...more,
});
/** An asker that answers each question with the reply scripted for it. */
const scripted =
  (replies: Record<string, AskReply>): Asker =>
  (question) =>
    replies[question]!;

describe('handsOff (what a false handoff counts)', () => {
  const person = { intent: 'demo' as const, label: LABEL, url: 'https://k.example/demo' };
  it('is no handoff without a person, nor the plain no-answer fallback', () => {
    expect(handsOff(reply(true, [source('faq', 'A')]))).toBe(false);
    expect(handsOff(reply(false, []))).toBe(false);
    expect(handsOff(reply(false, [], { reason: 'no-match', answer: LABEL }))).toBe(false);
    expect(handsOff(reply(false, [], { reason: 'known-gap' }))).toBe(false);
  });
  it('is a pure handoff (reason, or the answer opening with the label) or a person offered beside an answer', () => {
    expect(handsOff(reply(false, [], { reason: 'handoff', answer: ENGINE_WORDS.noAnswer }))).toBe(true);
    expect(handsOff(reply(false, [], { answer: LABEL, handoff: person, reason: undefined }))).toBe(true);
    expect(handsOff(reply(true, [source('faq', 'A')], { handoff: person }))).toBe(true);
  });
});

describe('scoreAsk', () => {
  const facts = [
    q('f1', 'fact', { answers: [{ slug: 'faq', heading: 'Is there a trial?' }] }),
    q('f2', 'fact', { answers: [{ slug: 'faq', heading: 'Is there a trial?' }] }),
    q('f3', 'follow-up', { answers: [{ slug: 'pricing', heading: null }] }),
    q('f4', 'fact', { answers: [{ slug: 'faq', heading: 'Is there a trial?' }] }),
  ];
  const two = q('t1', 'two-part', { parts: [[{ slug: 'a', heading: 'A' }], [{ slug: 'b', heading: 'B' }]] });
  const absent = q('a1', 'absent');
  const handoff = q('h1', 'handoff', { intent: 'callback' });
  const price = q('p1', 'pricing', { expect: { monthly: 390 } });
  const replies: Record<string, AskReply> = {
    // Right first (its heading curled and marked up as a page may write it).
    'question f1': reply(true, [source('faq', 'Is there a **trial**?'), source('x', 'Y', 'related')]),
    // Answered from another section, the judged one second.
    'question f2': reply(true, [source('x', 'Y'), source('faq', 'Is there a trial?', 'related')]),
    // The intro, first.
    'question f3': reply(true, [source('pricing', null)]),
    // Not answered, with a person offered as the plain fallback.
    'question f4': reply(false, [source('faq', 'Is there a trial?', 'related')]),
    // Both parts in the top 3, but a third section quoted too.
    'question t1': reply(true, [source('a', 'A'), source('b', 'B'), source('c', 'C')]),
    // Answered though the site has no answer, with a person offered beside it: a false handoff.
    'question a1': reply(true, [source('x', 'Y')], {
      handoff: { intent: 'demo', label: LABEL, url: 'https://k.example/demo' },
    }),
    'question h1': reply(false, [], {
      answer: LABEL,
      handoff: { intent: 'callback', label: LABEL, url: 'https://k.example/contact' },
    }),
    // No working: not priced; and a sentence of its own, and a URL that is none.
    'question p1': {
      ...reply(true, [source('pricing', null)]),
      answer: 'It is cheap.',
      sources: [{ ...source('pricing', null), url: 'not a url' }],
    },
  };
  const s = scoreAsk([...facts, two, absent, handoff, price], scripted(replies), PRICING);

  it('answer@1 and @3 over fact and follow-up questions, answered only', () => {
    expect(s.answerAt1).toEqual({ ok: 2, of: 4 });
    expect(s.answerAt3).toEqual({ ok: 3, of: 4 });
  });
  it('answered-wrong: the first answer-role source not judged, or a two-part quoting a section of no part', () => {
    expect(s.answeredWrong).toEqual({ ok: 2, of: 5 });
    expect(s.twoPart).toEqual({ ok: 1, of: 1 });
  });
  it('no-answer over answerable questions, absent-correct, handoff-correct by intent, pricing', () => {
    expect(s.noAnswer).toEqual({ ok: 1, of: 6 });
    expect(s.absentCorrect).toEqual({ ok: 0, of: 1 });
    expect(s.handoffCorrect).toEqual({ ok: 1, of: 1 });
    expect(s.handoffByIntent).toEqual({ callback: { ok: 1, of: 1 } });
    expect(s.pricingCorrect).toEqual({ ok: 0, of: 1 });
  });
  it('false handoffs over the questions that ask for no person', () => {
    expect(s.falseHandoffs).toEqual({ ok: 1, of: 7 });
  });
  it('invented sentences and responses outside the contract, counted', () => {
    expect(s.invented).toBe(1);
    expect(s.schemaFailures).toBe(1);
    expect(s.failures.find((f) => f.q.id === 'p1')?.problems).toEqual([
      'invented: It is cheap.',
      expect.stringMatching(/^schema: sources\.0\.url /),
      'working none, not {"monthly":390}',
    ]);
    expect(s.failures.map((f) => f.q.id)).toEqual(['f2', 'f4', 't1', 'a1', 'p1']);
  });
});

describe('the sections of a page', () => {
  const page = {
    slug: 'faq',
    title: 'FAQ',
    url: 'https://k.example/faq',
    markdown:
      '# FAQ\n\nLead text.\n\n## Getting started\n\n### What’s a *trial*?\n\nThirty days.\n\n```\n## not a heading\n```\n' +
      '\n## Empty\n\n## [Linked](https://x.example) heading\n\nBody.\n',
  };
  it('cuts the intro and each ## or ### with text, headings as plain text', () => {
    expect(sectionsOfPage(page).map((s) => [s.heading, s.body])).toEqual([
      [null, 'Lead text.'],
      ['What’s a trial?', 'Thirty days.\n\n```\n## not a heading\n```'],
      ['Linked heading', 'Body.'],
    ]);
  });
  it('keys a heading as its plain text, straight quotes, lower case', () => {
    expect(headingKey('What’s a *Trial*?')).toBe("what's a trial?");
    expect(sectionKey({ slug: 'faq', heading: null })).toBe('faq#');
  });
});
