/**
 * @module askSite, the chat: analyse -> intent -> price -> retrieve -> rerank -> decide -> compose, one module each.
 * Every sentence of an answer is quoted from a section it cites, but the pricing working and compose's fixed sentences.
 */
import type { AskResponse } from '../../contract/ask.ts';
import type { Plan, Pricing } from '../../contract/content.ts';
import { analyse, modelText, type Part, type QueryPlan, type Turn } from './analyse.ts';
import * as compose from './compose.ts';
import { type AskSourceOut, NO_ANSWER, NO_ANSWER_RELATED, type Quote } from './compose.ts';
import { fold } from '../search/analyze.ts';
import { decide, type Reason } from './decide.ts';
import { type Handoff, handoffFor } from './handoff.ts';
import type { AskIndex } from './index.ts';
import { intentOf } from './intent.ts';
import { askedAddOns, comparedPlans, dollars, priceQuestion, says, type Working, workingSentence } from './pricing.ts';
import { countsPriced } from './pricing.ts';
import models from './ranker.json' with { type: 'json' };
import { type Ranked, rerank } from './rerank.ts';
import { retrieve } from './retrieve.ts';

export { type AskSourceOut, NO_ANSWER, NO_ANSWER_RELATED } from './compose.ts';
export type AskTurn = Turn;
export type AskResult = Omit<AskResponse, 'working'> & { working?: Working };
/** The index, the price list, the origin (handoff URLs) and now (ms since the epoch: a handoff fits the hour). */
export type AskDeps = { index: AskIndex; pricing: Pricing; origin: string; now: number };

/** How many sections retrieval hands to the reranker, and the most sources an answer lists. */
export const [CANDIDATES, MAX_SOURCES] = [30, 5];
/** The features the models read (no other is worked out; the build writes the sentence-model rows they read). */
export const MODEL_FEATURES: ReadonlySet<string> = new Set([...models.rerank.features, ...models.decide.features]);
/** A part of the question, ranked and decided. */
type Decided = { part: Part; ranked: Ranked[]; answered: boolean; reason: Reason };

/** Answers a question from the site (see the module comment). */
export function askSite(d: AskDeps, input: { question: string; conversation?: readonly AskTurn[] }): AskResult {
  const question = input.question.trim();
  const plan = analyse(question, input.conversation ?? [], d.index, d.index.lexicon);
  const priced = pricedOf(question, d.pricing, plan.followUp ? plan.earlier : undefined);
  const asksPrice = priced?.working !== undefined && says(question, 'asksPrice'); // not "which plan" alone
  const intent = intentOf(d.index.data.intents, question, d.index.lexicon, asksPrice);
  const person = intent === 'none' ? null : handoffFor(intent, d.now, d.origin);
  const result = (answer: string, sources: AskSourceOut[], reason: Reason, working?: Working): AskResult => ({
    question,
    answered: reason === 'answered',
    answer,
    sources: sources.slice(0, MAX_SOURCES),
    handoff: reason === 'answered' ? person : (person ?? handoffFor('contact', d.now, d.origin)),
    mode: 'extractive',
    reason,
    ...(working ? { working } : {}),
  });
  if (['callback', 'message', 'support'].includes(intent)) return result(person!.label, [], 'handoff');
  const pricedAnswer = priced && pricingAnswer(d, plan, priced, result);
  if (pricedAnswer?.answer) return pricedAnswer; // (empty when the pricing page no longer says the price list)
  const parts = partsOf(d, plan);
  if (!parts.some((p) => p.answered)) return unanswered(d, parts[0]!, person, result);
  return answered(d, plan, parts, result);
}

/** Parts decided; alternatives ("X or do we Y?") are one when the whole's best section is in each one's best three. */
function partsOf(d: AskDeps, plan: QueryPlan): Decided[] {
  const parts = plan.parts.map((part) => decidePart(d, plan, part));
  if (parts.length < 2 || !plan.parts.slice(1).every((p) => p.alternative)) return parts;
  const whole = decidePart(d, plan, { text: plan.question, groups: plan.parts.flatMap((p) => p.groups), lean: [] });
  const near = (p: Decided) => p.ranked.slice(0, 3).some((r) => r.section === whole.ranked[0]?.section);
  return whole.answered && parts.every(near) ? [whole] : parts;
}

