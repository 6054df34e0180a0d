/** @module Trains the chat's intent classifier (../ask/intent.ts) at build time: softmax regression, deterministic. */
import { INTENTS, type Intent, type IntentModel, intentFeatures } from '../ask/intent.ts';
import type { Lexicon } from '../ask/lexicon.ts';

/** A labelled request. */
export type IntentExample = { text: string; intent: Intent };

/**
 * Trains the model (softmax regression, L2, full-batch gradient descent; deterministic): features seen in at least
 * `minCount` examples; each intent weighed by the inverse of its share to the power `balance`. The model kept drops
 * the features whose weights are all under `minWeight`: about three in four, mostly n-grams of the written questions
 * (the "none" examples), and at 0.02 not one label of the dev sets or the training texts changes.
 */
export function trainIntents(
  examples: readonly IntentExample[],
  lexicon: Pick<Lexicon, 'chatSpeak'>,
  { epochs = 400, rate = 4, l2 = 1e-4, minCount = 2, balance = 0.55, minWeight = 0.02 } = {},
): IntentModel {
  const rows = examples.map((e) => intentFeatures(e.text, lexicon));
  const seen = new Map<string, number>();
  for (const r of rows) for (const f of r) seen.set(f, (seen.get(f) ?? 0) + 1);
  const features: Record<string, number> = {};
  let D = 0;
  for (const f of [...seen.keys()].sort()) if (seen.get(f)! >= minCount) features[f] = D++;
  const cols = rows.map((r) => Int32Array.from(r.map((f) => features[f] ?? -1).filter((c) => c >= 0)));
  const K = INTENTS.length;
  const w = new Float64Array(K * D);
  const g = new Float64Array(K * D);
  const bias = new Float64Array(K);
  const labels = examples.map((e) => INTENTS.indexOf(e.intent));
  const counts = INTENTS.map((_, k) => labels.filter((l) => l === k).length || 1);
  const classWeight = counts.map((c) => (examples.length / (K * c)) ** balance);
  const z = new Float64Array(K);
  for (let epoch = 0; epoch < epochs; epoch++) {
    g.fill(0);
    const gb = new Float64Array(K);
    cols.forEach((c, i) => {
      let top = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) {
        let v = bias[k]!;
        for (const j of c) v += w[k * D + j]!;
        z[k] = v;
        top = Math.max(top, v);
      }
      let sum = 0;
      for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k]! - top);
      const cw = classWeight[labels[i]!]!;
      // Stryker disable next-line EqualityOperator: one step past the end writes into a typed array, which ignores it
      for (let k = 0; k < K; k++) {
        const d = (z[k]! / sum - (labels[i] === k ? 1 : 0)) * cw;
        gb[k]! += d;
        for (const j of c) g[k * D + j]! += d;
      }
    });
    // Plain loops (not forEach): the weight update runs K x D times an epoch, the build's slowest loop.
    // Stryker disable next-line EqualityOperator: one step past the end writes into a typed array, which ignores it
    for (let k = 0; k < K; k++) bias[k]! -= (rate * gb[k]!) / cols.length;
    // Stryker disable next-line EqualityOperator: one step past the end writes into a typed array, which ignores it
    for (let x = 0; x < K * D; x++) w[x]! -= rate * (g[x]! / cols.length + l2 * w[x]!);
  }
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  // Each step moves a feature's weights by a gradient summing to zero over the intents: their mean stays 0, so a
  // feature whose weights are all small moves every probability little.
  const kept: Record<string, number> = {};
  const weights: number[][] = Array.from({ length: K }, () => []);
  for (const [f, j] of Object.entries(features)) {
    const column = Array.from({ length: K }, (_, k) => w[k * D + j]!);
    if (column.every((v) => Math.abs(v) < minWeight)) continue;
    kept[f] = weights[0]!.length;
    for (const [k, v] of column.entries()) weights[k]!.push(round(v));
  }
  return { features: kept, weights, bias: Array.from(bias, round) };
}
