/**
 * @module The judged question sets (eval/ask/sets/) and their fixed splits (eval/ask/splits.json): dev, test, and
 * the fresh sets (every `fresh-*.json` present, part of test and reported as their own group). The test split is
 * loaded and scored, never printed question by question.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import splits from './splits.json' with { type: 'json' };

/** The folder of the set files. */
export const SETS_DIR = new URL('./sets/', import.meta.url);

const SectionRefSchema = z.object({ slug: z.string().min(1), heading: z.string().min(1).nullable() }).strict();
export type SectionRef = z.infer<typeof SectionRefSchema>;

const KINDS = ['fact', 'two-part', 'pricing', 'absent', 'handoff', 'follow-up'] as const;
export type QuestionKind = (typeof KINDS)[number];

/** One judged question (see any set's `about` for how it is judged). */
export const JudgedQuestionSchema = z
  .object({
    id: z.string().min(1),
    question: z.string().min(2),
    kind: z.enum(KINDS),
    /** fact, follow-up and pricing: every section a visitor can read the answer in. */
    answers: z.array(SectionRefSchema).optional(),
    /** two-part: each part's sections. */
    parts: z.array(z.array(SectionRefSchema).min(1)).optional(),
    /** absent: sections that are related but do not answer. */
    related: z.array(SectionRefSchema).optional(),
    intent: z.enum(['demo', 'contact', 'callback', 'message']).optional(),
    expect: z.object({ monthly: z.number().optional(), annual: z.number().optional() }).strict().optional(),
    conversation: z.array(z.object({ question: z.string(), sources: z.array(SectionRefSchema) }).strict()).optional(),
    why: z.string().optional(),
  })
  .strict();
export type JudgedQuestion = z.infer<typeof JudgedQuestionSchema>;

export const JudgedSetSchema = z
  .object({ about: z.string(), questions: z.array(JudgedQuestionSchema).min(1) })
  .strict();
export type JudgedSet = z.infer<typeof JudgedSetSchema>;

export type Split = 'dev' | 'test' | 'fresh';

/** A set file with its split and how it has been used. */
export interface SetFile {
  set: string;
  file: string;
  use: string;
  split: Split;
}

const FRESH = /^fresh-.+\.json$/;

/** The split rule, as splits.json states it. */
export const SPLIT_RULE: string = splits.rule;

/** The dev sets (tuned to, learned from, read to make fixes). */
export const DEV_SETS: readonly SetFile[] = splits.dev.map((x) => ({ ...x, split: 'dev' }));
/** The test split's written sets (held-out-11 to 15): scored, never learned, never read to make a fix. */
export const TEST_SETS: readonly SetFile[] = splits.test.map((x) => ({ ...x, split: 'test' }));

/** The fresh sets present now (`fresh-*.json` in sets/), in name order. */
export function freshSets(): SetFile[] {
  return readdirSync(SETS_DIR)
    .filter((f) => FRESH.test(f))
    .sort()
    .map((file) => ({ set: file.replace(/\.json$/, ''), file, use: 'fresh language, test split', split: 'fresh' }));
}

/** Every set file the splits name or the fresh pattern finds. */
export const allSets = (): SetFile[] => [...DEV_SETS, ...TEST_SETS, ...freshSets()];

/** The sets a group is scored on: dev; test (its written sets and every fresh one); fresh alone. */
export function setsOf(group: Split): SetFile[] {
  if (group === 'dev') return [...DEV_SETS];
  return group === 'test' ? [...TEST_SETS, ...freshSets()] : freshSets();
}

/** The set files in sets/ (every one must be in exactly one split). */
export const setFilesOnDisk = () =>
  readdirSync(SETS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();

/** A set file, checked against the schema. */
export const loadSet = (file: string): JudgedSet =>
  JudgedSetSchema.parse(JSON.parse(readFileSync(new URL(file, SETS_DIR), 'utf8')));

/** A question as judged sets are matched against data: in any case, with its spaces squashed. */
export const squashQuestion = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every judged question of every set (squashed): what the shipped data and `npm run ask:learn` must never hold. */
export const judgedQuestions = (): ReadonlySet<string> =>
  new Set(allSets().flatMap((x) => loadSet(x.file).questions.map((q) => squashQuestion(q.question))));

/** A question with the set it comes from (ids are unique within a set only). */
export interface SetQuestion extends JudgedQuestion {
  set: string;
  split: Split;
}

/** The questions of some sets, each tagged with its set and split. */
export const questionsOf = (sets: readonly SetFile[]): SetQuestion[] =>
  sets.flatMap((x) => loadSet(x.file).questions.map((q) => ({ ...q, set: x.set, split: x.split })));
