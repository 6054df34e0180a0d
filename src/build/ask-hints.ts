/**
 * What the chat's index learns beside the pages, all indexed as a section's expansions and never shown (an answer
 * quotes only the section's own sentences):
 * - ask-hints.json: for each section, words a visitor may use for what it says that its text does not.
 * - ask-questions.json: for each section, up to thirty questions a visitor would type that its text answers, in a
 *   visitor's words (written from the content alone by people who saw neither the chat nor any judged set).
 * - ask-gaps.json: for each section, questions a visitor reading it could ask next that no page answers (written
 *   from the content alone, like the questions): known gaps, which the decision reads as near misses.
 * - ask-asked.json: questions visitors asked, reviewed from `npm run ask:report`, each with the sections that answer
 *   it, or none: a known gap, which the chat declines plainly. Never a judged evaluation question (eval/ask).
 * - ask-intents.json: labelled requests for a person, which the intent classifier learns.
 * - content/data/lexicon.json: how visitors type against how the site writes.
 * Each names its section by slug and heading (null: the page intro); tests/build/ask-hints.test.ts checks each names a
 * section the site has, so a renamed heading fails the tests instead of losing its hints.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import lexicon from '../../content/data/lexicon.json' with { type: 'json' };
import { INTENTS, type IntentModel } from '../core/ask/intent.ts';
import { type AskLearning, intentExamples, straightQuotes } from '../core/ask-indexer/assemble.ts';
import { trainIntents } from '../core/ask-indexer/train-intents.ts';
import { compileLexicon } from '../core/ask-indexer/lexicon.ts';
import { EMPTY_LEXICON, LexiconSchema } from '../core/lexicon.ts';
import asked from './ask-asked.json' with { type: 'json' };
import gaps from './ask-gaps.json' with { type: 'json' };
import data from './ask-hints.json' with { type: 'json' };
import intents from './ask-intents.json' with { type: 'json' };
import written from './ask-questions.json' with { type: 'json' };

const SectionRef = z.object({ slug: z.string().min(1), heading: z.string().min(1).nullable() }).strict();

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

/** Up to `max` questions written for a section. */
const questionList = (max: number) => z.array(z.string().min(2).max(300)).min(1).max(max);
/** Questions written from the content for each section (up to thirty), as a visitor would ask what it answers. */
export const AskQuestionsSchema = z.array(SectionRef.extend({ questions: questionList(30) }).strict());
/** Questions written from the content for each section (up to twelve) that no page of the site answers. */
export const AskGapsSchema = z.array(SectionRef.extend({ gaps: questionList(12) }).strict());

/** Visitors' questions reviewed from the report: the sections that answer each, or none (a known gap). */
export const AskedSchema = z.array(
  z.object({ question: z.string().min(2).max(500), sections: z.array(SectionRef), note: z.string().min(3) }).strict(),
);
export type AskedQuestion = z.infer<typeof AskedSchema>[number];

/** Labelled requests: a text and the intent it asks (`none`: no person). */
export const AskIntentsSchema = z
  .object({
    about: z.string(),
    examples: z.array(z.object({ text: z.string().min(1).max(1000), intent: z.enum(INTENTS) }).strict()),
  })
  .strict();

export const ASK_HINTS: readonly AskHint[] = AskHintsSchema.parse(data);
export const ASK_WRITTEN = AskQuestionsSchema.parse(written);
export const ASK_ASKED: readonly AskedQuestion[] = AskedSchema.parse(asked);
export const ASK_GAPS = AskGapsSchema.parse(gaps);
export const ASK_INTENTS = AskIntentsSchema.parse(intents).examples;

/** A heading as a key: the rendered page curls quotes ("What's next" is "What’s next" in the built markdown). */
export const headingKey = (heading: string | null) => (heading === null ? '' : straightQuotes(heading));

/** What the index learns: hints, written and reviewed questions, labelled requests, the lexicon. */
export function learningFrom(reviewed: readonly AskedQuestion[] = ASK_ASKED): AskLearning {
  const hints = new Map<string, string[]>();
  for (const h of ASK_HINTS) hints.set(`${h.slug}#${headingKey(h.heading)}`, h.hints);
  return {
    lexicon: LexiconSchema.parse(lexicon),
    intents: ASK_INTENTS,
    hintsOf: (slug, heading) => hints.get(`${slug}#${headingKey(heading)}`) ?? [],
    questions: [
      ...ASK_WRITTEN.flatMap((w) => w.questions.map((question) => ({ question, sections: [w] }))),
      ...ASK_GAPS.flatMap((g) => g.gaps.map((question) => ({ question, sections: [] }))),
      ...reviewed,
    ],
  };
}

/** The questions the site is known not to answer (written from the content, and reviewed as gaps): those learned
 * with no section. */
export const knownGaps = (learning: AskLearning = ASK_LEARNING) =>
  (learning.questions ?? []).filter((q) => !q.sections.length).map((q) => q.question);

/** The questions learned with a section that answers them (written, and reviewed), as the sentence model reads them:
 * an entry for each question and each section it names (sectionTexts in ./ask-embedding.ts gathers them by section
 * for the vectors and the fit). */
export const answeredQuestions = (learning: AskLearning = ASK_LEARNING) =>
  (learning.questions ?? []).flatMap((q) =>
    q.sections.map((s) => ({ slug: s.slug, heading: s.heading, questions: [q.question] })),
  );

/** What the build indexes. */
export const ASK_LEARNING = learningFrom();

const INTENT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/kartage-intents/', import.meta.url));

/**
 * The intent classifier of what the build learns, trained once per change of what it learns: kept in the build
 * cache by the hash of its examples, the lexicon and the classifier's code (training takes seconds).
 */
export function cachedIntentModel(learning: AskLearning = ASK_LEARNING): IntentModel {
  const lexicon = learning.lexicon ?? EMPTY_LEXICON;
  const examples = intentExamples(learning.intents ?? [], learning.questions ?? []);
  const hash = createHash('sha256')
    .update(JSON.stringify([examples, lexicon.chatSpeak]))
    .update(readFileSync(new URL('../core/ask/intent.ts', import.meta.url)))
    .update(readFileSync(new URL('../core/ask-indexer/train-intents.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 32);
  const file = join(INTENT_CACHE, `${hash}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as IntentModel;
  const model = trainIntents(examples, compileLexicon(lexicon));
  mkdirSync(INTENT_CACHE, { recursive: true });
  // Written whole under a name of its own, then renamed: two builds at once never read half a file.
  const part = `${file}.${process.pid}`;
  writeFileSync(part, JSON.stringify(model));
  renameSync(part, file);
  return model;
}
