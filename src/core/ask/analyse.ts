/**
 * @module Stage 1, analyse: the message and the turn before it -> a QueryPlan. Words through the lexicon, site search's
 * analyzer and a bounded spelling correction; a message with two needs cut in parts. Work is bounded (ANALYSE_BOUNDS).
 */
import { fold, isStopWord, termOf, words } from '../search/analyze.ts';
import { kept } from '../kept.ts';
import type { AskIndex } from './index.ts';
import type { Lexicon } from './lexicon.ts';

/** A word of the question (folded), its term first then terms that may stand for it, its weight, and whether no
 * section holds it in any form. */
export type TermGroup = { word: string; terms: string[]; weight: number; unknown: boolean };
/** A need of the message; `lean`: the other parts' words; `leaning`: it leans on them ("and what plan is it on?");
 * `alternative`: it follows "or" ("does it do payroll || or do we keep our own?"). */
export type Part = Omit<Piece, 'said'> & { groups: TermGroup[]; lean: TermGroup[]; leaning?: 'refers' | 'short' };
/** What a request asks: its parts, the earlier turn's words and question, whether it leans on it (then its pages). */
type Earlier = { context: TermGroup[]; followUp: boolean; cited: ReadonlySet<string>; earlier: string };
export type QueryPlan = { question: string; parts: Part[] } & Earlier;
/** An earlier turn: its question and the sections it cited. */
export type Turn = { question: string; sources?: readonly { slug: string; heading: string | null }[] };
/** The sentence model's text of a part: its words twice after an earlier turn's, thrice after parts it refers to. */
export const modelText = (p: QueryPlan, part: Part) => {
  const others = part.leaning === 'refers' ? p.parts.slice(0, p.parts.indexOf(part)).map((o) => o.text) : [];
  const [before, times] = p.followUp ? [p.earlier, 2] : [others.join(' '), 3];
  return before ? [before, ...Array<string>(times).fill(part.text)].join(' ') : part.text;
};
/** Letters of a word looked up, of a word corrected (two edits: TWO_EDIT_MAX), words read, corrected, parts cut. */
export const ANALYSE_BOUNDS = {
  WORD_MAX: 40,
  CORRECT_MAX: 20,
  TWO_EDIT_MAX: 12,
  GROUPS_MAX: 40,
  CORRECTIONS_MAX: 8,
  PARTS_MAX: 3,
} as const;
const { WORD_MAX, CORRECT_MAX, TWO_EDIT_MAX, GROUPS_MAX, CORRECTIONS_MAX, PARTS_MAX } = ANALYSE_BOUNDS;
/** What the earlier turn's words weigh (leaning on it, or standing alone), and the other parts' in a part (ditto). */
const CONTEXT_WEIGHT = { followUp: 0.5, standalone: 0.15, part: 0.4, leaning: 0.85 };
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Words one edit away from `w` (and `w` itself, which no page has): deletes and swaps; inserts too unless `swaps`;
 * replaces only for `all` (a short word has many neighbours one letter apart: "trual" is as near "trust" as "trial").
 */
function edits1(w: string, kinds: 'swaps' | 'inserts' | 'all'): string[] {
  const out: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    const [a, b] = [w.slice(0, i), w.slice(i)];
    out.push(a + b.slice(1), a + b.slice(1, 2) + b.slice(0, 1) + b.slice(2));
    if (kinds !== 'swaps')
      for (const c of ALPHABET) out.push(a + c + b, ...(kinds === 'all' ? [a + c + b.slice(1)] : []));
  }
  return out;
}

/** A word spelling correction looks at: 4 to CORRECT_MAX letters, no digit, on no page. */
const correctable = (w: string, index: AskIndex) =>
  w.length >= 4 && w.length <= CORRECT_MAX && !/\d/.test(w) && !index.wordCount(w) && index.df(termOf(w)) === 0;

/**
 * The site word most pages use one edit from a misspelt word (under 6 letters: no replaced letter; 8+: two deletes or
 * swaps), or null when from 5 letters the nearest words are only stop words ("didnt", "someon": nothing to look up;
 * a shorter word is near too many: "hero" is one letter from "her").
 */
