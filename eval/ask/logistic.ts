/**
 * @module Logistic regression for `npm run ask:fit`: standardised features, L2, class-balanced, fitted by Newton's
 * method (a few exact steps on the penalised log-likelihood, so the optimum does not depend on a step size).
 */
import { Matrix, solve } from 'ml-matrix';
import type { LogisticModel } from '../../src/core/ask/rerank.ts';

export interface FitOptions {
  /** L2 penalty on the standardised weights (not on the bias). @default 0.01 */
  l2?: number;
  /** Newton steps (it converges in well under ten on this data). @default 25 */
  iterations?: number;
  /**
   * Subtract each feature's mean and fit a bias (off for pairwise differences: they are centred already, and a
   * ranking has no bias). @default true
   */
  center?: boolean;
}

/** A logistic model of `y` (0 or 1) on the rows of `X`, the same for the same data. */
export function fitLogistic(
  X: readonly (readonly number[])[],
  y: readonly number[],
  features: readonly string[],
  { l2 = 0.01, iterations = 25, center = true }: FitOptions = {},
): LogisticModel {
  const d = features.length;
  const n = X.length;
  const mean = features.map((_, j) => (center ? X.reduce((a, x) => a + x[j]!, 0) / n : 0));
  const scale = features.map((_, j) => Math.sqrt(X.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / n) || 1);
  // The standardised rows, with a last column of ones for the bias when there is one.
  const Z = X.map((x) => [...x.map((v, j) => (v - mean[j]!) / scale[j]!), ...(center ? [1] : [])]);
  const m = d + (center ? 1 : 0);
  const positives = y.filter(Boolean).length;
  // Each class weighs half the total, so a rare class counts as much as a common one.
  const weightOf = (label: number) => (label ? n / (2 * Math.max(1, positives)) : n / (2 * Math.max(1, n - positives)));
  let w = new Array<number>(m).fill(0);
  for (let it = 0; it < iterations; it++) {
    const gradient = w.map((v, j) => (j < d ? l2 * v : 0));
    const hessian = w.map((_, a) => w.map((_, b) => (a !== b ? 0 : a < d ? l2 : 1e-9)));
    for (const [k, z] of Z.entries()) {
      const p = 1 / (1 + Math.exp(-z.reduce((a, v, j) => a + v * w[j]!, 0)));
      const c = weightOf(y[k]!) / n;
      for (let a = 0; a < m; a++) {
        gradient[a]! += c * (p - y[k]!) * z[a]!;
        for (let b = 0; b < m; b++) hessian[a]![b]! += c * p * (1 - p) * z[a]! * z[b]!;
      }
    }
    const step = solve(new Matrix(hessian), Matrix.columnVector(gradient)).to1DArray();
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { features, mean, scale, weights: w.slice(0, d), bias: center ? w[d]! : 0 };
}
