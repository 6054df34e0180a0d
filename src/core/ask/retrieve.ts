/**
 * @module Stage 4, retrieve: BM25F over the section index, one pass over each term's postings. A group of alternative
 * terms scores a section by its best term (an alternative at ALTERNATIVE_WEIGHT); groups add.
 */
import type { TermGroup } from './analyse.ts';
import type { AskIndex } from './index.ts';

/** A section found, with its BM25F score. */
export type Candidate = { section: number; bm25: number };

/** What an alternative term (a lexicon word for the typed one) counts for. */
const ALTERNATIVE_WEIGHT = 0.8;

/** Scratch arrays kept between questions (at 10,000 pages one allocation per question would be megabytes). */
let [total, group, inGroup] = [new Float32Array(0), new Float32Array(0), new Uint8Array(0)];

/** The `k` best sections for the groups, best first (equal scores: the earlier section). */
export function retrieve(index: AskIndex, groups: readonly TermGroup[], k: number): Candidate[] {
  const n = index.sectionCount;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: growing them more often changes no score
  if (total.length < n) [total, group, inGroup] = [new Float32Array(n), new Float32Array(n), new Uint8Array(n)];
  const [touched, mine]: [number[], number[]] = [[], []];
  for (const g of groups) {
    g.terms.forEach((term, i) => {
      const id = index.terms.termId(term);
      // Stryker disable next-line ConditionalExpression: a term on no section has no postings; this keeps the type
      if (id === undefined) return;
      const { docs, scores } = index.terms.postings(id);
      const w = g.weight * (i === 0 ? 1 : ALTERNATIVE_WEIGHT);
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (!inGroup[d]) mine.push(d);
        inGroup[d] = 1;
        group[d] = Math.max(group[d]!, w * scores[j]!);
      }
    });
    for (const d of mine) {
      if (total[d] === 0) touched.push(d);
      total[d]! += group[d]!;
      group[d] = inGroup[d] = 0;
    }
    mine.length = 0;
  }
  // The k best, kept sorted as they are met (no sort of every section touched).
  const best: Candidate[] = [];
  const better = (a: Candidate, b: Candidate) => a.bm25 > b.bm25 || (a.bm25 === b.bm25 && a.section < b.section);
  for (const section of touched) {
    const c = { section, bm25: total[section]! };
    total[section] = 0;
    if (best.length >= k && (k < 1 || !better(c, best[k - 1]!))) continue;
    let at = best.length;
    while (at > 0 && better(c, best[at - 1]!)) at--;
    best.splice(at, 0, c);
    if (best.length > k) best.pop();
  }
  return best;
}
