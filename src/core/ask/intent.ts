/**
 * @module Stage 2, intent: whether the visitor asks for a person or for an answer. A logistic regression over word
 * unigrams and bigrams, trained at build time (../ask-indexer/train-intents.ts) and kept in the index file.
 */
import { words } from '../search/analyze.ts';
import type { Lexicon } from './lexicon.ts';

/** What a message asks for: no person, a demo, sales, support (a customer's problem), a call back, a message. */
export const INTENTS = ['none', 'demo', 'contact', 'support', 'callback', 'message'] as const;
export type Intent = (typeof INTENTS)[number];

/** The trained model: feature -> column, and per intent its weights and bias. */
export type IntentModel = { features: Record<string, number>; weights: number[][]; bias: number[] };

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

/** The intent of a text: the most probable when at least REQUEST_MIN probable ('none' is INTENTS[0]), else 'none'. */
export function classifyIntent(model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): Intent {
  const p = intentScores(model, text, lexicon);
  const best = p.indexOf(Math.max(...p));
  return p[best]! >= REQUEST_MIN ? INTENTS[best]! : 'none';
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
