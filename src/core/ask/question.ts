/**
 * @module The question analyzer: a visitor's question -> what the assistant looks for. The words go through the
 * site search's analyzer (src/core/search/analyze.ts) after three steps of its own: the filler of questions and
 * greetings is dropped, a misspelt word is corrected to the site word one edit away that most sections use, and
 * visitors' words for what the site names otherwise ("no signal" -> offline, "logins" -> users) are added as
 * alternatives (src/core/ask/phrases.ts). Each query word becomes a group of alternative terms; a section
 * matches the group when it holds any of them.
 */
import { analyze, fold, isStopWord, own, termOf, words } from '../search/analyze.ts';
import { type AskIndex, straightQuotes } from './index.ts';
import { ASK_FILLER, CHAT_SPEAK, GENERIC_WORDS, PHRASES, WORD_ALTERNATIVES } from './phrases.ts';

/** One query word: its own term, and the terms that may stand for it on the site. */
export interface TermGroup {
  /** The word as typed (folded). */
  word: string;
  terms: string[];
  /** Weight of the group (1; less for words carried over from an earlier turn). */
  weight: number;
  /** The word is on no page, in no form: the question asks about something the site does not name. */
  unknown: boolean;
  /** Added from a phrase the site says otherwise: counts when a section holds it, never against one that does not. */
  optional?: boolean;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Bounds on what one question costs, whatever it holds: a word longer than WORD_MAX letters is on no page (and is
 * not looked up letter by letter), only words up to CORRECT_MAX letters are spelling-corrected (one edit is ~54
 * look-ups a letter), and two edits only up to TWO_EDIT_MAX (~(2n)^2 look-ups). A compatibility character folds into
 * several letters (NFKD: "ﬃ" is "ffi"), so the bounds apply to the folded word. GROUPS_MAX content words of a
 * text are read, and at most CORRECTIONS_MAX of them corrected.
 */
export const QUESTION_BOUNDS = {
  WORD_MAX: 40,
  CORRECT_MAX: 20,
  TWO_EDIT_MAX: 12,
  GROUPS_MAX: 40,
  CORRECTIONS_MAX: 8,
} as const;
const { WORD_MAX, CORRECT_MAX, TWO_EDIT_MAX, GROUPS_MAX, CORRECTIONS_MAX } = QUESTION_BOUNDS;

/** Words one edit (delete, transpose, replace, insert) away from `w`; `cheap`: deletes and transposes only. */
function edits1(w: string, cheap = false): string[] {
  const out: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b) out.push(a + b.slice(1));
    if (b.length > 1) out.push(a + b[1] + b[0] + b.slice(2));
    if (cheap) continue;
    for (const c of ALPHABET) {
      if (b) out.push(a + c + b.slice(1));
      out.push(a + c + b);
    }
  }
  return out;
}

/** A word spelling correction looks at: 4 to CORRECT_MAX letters, no digit, and on no page. */
const correctable = (word: string, index: AskIndex) =>
  word.length >= 4 &&
  word.length <= CORRECT_MAX &&
  !/\d/.test(word) &&
  !index.wordCount(word) &&
  !(index.df(termOf(word)) > 0);

/**
 * The site word a misspelt word stands for: one edit away (for long words also two deletes or transposes), the
 * one most sections use. About 60 look-ups a letter, so a question costs well under a millisecond.
 */
export function correct(word: string, index: AskIndex): string | undefined {
  if (!correctable(word, index)) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  const consider = (c: string) => {
    const n = index.wordCount(c);
    if (n > bestCount && !isStopWord(c)) {
      best = c;
      bestCount = n;
    }
  };
  // Short words are only taken for a swap of two letters ("trail" -> "trial"): "apple" is not "apply", "IRAP" not
  // "wrap". Longer ones for any one edit.
  for (const c of edits1(word, word.length < 6)) consider(c);
  if (best || word.length < 8 || word.length > TWO_EDIT_MAX) return best;
  for (const e of edits1(word, true)) for (const c of edits1(e, true)) consider(c);
  return best;
}

/** The site's words for phrases of the question (added as optional groups: the phrase's own words stay). */
function phraseWords(folded: string): string {
  const out: string[] = [];
  for (const [pattern, addition] of PHRASES) if (pattern.test(folded)) out.push(addition);
  return out.join(' ');
}

