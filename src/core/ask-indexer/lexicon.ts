/**
 * @module The lexicon (../lexicon.ts) compiled at build time for the chat's analyser (../ask/lexicon.ts): checked, its
 * words folded and its alternatives and synonyms analysed into site search's terms.
 */
import { type Lexicon, type LexiconTables, loadLexicon } from '../ask/lexicon.ts';
import { LexiconSchema } from '../lexicon.ts';
import { analyze, fold, words } from '../search/analyze.ts';

/** Checks lexicon data and compiles it into the tables the index stores. */
export function lexiconTables(input: unknown): LexiconTables {
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
  const folded = (list: readonly string[]) => [...new Set(list.map(fold))];
  const joined = (list: readonly string[], alternative: boolean) =>
    folded(list).map((w): [string, boolean] => [w, alternative]);
  return {
    chatSpeak: data.chatSpeak.flatMap((c) => c.typed.map((t) => [fold(t), fold(c.means)] as [string, string])),
    alternatives: [...alternatives],
    filler: folded(data.filler.flatMap((f) => f.words)),
    followUp: {
      anywhere: data.followUp.filter((f) => !f.start).flatMap((f) => f.words.map(fold)),
      start: data.followUp.filter((f) => f.start).flatMap((f) => f.words.map(fold)),
    },
    questionWords: folded(data.questionWords.words),
    joiners: [...joined(data.joiners.words, false), ...joined(data.alternativeJoiners.words, true)],
    asksNumber: data.asksNumber.phrases.map((p) => words(p).join(' ')),
    numberWords: folded(data.asksNumber.numberWords),
    asksPerson: data.asksPerson.phrases.map((p) => words(p).join(' ')),
  };
}

/** Checks and compiles lexicon data into the analyser's lookups. */
export const compileLexicon = (input: unknown): Lexicon => loadLexicon(lexiconTables(input));
