/** @module The chat's price stage: a question read with pricing-words.ts, priced from content/data/pricing.json. */
import type { z } from 'zod';
import type { WorkingSchema } from '../../contract/ask.ts';
import type { Plan, Pricing } from '../../contract/content.ts';
import { type Need, needsModule, planThatFits } from '../plans.ts';
import { fold, own } from '../search/analyze.ts';
import * as words from './pricing-words.ts';
/** The most of one thing the chat prices (users, devices, bundles): more is said to be unpriced. */
export const MOST_PRICED = 10_000;
/** The working of a price (the contract's), with how a year is paid, the plan compared with, the modules needed. */
type Said = { yearBilled?: 'annually' | 'monthly'; comparedWith?: string; modules?: string[] };
export type Working = z.infer<typeof WorkingSchema> & Said;
export type WorkingLine = Working['lines'][number];
/** A quantity the question counts that the price list cannot price: left out of the total. */
export type Unpriced = NonNullable<Working['unpriced']>[number];
/** Why a quantity is not priced. */
export type UnpricedReason = Unpriced['reason'];
type Figure = keyof NonNullable<Working['chosenFor']>;
/** What a question counts of an add-on: `n` in all, of which `extra` are beyond the plan's own by its words. */
type Counted = { n: number; extra: number; asked: string };
const W = words.PRICING_WORDS;
const LIMITS = { officeUsers: 'officeUsers', movesPerYear: 'maxMovesPerYear', warehouses: 'maxWarehouses' } as const;
const AUD = { currency: 'AUD', gst: 'excluded' } as const;
const fits = (f: Figure, n: number) => (p: Plan) => (p[LIMITS[f]] ?? n) >= n;
const negated = (w: string) => `{negations} *2 ${w}`;
/** Where a clause starts: punctuation (not inside a number: "10,000"), or a new subject ("and we've got 18"). */
const CLAUSE = new RegExp(`[,.;:?!](?!\\d)|${words.anyOf(W.phrases.subjects!.words)}`);
/** What is wrong with a quantity the price list would price, if anything (`most`: the most priced). */
export function quantityProblem(n: number, most = Number.POSITIVE_INFINITY): UnpricedReason | undefined {
  if (Number.isNaN(n)) return 'not-a-number';
  if (n < 0) return 'negative';
  if (!Number.isSafeInteger(n)) return Number.isInteger(n) || !Number.isFinite(n) ? 'too-large' : 'not-whole';
  return n > most ? 'over-limit' : undefined;
}
const askedOf = (m: words.Match) =>
  m.text.replace(/\s+|[\d,]{13,}/g, (d) => (d.trim() ? `${d.slice(0, 6)}…${d.slice(-3)}` : ' '));
