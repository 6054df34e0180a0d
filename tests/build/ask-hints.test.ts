/**
 * What the chat's index learns beside the pages (src/build/ask-hints.ts): hints, written questions, written known gaps,
 * reviewed visitor questions and labelled requests. Each names a section the built site has (a renamed heading fails
 * here instead of silently losing its expansions), the build indexes their words as that section's expansions (a
 * known gap's as no section's), no judged evaluation question is ever learned, and `npm run ask:learn` refuses what
 * the product must not learn.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/adapters/composition-root.ts';
import {
  ASK_ASKED,
  ASK_GAPS,
  ASK_HINTS,
  ASK_INTENTS,
  ASK_WRITTEN,
  answeredQuestions,
  AskGapsSchema,
  AskHintsSchema,
  AskIntentsSchema,
  AskQuestionsSchema,
  headingKey,
  knownGaps,
  learningFrom,
} from '../../src/build/ask-hints.ts';
import { refusal, sectionRef } from '../../scripts/ask-learn.ts';
import { judgedQuestions, squashQuestion } from '../../eval/ask/sets.ts';
import { analyze } from '../../src/core/search/analyze.ts';
import hints from '../../src/build/ask-hints.json' with { type: 'json' };
import intents from '../../src/build/ask-intents.json' with { type: 'json' };
import gaps from '../../src/build/ask-gaps.json' with { type: 'json' };
import written from '../../src/build/ask-questions.json' with { type: 'json' };
import { PROJECT_ROOT } from '../helpers/server.ts';

const index = loadContent(join(PROJECT_ROOT, 'build')).askIndex();
const idOf = (slug: string, heading: string | null) =>
  index.sectionsOf(slug).find((s) => headingKey(index.heading(s)) === headingKey(heading));
const expansions = (slug: string, heading: string | null) =>
  new Set(index.data.expansions[idOf(slug, heading)!]!.split(' '));
/** Whether a text is a question of a judged evaluation set (eval/ask/sets), in any case and spacing. */
const judged = judgedQuestions();
const isJudged = (q: string) => judged.has(squashQuestion(q));

describe('hints and written questions', () => {
  it('parse, and each names a section the built site has', () => {
    expect(AskHintsSchema.parse(hints)).toHaveLength(ASK_HINTS.length);
    expect(AskQuestionsSchema.parse(written)).toHaveLength(ASK_WRITTEN.length);
    const missing = [...ASK_HINTS, ...ASK_WRITTEN].filter((h) => idOf(h.slug, h.heading) === undefined);
    expect(missing.map((h) => `${h.slug}#${h.heading}`)).toEqual([]);
  });

  it('hold no judged evaluation question', () => {
    expect(ASK_WRITTEN.flatMap((w) => w.questions).filter(isJudged)).toEqual([]);
  });

  it("are indexed as their section's expansions, every word of them", () => {
    for (const h of ASK_HINTS.slice(0, 40)) {
      const held = expansions(h.slug, h.heading);
      for (const t of h.hints.flatMap((x) => analyze(x)))
        expect(held.has(t), `${h.slug}#${h.heading}: ${t}`).toBe(true);
    }
    for (const w of ASK_WRITTEN.slice(0, 40)) {
      const held = expansions(w.slug, w.heading);
      for (const t of w.questions.flatMap((x) => analyze(x))) expect(held.has(t), `${w.slug}: ${t}`).toBe(true);
    }
  });

  it('curled and straight quotes name the same heading; an unknown section learns nothing', () => {
    expect(headingKey('What’s next')).toBe(headingKey("What's next"));
    expect(learningFrom([]).hintsOf!('no-such-page', null)).toEqual([]);
  });
});