/** Retrieve, rerank and decide one part (its own words, and the earlier turn's as context). */
function decidePart(d: AskDeps, plan: QueryPlan, part: Part): Decided {
  const context = [...part.lean, ...plan.context];
  const candidates = retrieve(d.index, [...part.groups, ...context], CANDIDATES);
  const input = { text: modelText(plan, part), groups: part.groups, cited: plan.cited, need: MODEL_FEATURES };
  const ranked = rerank(d.index, candidates, input, models.rerank);
  return { part, ranked, ...decide(d.index, ranked, part.groups, part.text, models.decide, plan.followUp) };
}

type Result = (answer: string, sources: AskSourceOut[], reason: Reason, working?: Working) => AskResult;
/** No part answered: the no-answer sentence (or the handoff's label), and related sections that share the topic. */
function unanswered(d: AskDeps, part: Decided, person: Handoff | null, result: Result): AskResult {
  if (person) return result(person.label, [], 'handoff');
  const sources = compose.relatedOf([part.ranked.slice(0, 3)]).map((s) => compose.sourceOf(d.index, s, 'related'));
  const list = sources.map((s) => `- [${s.heading ? `${s.title}: ${s.heading}` : s.title}](${s.url})`).join('\n');
  return result(sources.length ? `${NO_ANSWER} ${NO_ANSWER_RELATED}\n\n${list}` : NO_ANSWER, sources, part.reason);
}

/** Quotes from each answered part's best section (not one the price list `said`); a part not answered is named. */
function answered(d: AskDeps, plan: QueryPlan, parts: Decided[], result: Result, said: readonly Quote[] = []) {
  const named = d.pricing.plans.map((p) => p.name.toLowerCase()).filter((n) => plan.question.toLowerCase().includes(n));
  const [paragraphs, sources, used] = [[] as string[], [] as AskSourceOut[], new Set<number>()];
  for (const p of parts) {
    if (!p.answered) paragraphs.push(compose.partUnanswered(p.part.text));
    const top = p.ranked[0]?.section ?? -1;
    if (!p.answered || used.has(top)) continue;
    used.add(top);
    // A part that leans on the others ("what do we pay for each one?") quotes by their words too.
    const groups = [...p.part.groups, ...(p.part.leaning ? p.part.lean : [])];
    const quotes = compose.quotesFrom(d.index, top, { ...p.part, groups }, named);
    if (quotes.some((q) => said.some((s) => s.section === q.section && s.start === q.start))) continue;
    paragraphs.push(compose.joinQuotes(d.index, quotes));
    sources.push(compose.sourceOf(d.index, top, 'answer', quotes[0]));
    const unknown = compose.unknownWords(p.part.text, p.part.groups);
    if (unknown.length) paragraphs.push(compose.partUnanswered(unknown.join(' ')));
  }
  const runnersUp = parts.map((p) => p.ranked.slice(0, 4)); // (those of a part not answered too)
  sources.push(...compose.relatedOf(runnersUp, used).map((s) => compose.sourceOf(d.index, s, 'related')));
  return result(paragraphs.join('\n\n'), sources, 'answered');
}

/** What a pricing answer gives: a price worked out, two plans compared, add-ons' prices (their rows), onboarding's. */
type Priced = { working?: Working; compared?: readonly Plan[]; addOns: Pricing['addOns']; onboarding?: boolean };
/** What the price list prices in a text (`earlier`: the turn before): a working, else compared plans or add-ons. */
function pricedOf(text: string, pricing: Pricing, earlier?: string): Priced | undefined {
  const working = priceQuestion(text, pricing, earlier);
  const compared = working ? undefined : comparedPlans(text, pricing);
  const addOns = working || compared ? [] : askedAddOns(text, pricing);
  const onboarding = says(text, 'asksOnboarding');
  return working || compared || addOns.length || onboarding ? { working, compared, addOns, onboarding } : undefined;
}