const nOf = (m: words.Match) => m.counts[0]?.n ?? 0;
const without = (q: string, m: words.Match, fill: string) => q.slice(0, m.at) + fill + q.slice(m.at + m.text.length);
/** The plans a question names, in order: a name followed by a word that keeps it a plan, or by no letter. */
function plansOf(q: string, pricing: Pricing): Plan[] {
  const names = (p: Plan) => [p.name, p.id, ...(W.plans[p.id]?.words ?? [])].map((n) => [words.nameOf(n), p] as const);
  const ids = new Map(pricing.plans.flatMap(names));
  const follower = `(?=\\s*(?:$|[^\\sa-z_]|${words.anyOf(W.phrases.planFollowers!.words)}))`;
  const named = words.matches(q, `(${words.anyOf([...ids.keys()])})${follower}`);
  return [...new Set(named.map((m) => ids.get(words.nameOf(m.text))!))];
}
function addOnsOf(q: string, pricing: Pricing): { counts: Map<string, Counted>; unpriced: Unpriced[] } {
  const [counts, unpriced] = [new Map<string, Counted>(), [] as Unpriced[]];
  // People counted by what they use ("a crew of 18 on phones", "7 of us in the office") are counted first, once.
  const people = pricing.addOns.map((a) => words.find(q, '{people}', words.listsOf(a)));
  const t = people.flat().reduce((s, m) => without(s, m, '\0'.repeat(m.text.length)), q);
  pricing.addOns.forEach((addOn, k) => {
    const lists = words.listsOf(addOn);
    const item = { item: addOn.name, unitPrice: addOn.price, unit: addOn.unit };
    const found = [...people[k]!, ...words.find(t, '{counts}', lists)];
    // "45 people need an office login": a number is the count; "a"/"an"/"one" only counts when no number does.
    const numbered = found.filter((m) => !W.phrases.articles!.words.includes(m.counts[0]!.w));
    let total: Counted | undefined;
    let from = 0;
    for (const m of (numbered.length ? numbered : found).sort((a, b) => a.at - b.at)) {
      // Extra when its clause says so ("plus 2 more logins"), since the count before it; else a total, of which the
      // plan's own are free ("2 extra devices and a crew of 5": the crew is a total).
      const [n, asked] = [nOf(m), askedOf(m)];
      const extra = words.says((q.slice(from, m.at) + m.text).split(CLAUSE).at(-1)!, 'extra') ? n : 0;
      from = m.at + m.text.length;
      total = total
        ? { n: total.n + n, extra: total.extra + extra, asked: `${total.asked} and ${asked}` }
        : { n, extra, asked };
    }
    const named = W.addOns[addOn.id]?.oneWhenNamed && words.find(t, '{words}', lists).length;
    if (!total && named) total = { n: 1, extra: 1, asked: '' };
    // A count of what bundles hold ("2,500 texts") is the bundles it takes.
    const u = total || !addOn.bundleSize ? undefined : words.find(t, '{unitCounts}', lists)[0];
    const [problem, bundles] = [u && quantityProblem(nOf(u)), u ? Math.ceil(nOf(u) / addOn.bundleSize!) : 0];
    if (u && problem) unpriced.push({ ...item, asked: askedOf(u), reason: problem });
    else if (u) total = { n: bundles, extra: bundles, asked: askedOf(u) };
    const wrong = total && quantityProblem(total.n, MOST_PRICED);
    if (total && wrong) unpriced.push({ ...item, asked: total.asked, reason: wrong });
    else if (total && total.n > 0) counts.set(addOn.id, total);
  });
  return { counts, unpriced };
}
function figureIn(q: string, pricing: Pricing, f: Figure): words.Match | undefined {
  const adds = pricing.addOns.find((a) => a.adds === f);
  return words.find(q, W.figures[f].phrases, words.listsOf(adds, W.figures[f].words))[0];
}
/**
 * The add-ons a question asks the price of, naming no plan ("how much is the SMS pack?", "an extra office user?"): an
 * add-on with qualifiers is named with one or as extra ("how much do our staff get" names none).
 */
export function askedAddOns(question: string, pricing: Pricing): Pricing['addOns'] {
  const q = fold(question);
  if (plansOf(q, pricing).length || !words.says(q, 'asksAddOnPrice')) return [];
  const named = (l: ReturnType<typeof words.listsOf>) =>
    words.find(q, l.qualifiers!.length ? ['{qualifiers} {words}', '{more} {words}'] : '{words}', l).length > 0;
  return pricing.addOns.filter((a) => named(words.listsOf(a)));
}
/** The two plans a question compares ("Growth vs Professional", "how much more is Professional than Growth?"). */
export function comparedPlans(question: string, pricing: Pricing): [Plan, Plan] | undefined {
  const named = plansOf(fold(question), pricing);
  return named.length === 2 && words.says(fold(question), 'compare') ? [named[0]!, named[1]!] : undefined;
}
const planLine = (p: Plan, quantity: 1 | -1): WorkingLine => {
  return { item: `${p.name} plan`, quantity, unitPrice: p.monthly, amount: quantity * p.monthly, unit: 'per month' };
};
/** Whether a text counts what the price list prices: an add-on ("2 more users"), a figure ("8 in the office"). */
export const countsPriced = (text: string, pricing: Pricing, q = fold(text)) =>
  addOnsOf(q, pricing).counts.size > 0 || Object.keys(W.figures).some((f) => figureIn(q, pricing, f as Figure));
