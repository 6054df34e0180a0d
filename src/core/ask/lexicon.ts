/** @module The lexicon (../lexicon.ts) compiled for the chat's analyser: folded words and analysed terms. */
import { LexiconSchema } from '../lexicon.ts';
import { analyze, fold, words } from '../search/analyze.ts';

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
  /** Words that start a question, and those that join a second one to the first. */
  questionWords: ReadonlySet<string>;
  joiners: ReadonlySet<string>;
  /** Openings of a question whose answer is a number (folded, words joined by one space). */
  asksNumber: readonly string[];
  /** Words that state a number without digits. */
  numberWords: ReadonlySet<string>;
}

/** Checks and compiles lexicon data. */
export function compileLexicon(input: unknown): Lexicon {
  // Checked once per index: zod's compiled fast path would cost more to build than it saves.
  const data = LexiconSchema.parse(input, { jitless: true });
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
    const [short, long] = [analyze(s.short), s.long.flatMap((l) => analyze(l))];
    if (short.length === 1) addAlternative(short[0]!, long);
  }
  const folded = (list: readonly string[]) => new Set(list.map(fold));
  return {
    chatSpeak: new Map(data.chatSpeak.flatMap((c) => c.typed.map((t) => [fold(t), fold(c.means)] as const))),
    alternatives,
    filler: folded(data.filler.flatMap((f) => f.words)),
    followUp: {
      anywhere: data.followUp.filter((f) => !f.start).flatMap((f) => f.words.map(fold)),
      start: data.followUp.filter((f) => f.start).flatMap((f) => f.words.map(fold)),
    },
    questionWords: folded(data.questionWords.words),
    joiners: folded(data.joiners.words),
    asksNumber: data.asksNumber.phrases.map((p) => words(p).join(' ')),
    numberWords: folded(data.asksNumber.numberWords),
  };
}
