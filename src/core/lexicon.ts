/**
 * @module The one lexicon of site search and the chat (content/data/lexicon.json): how visitors type against how the
 * site writes. Search reads its synonyms; the chat all of it (compiled by src/core/ask-indexer/lexicon.ts). Every entry
 * carries a note.
 */
import { z } from 'zod';

const note = z.string().min(3);
const word = z.string().min(1).max(40);
const words = z.strictObject({ words: z.array(word), note });

/** The lexicon file's shape. */
export const LexiconSchema = z.strictObject({
  about: z.string(),
  synonyms: z.array(z.strictObject({ short: word, long: z.array(z.string().min(1)).min(1), note })),
  chatSpeak: z.array(z.strictObject({ means: z.string().min(1), typed: z.array(word).min(1), note })),
  alternatives: z
    .array(z.strictObject({ site: z.array(word).min(1), visitor: z.array(word).min(1), note }))
    .default([]),
  filler: z.array(z.strictObject({ words: z.array(word).min(1), note })),
  followUp: z.array(
    z.strictObject({ words: z.array(z.string().min(1)).min(1), start: z.boolean().default(false), note }),
  ),
  questionWords: words,
  joiners: words.default({ words: [], note: 'none' }),
  alternativeJoiners: words.default({ words: [], note: 'none' }),
  asksNumber: z
    .strictObject({ phrases: z.array(z.string().min(2)), numberWords: z.array(word), note })
    .default({ phrases: [], numberWords: [], note: 'none' }),
  asksPerson: z.strictObject({ phrases: z.array(z.string().min(2)), note }).default({ phrases: [], note: 'none' }),
});
export type LexiconData = z.infer<typeof LexiconSchema>;

/** A lexicon with no entries. */
export const EMPTY_LEXICON: LexiconData = LexiconSchema.parse(
  {
    about: 'No entries.',
    synonyms: [],
    chatSpeak: [],
    filler: [],
    followUp: [],
    questionWords: { words: [], note: 'none' },
  },
  { jitless: true },
);
