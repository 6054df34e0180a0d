/**
 * @module The lexicon: how visitors type against how the site writes, as data (content/data/lexicon.json) read by
 * site search (its synonyms) and the chat (all of it). Each entry carries a note; the schema refuses one without.
 */
import { z } from 'zod';
import { analyze, fold, type SynonymEntry, words } from '../search/analyze.ts';

const note = z.string().min(3);
const word = z.string().min(1).max(40);

export const LexiconSchema = z
  .object({
    about: z.string(),
    synonyms: z.array(z.object({ short: word, long: z.array(z.string().min(1)).min(1), note }).strict()),
    chatSpeak: z.array(z.object({ means: z.string().min(1), typed: z.array(word).min(1), note }).strict()),
    alternatives: z
      .array(z.object({ site: z.array(word).min(1), visitor: z.array(word).min(1), note }).strict())
      .default([]),
    filler: z.array(z.object({ words: z.array(word).min(1), note }).strict()),
    followUp: z.array(
      z.object({ words: z.array(z.string().min(1)).min(1), start: z.boolean().default(false), note }).strict(),
    ),
    questionWords: z.object({ words: z.array(word), note }).strict(),
    asksNumber: z
      .object({ phrases: z.array(z.string().min(2)), numberWords: z.array(word), note })
      .strict()
      .default({ phrases: [], numberWords: [], note: 'none' }),
  })
  .strict();
export type LexiconData = z.infer<typeof LexiconSchema>;

/** A lexicon with no entries (an index built without the site's). */
export const EMPTY_LEXICON: LexiconData = {
  about: 'No entries.',
  synonyms: [],
  chatSpeak: [],
  alternatives: [],
  filler: [],
  followUp: [],
  questionWords: { words: [], note: 'none' },
  asksNumber: { phrases: [], numberWords: [], note: 'none' },
};

/** The lexicon compiled for the analyzer: folded words and analyzed terms. */
export interface Lexicon {
  /** Typed word -> the word meant ("pls" -> "please"). */
  chatSpeak: ReadonlyMap<string, string>;
  /** A word or its term -> site terms that may stand for it (one way). */
  alternatives: ReadonlyMap<string, readonly string[]>;
  /** Words that name no topic. */
  filler: ReadonlySet<string>;
  /** Words and phrases (folded) that mark a follow-up anywhere in a question, and at its start only. */
  followUp: { anywhere: readonly string[]; start: readonly string[] };
  /** Words that start a question. */
  questionWords: ReadonlySet<string>;
  /** The synonyms, as site search reads them. */
  synonyms: readonly SynonymEntry[];
  /** Openings of a question whose answer is a number (folded, words joined by one space). */
  asksNumber: readonly string[];
  /** Words that state a number without digits. */
  numberWords: ReadonlySet<string>;
}

/** Compiles checked lexicon data. */
export function compileLexicon(input: unknown): Lexicon {
  const data = LexiconSchema.parse(input);
  const alternatives = new Map<string, string[]>();
  const addAlternative = (key: string, terms: readonly string[]) => {
    const list = alternatives.get(key) ?? [];
    for (const t of terms) if (t !== key && !list.includes(t)) list.push(t);
    alternatives.set(key, list);
  };
  for (const a of data.alternatives) {
    const site = a.site.flatMap((w) => analyze(w));
    for (const v of a.visitor) for (const t of analyze(v)) addAlternative(t, site);
  }
  for (const s of data.synonyms) {
    const short = analyze(s.short);
    if (short.length === 1)
      addAlternative(
        short[0]!,
        s.long.flatMap((l) => analyze(l)),
      );
  }
  return {
    chatSpeak: new Map(data.chatSpeak.flatMap((c) => c.typed.map((t) => [fold(t), fold(c.means)] as const))),
    alternatives,
    filler: new Set(data.filler.flatMap((f) => f.words.map(fold))),
    followUp: {
      anywhere: data.followUp.filter((f) => !f.start).flatMap((f) => f.words.map(fold)),
      start: data.followUp.filter((f) => f.start).flatMap((f) => f.words.map(fold)),
    },
    questionWords: new Set(data.questionWords.words.map(fold)),
    synonyms: data.synonyms,
    asksNumber: data.asksNumber.phrases.map((p) => words(p).join(' ')),
    numberWords: new Set(data.asksNumber.numberWords.map(fold)),
  };
}
