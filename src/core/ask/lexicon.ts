/**
 * @module The lexicon (../lexicon.ts) as the chat's analyser reads it: folded words and analysed terms, compiled at
 * build time into the index (../ask-indexer/lexicon.ts), so a cold process only makes its lookups.
 */

/** The lexicon compiled for the analyzer. */
export interface Lexicon {
  /** Typed word -> the word meant ("pls" -> "please"). */
  chatSpeak: ReadonlyMap<string, string>;
  /** A word or its term -> site terms that may stand for it (one way). */
  alternatives: ReadonlyMap<string, readonly string[]>;
  /** Words that name no topic. */
  filler: ReadonlySet<string>;
  /** Words and phrases (folded) that mark a follow-up anywhere in a question, and at its start only. */
  followUp: { anywhere: readonly string[]; start: readonly string[] };
  /** Words that start a question, and those that join a second one to the first (true: as its alternative, "or"). */
  questionWords: ReadonlySet<string>;
  joiners: ReadonlyMap<string, boolean>;
  /** Openings of a question whose answer is a number (folded, words joined by one space). */
  asksNumber: readonly string[];
  /** Words that state a number without digits. */
  numberWords: ReadonlySet<string>;
  /** Phrases (folded, words joined by one space) that ask whom to talk to: a request for a person. */
  asksPerson: readonly string[];
}

/** The compiled lexicon as the index file holds it: each lookup as a list. */
export type LexiconTables = {
  [K in keyof Lexicon]: Lexicon[K] extends ReadonlyMap<infer A, infer B>
    ? [A, B][]
    : Lexicon[K] extends ReadonlySet<infer A>
      ? A[]
      : Lexicon[K];
};

/** The lookups of a compiled lexicon. */
export const loadLexicon = (t: LexiconTables): Lexicon => ({
  ...t,
  chatSpeak: new Map(t.chatSpeak),
  alternatives: new Map(t.alternatives),
  filler: new Set(t.filler),
  questionWords: new Set(t.questionWords),
  joiners: new Map(t.joiners),
  numberWords: new Set(t.numberWords),
});
