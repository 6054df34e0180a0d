/**
 * @module Stage 6, decide: whether the best section answers, from one calibrated score (`npm run ask:fit`) and one
 * threshold on its risk-coverage curve. Nearness to a known gap (a question no page answers, written or reviewed) is a
 * feature of the score; a question declined that is nearer one than any the best three sections answer is a known gap.
 */
import type { TermGroup } from './analyse.ts';
import { words } from '../search/analyze.ts';
import { sentencesOf, termsOf } from './compose.ts';
import { nearestRow, textVector } from './embedding.ts';
import type { AskIndex } from './index.ts';
import { FEATURES, GAPS, holdsTerm, type LogisticModel, nearestAsked, predictOf, type Ranked } from './rerank.ts';

/** Why a question was answered or not. */
export type Reason = 'answered' | 'no-match' | 'known-gap' | 'handoff';
const BEST = ['margin', 'coverage', 'topic', 'nearest', 'semantic', 'semanticQuestion'] as const;
const WORDS = ['unknown', 'known', 'coverageAll', 'missing', 'numberMissing', 'nearestGap', 'semanticGap'] as const;
/** The question-level features a decision model may use (its best section's, then its words'). */
export const DECISION_FEATURES = [...BEST, ...WORDS] as const;
/** The decision model (over the features it names) and its threshold. */
export type DecisionModel = LogisticModel & { threshold: number };

/** How near a known gap's words (reviewed or written) a question's must be, at least, to decline it as a known gap. */
const GAP_MIN = 0.5;
const at = (r: Ranked | undefined, f: (typeof FEATURES)[number]) => (r ? r.features[FEATURES.indexOf(f)]! : 0);
/** How near the question's words (known or not) are to a known gap's. */
const nearestGap = (index: AskIndex, groups: readonly TermGroup[]) =>
  nearestAsked(index, GAPS, new Set(groups.map((g) => g.terms[0]!)));

/** Whether the question asks for a number that the best section's sentences holding its words do not state. */
function numberMissing(index: AskIndex, first: Ranked | undefined, text: string, groups: readonly TermGroup[]) {
  const { asksNumber, numberWords } = index.lexicon;
  const asked = ` ${words(text).join(' ')} `;
  if (!first || !asksNumber.some((p) => asked.includes(` ${p} `))) return 0;
  const terms = groups.flatMap((g) => g.terms);
  const states = (plain: string) => words(plain).some((w) => /\d/.test(w) || numberWords.has(w));
  const holds = (plain: string, held = termsOf(plain)) => terms.some((t) => held.has(t));
  return sentencesOf(index, first.section).some((q) => holds(q.plain) && states(q.plain)) ? 0 : 1;
}

/** The decision features of a part: its best two sections and its words (`gap`: how near they are to a known gap). */
export function decisionFeatures(
  index: AskIndex,
  ranked: readonly Ranked[],
  groups: readonly TermGroup[],
  text: string,
  gap = nearestGap(index, groups),
): number[] {
  const [first, second] = ranked;
  const idf = (g: TermGroup) => g.weight * (g.unknown ? index.idf('') : Math.max(...g.terms.map((t) => index.idf(t))));
  const total = groups.reduce((a, g) => a + idf(g), 0) || 1;
  const unknown = groups.reduce((a, g) => a + (g.unknown ? idf(g) : 0), 0) / total;
  const lacks = (g: TermGroup) => !g.terms.some((t) => holdsTerm(index, first!.section, t));
  return [
    // How far the best stands above the next (none when nothing else was found: no comparison to make).
    first && second ? first.score - second.score : 0,
    at(first, 'coverage'),
    at(first, 'topic'),
    at(first, 'nearest'),
    at(first, 'semantic'),
    at(first, 'semanticQuestion'),
    unknown,
    groups.filter((g) => !g.unknown).length,
    at(first, 'coverageAll'),
    // The heaviest word of the question its best section does not hold, as a share of the question's weight.
    first ? Math.max(0, ...groups.filter(lacks).map((g) => idf(g) / total)) : 1,
    numberMissing(index, first, text, groups),
    gap,
    index.embedding ? nearestRow(textVector(index.embedding, text), index.embedding.gapRows) : 0,
  ];
}

/** Whether a part is answered by its best section (the score alone), and why not: `known-gap` when its words are nearer
 * a known gap's than any question the best three sections answer, else `no-match`. */
export function decide(
  index: AskIndex,
  ranked: readonly Ranked[],
  groups: readonly TermGroup[],
  text: string,
  model: DecisionModel,
  followUp = false,
): { answered: boolean; reason: Reason; confidence: number } {
  const [gap, own] = [nearestGap(index, groups), new Set(groups.filter((g) => !g.unknown).map((g) => g.terms[0]!))];
  // No word of it on any page: it asks what no page says (a follow-up's subject is the turn before's: "and Growth?").
  const scored = ranked.length > 0 && (followUp || own.size > 0);
  const x = scored ? decisionFeatures(index, ranked, groups, text, gap) : [];
  const confidence = scored ? predictOf(model, DECISION_FEATURES, x) : 0;
  if (scored && confidence >= model.threshold) return { answered: true, reason: 'answered', confidence };
  const asked = Math.max(0, ...ranked.slice(0, 3).map((r) => nearestAsked(index, r.section, own)));
  return { answered: false, reason: gap >= GAP_MIN && gap > asked ? 'known-gap' : 'no-match', confidence };
}
