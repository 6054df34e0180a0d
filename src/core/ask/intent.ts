/**
 * @module Stage 2, intent: whether the visitor asks for a person (a demo, contact, support, a call back, to leave a
 * message) or for an answer. A multinomial logistic regression over word unigrams and bigrams, trained at build time on
 * labelled requests (src/build/ask-intents.json) with the written fact questions as more `none`s, and kept in the
 * index file.
 */
import { words } from '../search/analyze.ts';
import type { Lexicon } from './lexicon.ts';

/** What a message asks for: no person, or a demo, contact (sales), support (an existing customer's problem), a call
 * back, or to leave a message. */
export const INTENTS = ['none', 'demo', 'contact', 'support', 'callback', 'message'] as const;
export type Intent = (typeof INTENTS)[number];

/** The trained model: feature -> column, and per intent its weights and bias. */
export interface IntentModel {
  features: Record<string, number>;
  weights: number[][];
  bias: number[];
}

/** A labelled request. */
export interface IntentExample {
  text: string;
  intent: Intent;
}

/** A text's features: its words (chat speak read as meant; numbers as one token) and their bigrams. */
export function intentFeatures(text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): string[] {
  const ws = words(text)
    .slice(0, 200)
    .map((w) => (/^\d+$/.test(w) ? '#' : (lexicon.chatSpeak.get(w) ?? w)));
  const out = new Set(ws);
  for (let i = 1; i < ws.length; i++) out.add(`${ws[i - 1]} ${ws[i]}`);
  return [...out];
}

/** Each intent's probability for a text. */
export function intentScores(model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): number[] {
  const cols = intentFeatures(text, lexicon)
    .map((f) => model.features[f])
    .filter((c) => c !== undefined);
  const z = model.bias.map((b, k) => cols.reduce((a, c) => a + model.weights[k]![c]!, b));
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** A request for a person must be at least this probable; below it the message is read as a question. */
const REQUEST_MIN = 0.5;

/** The intent of a text: the most probable, when a request for a person is at least REQUEST_MIN probable. */
export function classifyIntent(model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): Intent {
  const p = intentScores(model, text, lexicon);
  const best = p.indexOf(Math.max(...p));
  return best > 0 && p[best]! >= REQUEST_MIN ? INTENTS[best]! : 'none';
}

/**
 * The intent the chat acts on: the classifier's, after the guard rules.
 * 1. A message the price list prices ("quote me Professional for 45 office staff") is a question: it asks for a
 *    sum, which the chat works out, not for sales (a demo, a call back or a message stays a request).
 */
export function intentOf(model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>, priced: boolean) {
  const intent = classifyIntent(model, text, lexicon);
  return priced && intent === 'contact' ? 'none' : intent;
}

/**
 * Trains the model (softmax regression, L2, full-batch gradient descent; deterministic): features seen in at least
 * `minCount` examples; each intent weighed by the inverse of its share to the power `balance`.
 */
export function trainIntents(
  examples: readonly IntentExample[],
  lexicon: Pick<Lexicon, 'chatSpeak'>,
  { epochs = 200, rate = 1, l2 = 1e-4, minCount = 2, balance = 0.7 } = {},
): IntentModel {
  const rows = examples.map((e) => intentFeatures(e.text, lexicon));
  const seen = new Map<string, number>();
  for (const r of rows) for (const f of r) seen.set(f, (seen.get(f) ?? 0) + 1);
  const features: Record<string, number> = {};
  let D = 0;
  for (const [f, n] of [...seen].sort(([a], [b]) => (a < b ? -1 : 1))) if (n >= minCount) features[f] = D++;
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
      for (let k = 0; k < K; k++) {
        const d = (z[k]! / sum - (labels[i] === k ? 1 : 0)) * cw;
        gb[k]! += d;
        for (const j of c) g[k * D + j]! += d;
      }
    });
    for (let k = 0; k < K; k++) bias[k]! -= (rate * gb[k]!) / cols.length;
    for (let x = 0; x < K * D; x++) w[x]! -= rate * (g[x]! / cols.length + l2 * w[x]!);
  }
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  const weights = Array.from({ length: K }, (_, k) => Array.from(w.subarray(k * D, (k + 1) * D), round));
  return { features, weights, bias: Array.from(bias, round) };
}