describe('reviewed questions (ask-asked.json)', () => {
  it('hold no judged evaluation question, and name sections the built site has', () => {
    expect(ASK_ASKED.filter((q) => isJudged(q.question))).toEqual([]);
    expect(ASK_ASKED.flatMap((q) => q.sections).filter((s) => idOf(s.slug, s.heading) === undefined)).toEqual([]);
  });

  it('ask:learn refuses a judged question and a section the site does not have, and takes a reviewed one', () => {
    const exists = (slug: string, heading: string | null) => idOf(slug, heading) !== undefined;
    const set = new Set(['do you do payroll?']);
    const faq = index.pageOf(index.sectionsOf('faq')[1]!);
    const heading = index.heading(index.sectionsOf('faq')[1]!);
    expect(refusal({ question: 'Do you do   payroll?', sections: [], note: 'n/a' }, exists, set)).toMatch(/judged/);
    expect(
      refusal({ question: 'x y', sections: [sectionRef('faq#No such heading')], note: 'n/a' }, exists, set),
    ).toMatch(/no section faq#No such heading/);
    expect(
      refusal({ question: 'x y', sections: [sectionRef(`${faq.slug}#${heading}`)], note: 'ok' }, exists, set),
    ).toBe(undefined);
    expect(sectionRef('pricing#')).toEqual({ slug: 'pricing', heading: null });
  });
});

describe('written known gaps (ask-gaps.json)', () => {
  it('parse, name sections the built site has, and hold no judged question', () => {
    expect(AskGapsSchema.parse(gaps)).toHaveLength(ASK_GAPS.length);
    expect(ASK_GAPS.filter((g) => idOf(g.slug, g.heading) === undefined).map((g) => g.slug)).toEqual([]);
    expect(ASK_GAPS.flatMap((g) => g.gaps).filter(isJudged)).toEqual([]);
  });

  it('are known gaps of the index, with the reviewed ones, and no section learns their words', () => {
    const reviewed = [{ question: 'do you do payroll?', sections: [], note: 'not a feature' }];
    expect(knownGaps(learningFrom(reviewed))).toEqual([...ASK_GAPS.flatMap((g) => g.gaps), 'do you do payroll?']);
    expect(index.data.gaps).toHaveLength(
      ASK_GAPS.flatMap((g) => g.gaps).length + ASK_ASKED.filter((q) => !q.sections.length).length,
    );
    const [first] = ASK_GAPS;
    const learned = learningFrom([]).questions!.filter((q) => q.question === first!.gaps[0]);
    expect(learned).toEqual([{ question: first!.gaps[0], sections: [] }]);
  });
});

describe('questions with a section that answers them, as the sentence model reads them', () => {
  it('are the written ones, then the reviewed ones with each section they name, and no known gap', () => {
    const faq = { slug: 'faq', heading: 'Is there a free trial?' };
    const pricing = { slug: 'pricing', heading: null };
    const reviewed = [
      { question: 'can i try it first', sections: [faq, pricing], note: 'asked 4 times' },
      { question: 'do you do payroll?', sections: [], note: 'not a feature' },
    ];
    const answered = answeredQuestions(learningFrom(reviewed));
    const writtenCount = ASK_WRITTEN.reduce((a, w) => a + w.questions.length, 0);
    expect(answered).toHaveLength(writtenCount + 2);
    expect(answered.slice(0, 2)).toEqual(
      ASK_WRITTEN[0]!.questions
        .slice(0, 2)
        .map((q) => ({ slug: ASK_WRITTEN[0]!.slug, heading: ASK_WRITTEN[0]!.heading, questions: [q] })),
    );
    expect(answered.slice(-2)).toEqual([
      { ...faq, questions: ['can i try it first'] },
      { ...pricing, questions: ['can i try it first'] },
    ]);
    expect(answered.some((a) => a.questions.includes('do you do payroll?'))).toBe(false);
  });
});

describe('labelled requests (ask-intents.json)', () => {
  it('parse, and teach every intent', () => {
    expect(AskIntentsSchema.parse(intents).examples).toHaveLength(ASK_INTENTS.length);
    const labels = new Set(ASK_INTENTS.map((e) => e.intent));
    expect([...labels].sort()).toEqual(['callback', 'contact', 'demo', 'message', 'none', 'support']);
  });
});
