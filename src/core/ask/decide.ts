/**
 * @module Stage 6, decide: whether the best section answers, from one calibrated score (fitted by `npm run ask:fit`)
 * and one threshold on its risk-coverage curve; a question nearest a known gap is declined as such.
 */
import type { TermGroup } from './analyse.ts';
import { words } from '../search/analyze.ts';
import { sentencesOf, termsOf } from './compose.ts';
import type { AskIndex } from './index.ts';
import { FEATURES, holdsTerm, type LogisticModel, overlap, predictOf, type Ranked } from './rerank.ts';

/** Why a question was answered or not. */
export type Reason = 'answered' | 'no-match' | 'known-gap' | 'handoff';

const BEST = ['margin', 'coverage', 'topic', 'nearest', 'semantic', 'semanticQuestion'] as const;
const WORDS = ['unknown', 'known', 'coverageAll', 'missing', 'numberMissing'] as const;
/** The question-level features a decision model may use (its best section's, then its words'). */
export const DECISION_FEATURES = [...BEST, ...WORDS] as const;
/** The decision model (over the features it names) and its threshold. */
export type DecisionModel = LogisticModel & { threshold: number };

/** A section a reviewed gap must be nearer than, at least, to decline a question as a known gap. */
const GAP_MIN = 0.5;
const at = (r: Ranked | undefined, f: (typeof FEATURES)[number]) => (r ? r.features[FEATURES.indexOf(f)]! : 0);

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

/** The decision features of a part: its best two sections and its words. */
export function decisionFeatures(
  index: AskIndex,
  ranked: readonly Ranked[],
  groups: readonly TermGroup[],
  text: string,
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
  ];
}

/** Whether a part is answered by its best section, and why not. */
export function decide(
  index: AskIndex,
  ranked: readonly Ranked[],
  groups: readonly TermGroup[],
  text: string,
  model: DecisionModel,
  followUp = false,
): { answered: boolean; reason: Reason; confidence: number } {
  const terms = new Set(groups.map((g) => g.terms[0]!));
  const gap = Math.max(0, ...index.data.gaps.map((g) => overlap(index, terms, new Set(g.split(' ')))));
  if (gap >= GAP_MIN && gap > at(ranked[0], 'nearest')) return { answered: false, reason: 'known-gap', confidence: 0 };
  // A question none of whose words is on any page asks what no page says (a follow-up takes its subject from the
  // turn before: "and for Growth?").
  if (!followUp && !groups.some((g) => !g.unknown)) return { answered: false, reason: 'no-match', confidence: 0 };
  const x = ranked.length ? decisionFeatures(index, ranked, groups, text) : [];
  const confidence = ranked.length ? predictOf(model, DECISION_FEATURES, x) : 0;
  const threshold = model.threshold;
  return { answered: confidence >= threshold, reason: confidence >= threshold ? 'answered' : 'no-match', confidence };
}
