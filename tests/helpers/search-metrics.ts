/**
 * @module Relevance metrics over a judged query set: nDCG@10 (gain 2^grade - 1, ideal from every graded page),
 * MRR (first result graded 2 or 3), P@1 (top result graded 2 or 3) and the share of queries with no result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface JudgedQuery {
  q: string;
  kind: 'nav' | 'q' | 'long' | 'short' | 'variant';
  grades: Record<string, number>;
}

export interface Figures {
  queries: number;
  ndcg10: number;
  mrr: number;
  p1: number;
  zeroShare: number;
  perQuery: { q: string; ndcg10: number; top: string[] }[];
}

const HERE = fileURLToPath(new URL('.', import.meta.url));

export function loadJudged(name: 'judged-queries' | 'held-out-queries'): JudgedQuery[] {
  return (JSON.parse(readFileSync(join(HERE, '../data', `${name}.json`), 'utf8')) as { queries: JudgedQuery[] })
    .queries;
}

export function ndcgAt10(ranked: string[], grades: Record<string, number>): number {
  const dcg = (gs: number[]) => gs.slice(0, 10).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal ? dcg(ranked.map((s) => grades[s] ?? 0)) / ideal : 0;
}

/** Figures for one engine: `run` returns the ranked slugs for a query. */
export async function evaluate(set: JudgedQuery[], run: (q: string) => string[] | Promise<string[]>): Promise<Figures> {
  const perQuery: Figures['perQuery'] = [];
  let mrr = 0;
  let p1 = 0;
  let zero = 0;
  for (const { q, grades } of set) {
    const top = (await run(q)).slice(0, 10);
    const first = top.findIndex((s) => (grades[s] ?? 0) >= 2);
    if (first >= 0) mrr += 1 / (first + 1);
    if (first === 0) p1++;
    if (!top.length) zero++;
    perQuery.push({ q, ndcg10: ndcgAt10(top, grades), top });
  }
  const n = set.length;
  return {
    queries: n,
    ndcg10: perQuery.reduce((s, r) => s + r.ndcg10, 0) / n,
    mrr: mrr / n,
    p1: p1 / n,
    zeroShare: zero / n,
    perQuery,
  };
}