/** A price worked out from the price list, plans compared, add-ons or onboarding asked: the working, each cited. */
function pricingAnswer(d: AskDeps, plan: QueryPlan, priced: Priced, result: Result): AskResult {
  const { cited, said } = pricingQuotes(d.index, d.pricing, priced, says(plan.question, 'tax'));
  const seen = new Map<number, Quote>();
  for (const q of cited) if (!seen.has(q.section)) seen.set(q.section, q);
  const sources = [...seen].map(([s, q]) => compose.sourceOf(d.index, s, 'answer', q));
  // The parts the price list neither prices nor counts ("... and can the customer film it themselves?"; not "we're 8 in
  // the office"), answered as any part when their sections fit beside the price list's; not one asking the price of an
  // add-on the others name ("cost each?").
  const item = priced.addOns.length > 0 || priced.onboarding;
  const counted = (p: Part) => pricedOf(p.text, d.pricing) || countsPriced(p.text, d.pricing);
  const own = (p: Part) => !counted(p) && !(item && p.leaning && says(p.text, 'asksPrice'));
  const rest = plan.parts.length > 1 ? plan.parts.filter(own) : [];
  const decided = rest.map((p) => decidePart(d, plan, p));
  const also = decided.length ? answered(d, plan, decided, result, said) : undefined;
  const more = (also?.sources ?? []).filter((s) => !sources.some((t) => t.slug === s.slug && t.heading === s.heading));
  const fits = sources.length + more.filter((s) => s.role === 'answer').length <= MAX_SOURCES;
  const { working } = priced;
  const text = [working && workingSentence(working), compose.joinQuotes(d.index, said), fits && also?.answer];
  return result(text.filter(Boolean).join('\n\n'), [...sources, ...(fits ? more : [])], 'answered', working);
}

/**
 * The pricing page's sentences and rows a pricing answer cites and those it quotes: the rows of the plans compared, of
 * the add-ons asked, of each price and of what cannot be priced; the plan rule; annual billing; onboarding; GST.
 */
function pricingQuotes(index: AskIndex, pricing: Pricing, priced: Priced, tax: boolean) {
  const { working, compared = [], addOns, onboarding } = priced;
  const all = index.sectionsOf('pricing').flatMap((s) => compose.sentencesOf(index, s));
  const find = (needles: string[], where = all) =>
    where.find((q) => needles.every((n) => fold(index.text(q.section).slice(q.start, q.end)).includes(fold(n))));
  const [cited, said]: [Quote[], Quote[]] = [[], []];
  const add = (q: Quote | undefined, say?: boolean) => {
    if (q) cited.push(q);
    if (q && (say || !q.row)) said.push(q);
  };
  const comparing = working?.comparedWith !== undefined;
  if (working?.chosenFor) add(find(['biggest plan wins']));
  for (const plan of compared) add(find([plan.name, dollars(plan.monthly)]), true);
  for (const a of addOns) add(find([a.name, dollars(a.price)]), true);
  for (const line of working?.lines ?? [])
    add(find([line.item.replace(/ plan$/, ''), dollars(line.unitPrice)]) ?? find([dollars(line.unitPrice)]), comparing);
  for (const u of working?.unpriced ?? []) if (u.unitPrice) add(find([u.item, dollars(u.unitPrice)]), true);
  // Onboarding's fee when asked, as the section on it says it (not the add-ons table's row).
  const onboardingAt = onboarding ? all.filter((q) => says(index.heading(q.section) ?? '', 'onboarding')) : [];
  add(find([dollars(pricing.onboarding.from)], onboardingAt));
  if (working?.annual !== undefined && working.yearBilled === 'annually') add(find([pricing.annualDiscount]));
  // The GST sentence when tax is asked, or beside price rows whose table header does not say it (a working says it).
  const rows = working ? [] : said.filter((q) => q.row);
  if (tax || (rows.length && !compose.joinQuotes(index, rows).includes('GST')))
    add(find(['exclude GST']) ?? find(['GST']));
  return { cited, said };
}
