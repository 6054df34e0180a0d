/**
 * @module The question analyzer: a visitor's question -> what the assistant looks for. The words go through the
 * site search's analyzer (src/core/search/analyze.ts) after three steps of its own: the filler of questions and
 * greetings is dropped, a misspelt word is corrected to the site word one edit away that most sections use, and
 * visitors' words for what the site names otherwise ("no signal" -> offline, "logins" -> users) are added as
 * alternatives (src/core/ask/phrases.ts). Each query word becomes a group of alternative terms; a section
 * matches the group when it holds any of them.
 */
import { analyze, fold, isStopWord, termOf, words } from '../search/analyze.ts';
import type { AskIndex } from './index.ts';
import { ASK_FILLER, PHRASES, WORD_ALTERNATIVES } from './phrases.ts';

/** One query word: its own term, and the terms that may stand for it on the site. */
export interface TermGroup {
  /** The word as typed (folded). */
  word: string;
  terms: string[];
  /** Weight of the group (1; less for words carried over from an earlier turn). */
  weight: number;
  /** The word is on no page, in no form: the question asks about something the site does not name. */
  unknown: boolean;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** Words one edit (delete, transpose, replace, insert) away from `w`. */
function edits1(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b) out.push(a + b.slice(1));
    if (b.length > 1) out.push(a + b[1] + b[0] + b.slice(2));
    for (const c of ALPHABET) {
      if (b) out.push(a + c + b.slice(1));
      out.push(a + c + b);
    }
  }
  return out;
}

/** The site word a misspelt word stands for: one edit away (two for long words), used by most sections. */
export function correct(word: string, index: AskIndex): string | undefined {
  if (word.length < 4 || /\d/.test(word) || index.wordCount(word)) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  const first = edits1(word);
  for (const c of first) {
    const n = index.wordCount(c);
    if (n > bestCount && !isStopWord(c)) {
      best = c;
      bestCount = n;
    }
  }
  if (best || word.length < 7) return best;
  for (const e of first) {
    for (const c of edits1(e)) {
      const n = index.wordCount(c);
      if (n > bestCount && !isStopWord(c)) {
        best = c;
        bestCount = n;
      }
    }
  }
  return best;
}

/** Phrases of the question replaced by the site's words (the replacement is added, the phrase kept). */
function expandPhrases(folded: string): string {
  let out = folded;
  for (const [pattern, addition] of PHRASES) if (pattern.test(folded)) out += ` ${addition}`;
  return out;
}

/** The question's term groups, in order, each word once. */
export function termGroups(question: string, index: AskIndex, weight = 1): TermGroup[] {
  const folded = fold(question);
  const groups: TermGroup[] = [];
  const seen = new Set<string>();
  for (const raw of words(expandPhrases(folded))) {
    if (isStopWord(raw) || ASK_FILLER.has(raw)) continue;
    const fixed = correct(raw, index);
    const word = fixed ?? raw;
    const term = termOf(word);
    if (seen.has(term)) continue;
    seen.add(term);
    const terms = [term];
    for (const alt of WORD_ALTERNATIVES[word] ?? WORD_ALTERNATIVES[term] ?? []) {
      for (const t of analyze(alt)) if (!terms.includes(t)) terms.push(t);
    }
    const known = terms.some((t) => index.df(t) > 0);
    groups.push({ word, terms, weight, unknown: !known });
  }
  return groups;
}

/** Words that mark a question as a follow-up of the one before ("and the Professional one?", "does that…"). */
const FOLLOW_UP =
  /^(and|also|plus|what about|how about|what if|same|ok|okay|so|then|does that|does it|is that|is it|do they|are they|can it|can they|will it|would it|what's that|whats that|and if)\b|\b(it|that|this|those|they|them|one)\b/;

export function isFollowUp(question: string, groups: readonly TermGroup[]): boolean {
  const q = fold(question).trim();
  return groups.length <= 1 || FOLLOW_UP.test(q);
}
