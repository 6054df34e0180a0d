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
  const ws = words(text).slice(0, 200);
  for (const [i, w] of ws.entries()) ws[i] = /^\d+$/.test(w) ? '#' : (lexicon.chatSpeak.get(w) ?? w);
  const out = new Set(ws);
  for (let i = 1; i < ws.length; i++) out.add(`${ws[i - 1]} ${ws[i]}`);
  return [...out];
}

/** Each intent's probability for a text. */
export function intentScores(model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): number[] {
  const cols = intentFeatures(text, lexicon).flatMap((f) => model.features[f] ?? []);
  const z = model.bias.map((b, k) => cols.reduce((a, c) => a + model.weights[k]![c]!, b));
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** A request for a person must be at least this probable; below it the message is read as a question. */
const REQUEST_MIN = 0.5;
/** What the intent reads of the lexicon: chat speak, and the phrases that ask for a person (guard rule 2). */
type Guards = Pick<Lexicon, 'chatSpeak' | 'asksPerson'>;
/** A message the price list prices is a request for sales only when at least this probable (guard rule 1). */
const PRICED_REQUEST_MIN = 0.9;

/** The most probable intent of scores `p` when at least `min` probable ('none' is INTENTS[0]), else 'none'. */
const intentFrom = (p: readonly number[], min = REQUEST_MIN): Intent =>
  Math.max(...p) >= min ? INTENTS[p.indexOf(Math.max(...p))]! : 'none';

/** The intent of a text: the most probable when at least REQUEST_MIN probable, else 'none'. */
export const classifyIntent = (model: IntentModel, text: string, lexicon: Pick<Lexicon, 'chatSpeak'>): Intent =>
  intentFrom(intentScores(model, text, lexicon));

/**
 * The intent the chat acts on: the classifier's, after the guard rules.
 * 1. A message the price list prices ("quote me Professional for 45 office staff", "we're on Growth, 2 more users
 *    cost?") is a question, which the chat works out, unless it asks for sales or support beyond doubt ("I want to
 *    talk to someone in sales about pricing for 8 warehouses"; a demo, a call back or a message stays a request).
 * 2. A message that asks whom to talk to (the lexicon's `asksPerson`: "who do I contact?") asks for one: contact.
 */
export function intentOf(model: IntentModel, text: string, lexicon: Guards, priced: boolean): Intent {
  const p = intentScores(model, text, lexicon);
  const asked = intentFrom(p);
  const intent = priced && (asked === 'contact' || asked === 'support') ? intentFrom(p, PRICED_REQUEST_MIN) : asked;
  const said = intent === 'none' ? ` ${words(text).join(' ')} ` : '';
  return lexicon.asksPerson.some((a) => said.includes(` ${a} `)) ? 'contact' : intent;
}