export function correct(w: string, index: AskIndex, lexicon?: Pick<Lexicon, 'filler'>): string | null | undefined {
  if (!correctable(w, index)) return undefined;
  let [best, bestCount, stop] = [undefined as string | undefined, 0, false];
  const consider = (c: string, n = index.wordCount(c)) => {
    if (isStopWord(c) || lexicon?.filler.has(c)) stop ||= w.length >= 5;
    else if (n > bestCount) [best, bestCount] = [c, n];
  };
  for (const c of edits1(w, w.length < 6 ? 'inserts' : 'all')) consider(c);
  if (!best && w.length >= 8 && w.length <= TWO_EDIT_MAX)
    for (const e of edits1(w, 'swaps')) for (const c of edits1(e, 'swaps')) consider(c);
  return best ?? (stop ? null : undefined);
}

/** A visitor's contact details and links, not the question's (wordsOf leaves them out; the last few texts kept). */
const CONTACT = /[^\s@]{1,64}@[^\s@]{1,255}|https?:\/\/\S{1,2000}|\+?\d[\d ()-]{6,40}\d/g;
const wordsKept = new Map<string, string[]>();
const wordsOf = (t: string) => kept(wordsKept, t, () => words(fold(t).replace(CONTACT, ' ')), 8);

/** A text's term groups, in order, each term once. */
export function termGroups(text: string, index: AskIndex, lexicon: Lexicon, weight = 1): TermGroup[] {
  const groups: TermGroup[] = [];
  const seen = new Set<string>();
  let corrections = 0;
  const memo = new Map<string, string | null | undefined>(); // a word typed again costs no second search
  const fix = (w: string) => (memo.has(w) ? memo.get(w) : memo.set(w, correct(w, index, lexicon)).get(w));
  for (const typed of wordsOf(text)) {
    const raw = lexicon.chatSpeak.get(typed) ?? typed;
    if (isStopWord(raw) || lexicon.filler.has(raw)) continue;
    if (groups.length >= GROUPS_MAX) break;
    const fixed = correctable(raw, index) && corrections++ < CORRECTIONS_MAX ? fix(raw) : undefined;
    if (fixed === null) continue;
    // A number run on with a plural or a thousand ("429s", "15k") no page has: its number ("2fa" stays a word).
    const number = /^(\d+)[ks]$/.exec(raw)?.[1];
    const word = (fixed ?? (number && !index.wordCount(raw) ? number : raw)).slice(0, WORD_MAX);
    const term = termOf(word);
    if (seen.has(term)) continue;
    seen.add(term);
    const terms = [term, ...(lexicon.alternatives.get(term) ?? [])];
    groups.push({ word, terms, weight, unknown: !terms.some((t) => index.df(t) > 0) });
  }
  return groups;
}

/** A word folded, without commas ("also," is the joiner "also"). */
const bare = (w: string) => fold(w).replaceAll(',', '');
/** A need of a message, and what is said of it without asking ("... right? got burnt by a phone company"). */
export type Piece = { text: string; said: string; alternative?: boolean };

/** A need's number or letter in a list ("(a) ... and (b) ...", "(ii)", "2)", "2."). */
const ENUMERATED = /^\(?(?:[a-e]|i{1,3}|[1-5])\)$|^[1-5]\.$/;
/** The needs of a message: cut after `?` or `;`, between sentences or lines that each ask (the second not referring
 * back), at a joiner or a list's number or letter before a question word; a piece with no content word joins its
 * neighbour; a statement after a question, or a lead-in before parts, is said about them. */