/** The question's term groups, in order, each word once; then the optional groups of its phrases. */
export function termGroups(question: string, index: AskIndex, weight = 1): TermGroup[] {
  // Contact details and links are the visitor's, not the question's.
  const folded = fold(question)
    // Bounded runs: an unbounded `\S+@` rescans the rest of a long word from every letter (quadratic).
    .replace(/[^\s@]{1,64}@[^\s@]{1,255}/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\+?\d[\d ()-]{6,}\d/g, ' ');
  const groups: TermGroup[] = [];
  const seen = new Set<string>();
  let read = 0;
  let corrections = 0;
  const add = (typed: string, optional: boolean) => {
    const raw = own(CHAT_SPEAK, typed) ?? typed;
    if (isStopWord(raw) || ASK_FILLER.has(raw) || read >= GROUPS_MAX) return;
    read++;
    const fixed = correctable(raw, index) && corrections++ < CORRECTIONS_MAX ? correct(raw, index) : undefined;
    // A word past WORD_MAX letters stands for nothing on the site: kept as one unknown word, cut to the bound.
    const word = fixed ?? (raw.length > WORD_MAX ? raw.slice(0, WORD_MAX) : raw);
    const term = termOf(word);
    if (seen.has(term)) return;
    seen.add(term);
    const terms = [term];
    for (const alt of own(WORD_ALTERNATIVES, word) ?? own(WORD_ALTERNATIVES, term) ?? []) {
      for (const t of analyze(alt)) if (!terms.includes(t)) terms.push(t);
    }
    const known = terms.some((t) => index.df(t) > 0);
    if (optional && !known) return;
    const g: TermGroup = { word, terms, weight: GENERIC_WORDS.has(word) ? weight / 3 : weight, unknown: !known };
    if (optional) g.optional = true;
    groups.push(g);
  };
  for (const raw of words(folded)) add(raw, false);
  read = 0;
  for (const raw of words(phraseWords(folded))) add(raw, true);
  return groups;
}

/** A sentence that asks: it ends with a question mark or starts as a question does. */
const ASKING =
  /\?\s*$|^(how|what|whats|what's|when|where|which|who|whos|who's|why|is|are|can|could|do|does|did|will|would|should|shall|may|any|if|have|has|need)\b/;

/**
 * A message of several sentences, some of which ask and some of which only tell ("had a junior send a $14k quote
 * last week"): the sentences that ask, and the rest (context). Undefined when every sentence asks, or none does.
 */
export function askingSentences(text: string): { asking: string; context: string } | undefined {
  const sentences = text
    .split(/(?<=[.?!])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (sentences.length < 2) return undefined;
  const asks = sentences.map((s) => ASKING.test(straightQuotes(fold(s))));
  if (asks.every(Boolean) || !asks.some(Boolean)) return undefined;
  return {
    asking: sentences.filter((_, i) => asks[i]).join(' '),
    context: sentences.filter((_, i) => !asks[i]).join(' '),
  };
}

/**
 * A message's term groups: those of the sentences that ask, then the other sentences' known words as optional
 * groups (they count where a section holds them, never against one that does not).
 */
export function messageGroups(text: string, index: AskIndex, weight = 1): TermGroup[] {
  const split = askingSentences(text);
  if (!split) return termGroups(text, index, weight);
  const groups = termGroups(split.asking, index, weight);
  const own = new Set(groups.flatMap((g) => g.terms));
  const context = termGroups(split.context, index, weight).filter(
    (g) => !g.unknown && !g.terms.some((t) => own.has(t)),
  );
  return [...groups, ...context.map((g) => ({ ...g, optional: true }))];
}

/**
 * The parts of a question with two needs ("is there a trial and do prices include GST?"): split at a second
 * question mark, a semicolon, or "and"/"also" followed by a question word. One part when there is no such break.
 */
export function questionParts(question: string): string[] {
  const parts = question
    .split(
      /(?:\?\s+|;\s+|,?\s+(?:and|also|plus)\s+|,\s+or\s+)(?=(?:how|what|whats|what's|when|where|which|who|why|is|are|can|could|do|does|did|will|would|should|if|and)\b)/i,
    )
    .map((p) => p.trim())
    .filter((p) => words(p).some((w) => !isStopWord(w) && !ASK_FILLER.has(w)));
  return parts.length >= 2 ? parts.slice(0, 3) : [question];
}

/** Words that mark a question as a follow-up of the one before ("and the Professional one?", "does that…"). */
const FOLLOW_UP =
  /^(and|also|plus|what about|how about|what if|same|ok|okay|so|then|does that|does it|is that|is it|do they|are they|can it|can they|will it|would it|what's that|whats that|and if)\b|\b(it|its|that|this|these|those|they|them|their|theirs|one)\b/;

export function isFollowUp(question: string, groups: readonly TermGroup[]): boolean {
  const q = fold(question).trim();
  return groups.length <= 1 || FOLLOW_UP.test(q);
}