/** The working of a pricing question, if it is one; `previous`: the question it follows up (its add-ons carry over). */
export function priceQuestion(question: string, pricing: Pricing, previous?: string): Working | undefined {
  const [q, prev] = [fold(question), fold(previous ?? '')];
  const named = plansOf(q, pricing);
  const prevPlan = words.says(prev, 'asksPrice') ? plansOf(prev, pricing)[0] : undefined;
  let asked = addOnsOf(q, pricing);
  const some = () => asked.counts.size > 0 || asked.unpriced.length > 0;
  let plan = named[0] ?? (some() ? prevPlan : undefined);
  if (named[0] && !some() && prevPlan) asked = addOnsOf(prev, pricing);
  const [unpriced, asksPrice, chosenFor] = [[] as Unpriced[], words.says(q, 'asksPrice'), {} as Record<Figure, number>];
  const modules: string[] = [];
  if (!plan && (asksPrice || words.says(q, 'whichPlan'))) {
    // The figures it gives pick the plan by the pricing page's rule: each figure's smallest plan; the biggest wins.
    for (const f of Object.keys(W.figures) as Figure[]) {
      const m = figureIn(q, pricing, f);
      const n = m ? nOf(m) * words.wordsOf(m.text).reduce((x, w) => own(W.perYear.words, w) ?? x, 1) : 0;
      const problem = quantityProblem(n);
      if (m && problem) unpriced.push({ item: W.figures[f].name, asked: askedOf(m), reason: problem });
      else if (m) chosenFor[f] = n;
    }
    // A module named beside a figure or "which plan" ("and Xero sync"; not "no storage") needs a plan that has it.
    const mentioned = (ws: string[]) => words.find(q, ws).length > words.find(q, ws.map(negated)).length;
    const fitted = Object.keys(chosenFor).length > 0 || words.says(q, 'whichPlan');
    for (const [m, ws] of Object.entries(W.modules.words)) if (fitted && mentioned(ws)) modules.push(m);
    const needs: Need[] = modules.map((m) => needsModule(pricing.plans, m));
    for (const [f, n] of Object.entries(chosenFor)) needs.push(fits(f as Figure, n));
    plan = pricing.plans[planThatFits(pricing.plans, needs).at];
  }
  unpriced.push(...asked.unpriced);
  if (!plan) return undefined;
  // "1,400 moves a year" sizes the plan; it does not ask for a year's price.
  const moves = figureIn(q, pricing, 'movesPerYear');
  const billing = moves ? without(q, moves, ' ') : q;
  const annual = words.says(billing, 'annual') || (prevPlan && !asksPrice && words.says(prev, 'annual'));
  const sized = Object.keys(chosenFor).length > 0; // "we do 400 moves, which plan?": worked out, no price word
  if (!asksPrice && !some() && !annual && !sized && !(prevPlan && named.length)) return undefined;
  const compared = comparedPlans(question, pricing);
  // Two plans compared: the difference in their prices (none when one is quoted), whatever add-ons are asked.
  if (compared?.some((p) => p.priceFrom || p.quoted)) return undefined;
  if (compared) {
    const [d, c] = [...compared].sort((a, b) => b.monthly - a.monthly) as [Plan, Plan];
    const lines = [planLine(d, 1), planLine(c, -1)];
    return { plan: d.name, lines, monthly: d.monthly - c.monthly, comparedWith: c.name, from: false, ...AUD };
  }
  // Office users given as a figure beside a named plan ("we're 8 in the office, what's Starter?"): the users in all.
  for (const a of pricing.addOns.filter((a) => a.adds && a.adds in W.figures && !asked.counts.has(a.id))) {
    const m = figureIn(q, pricing, a.adds as Figure);
    if (m && !quantityProblem(nOf(m), MOST_PRICED)) asked.counts.set(a.id, { n: nOf(m), extra: 0, asked: askedOf(m) });
  }
  const lines = [planLine(plan, 1)];
  for (const addOn of pricing.addOns) {
    const count = asked.counts.get(addOn.id);
    // "Starter with 7 office users": beyond the plan's own; "2 extra devices": all; both: the same seats, the larger.
    // "per user per month": each line is one user's price.
    const [all, extra] = [count?.n ?? 0, count?.extra ?? 0];
    const n = Math.max(extra, all - extra - (addOn.adds ? (plan[addOn.adds] ?? 0) : 0));
    const unit = addOn.unit.replace(/^per \S+ (?=per )/, '');
    if (n > 0) lines.push({ item: addOn.name, quantity: n, unitPrice: addOn.price, amount: n * addOn.price, unit });
  }
  const monthly = lines.reduce((sum, l) => sum + l.amount, 0);
  const working: Working = { plan: plan.name, lines, monthly, from: plan.priceFrom || plan.quoted, ...AUD };
  if (sized) working.chosenFor = chosenFor;
  if (modules.length) working.modules = modules;
  if (unpriced.length) working.unpriced = unpriced;
  if (!annual) return working;
  const monthByMonth = words.says(q, 'monthByMonth') && !words.says(q, 'paidAnnually');
  working.yearBilled = monthByMonth ? 'monthly' : 'annually';
  working.annual = monthly * (monthByMonth ? 12 : pricing.annualBilling.monthsCharged);
  return working;
}
/** Whether a text says a phrase of the price stage's: asks a price, asks about tax, names or prices onboarding. */
export const says = (t: string, p: 'tax' | 'onboarding' | 'asksOnboarding' | 'asksPrice') => words.says(fold(t), p);
/** $1,890 */
export const dollars = (n: number) => `$${n.toLocaleString('en-AU')}`;
// An item of the price list as a sentence names it: "extra office users", "SMS bundles (1,000 messages)".
function itemName(item: string, n: number): string {
  const name = /^[A-Z][a-z]/.test(item) ? item[0]!.toLowerCase() + item.slice(1) : item;
  return n === 1 ? name : name.replace(/(?=\s*\(|$)/, 's');
}
function unpricedSentence(u: Unpriced): string {
  const [items, why] = [itemName(u.item, 2), words.say(u.reason, { most: MOST_PRICED.toLocaleString('en-AU') })];
  const v = { ...u, asked: u.asked || items, why, price: dollars(u.unitPrice ?? 0), Items: items[0]!.toUpperCase() };
  return words.say(u.unitPrice === undefined ? 'unchosen' : 'unpriced', { ...v, Items: v.Items + items.slice(1) });
}
const figureName = ([f, n]: [string, number]) =>
  `${n.toLocaleString('en-AU')} ${W.figures[f as Figure].name.replace(n === 1 ? /s$/ : /(?!)/, '')}`;
/** The working as one paragraph: what cannot be priced, the plan chosen, the total, each line, and the year. */
export function workingSentence(w: Working): string {
  const [monthly, [a, b]] = [dollars(w.monthly), w.lines.map((l) => dollars(l.unitPrice))];
  const months = (w.annual ?? 0) / w.monthly;
  const line = (l: WorkingLine) => ({ ...l, price: dollars(l.unitPrice), items: itemName(l.item, l.quantity) });
  const sum = w.lines.map((l) => words.say(l.quantity === 1 && l.item.endsWith('plan') ? 'plan' : 'line', line(l)));
  const v = { ...w, monthly, a, b, other: w.comparedWith, year: dollars(w.annual ?? 0), months, sum: sum.join(' + ') };
  if (w.comparedWith) return words.say('compared', v);
  const figures = [...Object.entries(w.chosenFor ?? {}).map(figureName), ...(w.modules ?? [])];
  const last = figures.length > 1 ? ` and ${figures.pop()}` : '';
  const chosen = figures.length ? words.say('chosen', { ...v, figures: figures.join(', ') + last }) : '';
  const lead = (w.unpriced ?? []).map(unpricedSentence).join('') + chosen;
  if (w.from) return lead + words.say('quoted', v);
  const rest = w.unpriced?.some((u) => u.unitPrice !== undefined);
  const year = w.annual === undefined ? '' : words.say(w.yearBilled ?? 'annually', v);
  const one = !rest && w.lines.length === 1; // the plan alone (a working's first line is its plan)
  return lead + words.say(rest ? 'rest' : one ? 'one' : 'total', { ...v, item: w.lines[0]!.item }) + year;
}
