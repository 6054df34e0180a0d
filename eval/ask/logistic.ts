/** @module Logistic regression for `npm run ask:fit`: standardised features, L2, class-balanced, full-batch descent. */
import type { LogisticModel } from '../../src/core/ask/rerank.ts';

export interface FitOptions {
  /** L2 penalty. @default 0.001 */
  l2?: number;
  /** Gradient steps. @default 600 */
  iterations?: number;
  /** Step size. @default 0.5 */
  rate?: number;
  /** Subtract each feature's mean (off for pairwise differences, which are centred already). @default true */
  center?: boolean;
}

/** A logistic model of `y` (0 or 1) on the rows of `X`, deterministic for the same data. */
export function fitLogistic(
  X: readonly (readonly number[])[],
  y: readonly number[],
  features: readonly string[],
  { l2 = 1e-3, iterations = 600, rate = 0.5, center = true }: FitOptions = {},
): LogisticModel {
  const d = features.length;
  const n = X.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  if (center) for (const x of X) for (let j = 0; j < d; j++) mean[j]! += x[j]! / n;
  for (const x of X) for (let j = 0; j < d; j++) scale[j]! += (x[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) || 1;
  const Z = X.map((x) => x.map((v, j) => (v - mean[j]!) / scale[j]!));
  const positives = y.filter(Boolean).length;
  const weightOf = (label: number) => (label ? n / (2 * Math.max(1, positives)) : n / (2 * Math.max(1, n - positives)));
  const weights = new Array<number>(d).fill(0);
  let bias = 0;
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(d).fill(0);
    let gb = 0;
    for (let k = 0; k < n; k++) {
      const z = Z[k]!;
      let s = bias;
      for (let j = 0; j < d; j++) s += z[j]! * weights[j]!;
      const e = (1 / (1 + Math.exp(-s)) - y[k]!) * weightOf(y[k]!);
      gb += e;
      for (let j = 0; j < d; j++) g[j]! += e * z[j]!;
    }
    for (let j = 0; j < d; j++) weights[j]! -= rate * (g[j]! / n + l2 * weights[j]!);
    bias -= (rate * gb) / n;
  }
  return { features, mean, scale, weights, bias };
}