export function splitParts(text: string, lexicon: Lexicon): Piece[] {
  const asking = (w: string) => lexicon.questionWords.has(words(w)[0] ?? ''); // "where's" too: its first word
  const apart = (a: string, s: string) => asking(a) && asking(s) && leans(s, [], lexicon) !== 'refers';
  const pieces = text.split(/(?<=[?;])\s/).flatMap((p) =>
    p.split(/(?<=[.!])\s+|\s*\n\s*/).reduce<string[]>((a, s) => {
      if (s) a.push(a.length && !apart(a.at(-1)!, s) ? `${a.pop()} ${s}` : s);
      return a;
    }, []),
  );
  const listed = text.split(/\s+/).filter((t) => ENUMERATED.test(fold(t))).length > 1;
  const out: Piece[] = [];
  for (const [n, piece] of pieces.entries()) {
    const tokens = piece.split(/\s+/);
    const first = bare(piece.trimStart().split(/\s/)[0]!);
    const asks = piece.endsWith('?') || asking(first) || lexicon.joiners.has(first);
    if (n && pieces[n - 1]!.endsWith('?') && !asks) {
      out.at(-1)!.said += ` ${piece}`;
      continue;
    }
    let start = 0;
    for (let i = 1; i < tokens.length - 1; i++) {
      const [joiner, next] = [bare(tokens[i]!), fold(tokens[i + 1]!)];
      const joins = lexicon.joiners.has(joiner) && (asking(next) || ENUMERATED.test(next));
      if (joins || (listed && asking(next) && ENUMERATED.test(fold(tokens[i]!)))) {
        out.push({ text: tokens.slice(start, i).join(' '), said: '' });
        start = joins && !lexicon.joiners.get(joiner) ? i + 1 : i; // "or" kept: it marks an alternative
      }
    }
    out.push({ text: tokens.slice(start).join(' '), said: '' });
  }
  const content = (p: string) => words(p).some((w) => !isStopWord(w) && !lexicon.filler.has(w));
  // A part that opens with the joiner ("? and does it...") starts after it (its words are one space apart); one that
  // opens with "or" is an alternative.
  const opened = (p: string, said: string, [first, ...rest] = p.split(' ')): Piece =>
    (lexicon.joiners.has(bare(first!)) || ENUMERATED.test(fold(first!)) || /^[-•*]$/.test(first!)) && rest.length
      ? { text: p.slice(first!.length).trimStart(), said, alternative: lexicon.joiners.get(bare(first!)) || undefined }
      : { text: p, said };
  const [merged, ps] = [[] as Piece[], out.map((x) => opened(x.text.trim(), x.said.trim()))];
  // A lead-in ("two questions:", "on storage:") is said of each part after it, not a part of its own.
  const lead = ps.length > 1 && ps[0]!.text.endsWith(':') ? ps.shift()!.text : '';
  for (const p of ps.filter((x) => x.text).map((x) => ({ ...x, said: `${lead} ${x.said}`.trim() }))) {
    const last = merged.at(-1);
    if (last && (!content(p.text) || !content(last.text))) {
      last.text += ` ${p.text}`;
      last.said = `${last.said} ${p.said}`.trim();
    } else merged.push(p);
  }
  return merged.length > PARTS_MAX ? [{ text, said: '' }] : merged;
}

/** How a text leans on what came before: it refers back ("and what plan are they on?"), or has few known words. */
function leans(text: string, groups: readonly TermGroup[], lexicon: Lexicon): Part['leaning'] {
  const q = ` ${wordsOf(text).join(' ')} `;
  const { anywhere, start } = lexicon.followUp;
  if (anywhere.some((w) => q.includes(` ${w} `)) || start.some((w) => q.startsWith(` ${w} `))) return 'refers';
  return groups.filter((g) => !g.unknown).length <= 1 ? 'short' : undefined;
}

/** Analyses a request: its parts, and the earlier turn as context. */
export function analyse(question: string, earlier: readonly Turn[], index: AskIndex, lexicon: Lexicon): QueryPlan {
  const pieces = splitParts(question, lexicon).map((p) => ({ ...p, groups: termGroups(p.text, index, lexicon) }));
  // A part leans on the other parts' words ("sign the quote on their phone || or print it and scan it back") and on
  // what is said after it, once each; more when it leans as a follow-up does ("... || and what plan are they on?").
  const parts: Part[] = pieces.map(({ text, said, groups, alternative }, i) => {
    const own = new Set(groups.flatMap((g) => g.terms));
    const leaning = leans(text, groups, lexicon);
    const weight = CONTEXT_WEIGHT[leaning ? 'leaning' : 'part'];
    const lean = [...pieces.filter((_, j) => j !== i).flatMap((p) => p.groups), ...termGroups(said, index, lexicon)]
      .filter((g) => !g.unknown && !g.terms.some((t) => own.has(t)) && own.add(g.terms[0]!))
      .map((g) => ({ ...g, weight: g.weight * weight }));
    return { text, groups, lean, leaning, alternative };
  });
  const previous = earlier.at(-1);
  if (!previous) return { question, parts, context: [], followUp: false, cited: new Set(), earlier: '' };
  const all = parts.flatMap((p) => p.groups);
  const followUp = leans(question, all, lexicon) !== undefined;
  const own = new Set(all.flatMap((g) => g.terms));
  const weight = followUp ? CONTEXT_WEIGHT.followUp : CONTEXT_WEIGHT.standalone;
  const context = termGroups(previous.question, index, lexicon, weight).filter(
    (g) => !g.unknown && !g.terms.some((t) => own.has(t)),
  );
  const cited = new Set(followUp ? (previous.sources ?? []).map((s) => s.slug) : []);
  return { question, parts, context, followUp, cited, earlier: previous.question };
}
