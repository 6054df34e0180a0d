/**
 * The assistant's search hints, indexed with a section's words at build time and never shown (an answer still
 * quotes only the section's own sentences):
 * - ask-hints.json: for each section of the site's pages, a few words a visitor may use for what the section says
 *   that the section itself does not ("drop down a plan" for a downgrade, "no bars" for no signal). Written from
 *   the content alone.
 * - ask-questions.json: for each section, up to twelve questions a visitor would type that the section's own text
 *   answers, in a visitor's words (doc2query, written from the content alone by people who saw neither the
 *   assistant nor any judged set). Indexed as the section's hints, and kept as learned questions with it (a
 *   question that reads like one is answered from its section first, as for the asked ones below).
 * - ask-asked.json: questions visitors asked, each with the sections that answer it (the judged development sets,
 *   tests/data, which `npm run ask:learn` copies here): the words people used for a section that its text lacks.
 *   A question with no section is one the site does not answer: a known gap, which the index keeps so that the
 *   same question asked again is told so plainly. The others are kept too, with their sections: a question that
 *   reads like one of them is answered from its sections first (ASK_LEARNING).
 *   A set kept out of learning (the clean measure) is never in it; tests/build/ask-hints.test.ts checks it is
 *   what the sets say.
 * Each names its section by slug and heading (null: the page intro); the tests check each names a section the site
 * has, so a renamed heading fails the tests instead of losing its hints.
 */
import { z } from 'zod';
import { type AskLearning, type SectionHints, straightQuotes } from '../core/ask/index.ts';
import asked from './ask-asked.json' with { type: 'json' };
import data from './ask-hints.json' with { type: 'json' };
import written from './ask-questions.json' with { type: 'json' };

export const AskHintsSchema = z.array(
  z
    .object({
      slug: z.string().min(1),
      heading: z.string().min(1).nullable(),
      hints: z
        .array(
          z
            .string()
            .regex(/^[a-z0-9][a-z0-9' -]*$/)
            .max(80),
        )
        .max(12),
    })
    .strict(),
);
export type AskHint = z.infer<typeof AskHintsSchema>[number];

export const ASK_HINTS: readonly AskHint[] = AskHintsSchema.parse(data);

/** Questions written from the content for each section, as a visitor would ask what the section answers. */
export const AskQuestionsSchema = z.array(
  z
    .object({
      slug: z.string().min(1),
      heading: z.string().min(1).nullable(),
      questions: z.array(z.string().min(2).max(300)).min(1).max(12),
    })
    .strict(),
);
export type AskWritten = z.infer<typeof AskQuestionsSchema>[number];

export const ASK_WRITTEN: readonly AskWritten[] = AskQuestionsSchema.parse(written);

const SectionRef = z.object({ slug: z.string().min(1), heading: z.string().min(1).nullable() }).strict();

export const AskedSchema = z.array(
  z
    .object({
      /** The judged set and question it comes from ("held-out-4", "h4-014"): the bench leaves a set's own out. */
      set: z.string().min(1),
      id: z.string().min(1),
      question: z.string().min(2).max(500),
      /** A follow-up's earlier turn's question: it is learned in that context (AskIndex.nearestAsked). */
      earlier: z.string().min(2).max(500).optional(),
      /** The sections that answer it; none: the site does not answer it (a known gap, told so plainly). */
      sections: z.array(SectionRef),
    })
    .strict(),
);
export type AskedQuestion = z.infer<typeof AskedSchema>[number];

export const ASK_ASKED: readonly AskedQuestion[] = AskedSchema.parse(asked);

/** A heading as a key: the rendered page curls quotes ("What's next" is "What’s next" in the built markdown). */
export const headingKey = (heading: string | null) => (heading === null ? null : straightQuotes(heading));

const NONE: readonly string[] = [];

/** Hints by page and section from written hints and asked questions (a question's text is its section's hint). */
export function hintsFrom(
  hints: readonly AskHint[],
  questions: readonly AskedQuestion[],
): (slug: string) => SectionHints {
  const byPage = new Map<string, Map<string | null, string[]>>();
  const add = (slug: string, heading: string | null, more: readonly string[]) => {
    let page = byPage.get(slug);
    if (!page) byPage.set(slug, (page = new Map()));
    const key = headingKey(heading);
    page.set(key, [...(page.get(key) ?? []), ...more]);
  };
  for (const h of hints) add(h.slug, h.heading, h.hints);
  // A follow-up's own words are its sections' hint: the earlier question's are about what that one asked.
  for (const q of questions) for (const s of q.sections) add(s.slug, s.heading, [q.question]);
  return (slug) => (heading) => byPage.get(slug)?.get(headingKey(heading)) ?? NONE;
}

/** The written questions, each with its section (after the asked ones: of two as near, the asked one wins). */
const writtenQuestions = () =>
  ASK_WRITTEN.flatMap((w) =>
    w.questions.map((question) => ({ question, sections: [{ slug: w.slug, heading: w.heading }] })),
  );

/**
 * What the index learns from the written hints and questions and the asked questions: the hints (written hints,
 * written questions, asked questions), the known gaps (asked questions no section answers) and the learned
 * questions (asked ones some section answers, then the written ones; AskIndex.nearestAsked for both).
 */
export function learningFrom(questions: readonly AskedQuestion[]): Required<AskLearning> {
  const hints = [...ASK_HINTS, ...ASK_WRITTEN.map((w) => ({ slug: w.slug, heading: w.heading, hints: w.questions }))];
  return {
    hintsOf: hintsFrom(hints, questions),
    gaps: questions.filter((q) => !q.sections.length).map((q) => q.question),
    learned: [...questions.filter((q) => q.sections.length), ...writtenQuestions()],
  };
}

/** What the build indexes: the site's hints and every asked question. */
export const ASK_LEARNING = learningFrom(ASK_ASKED);

/** A page's hints by section heading (none for a page or section without hints). */
export const askHintsOf = ASK_LEARNING.hintsOf;
