/**
 * @module The chat's price stage: pricing questions ("Starter plus 2 more office logins and 4 crew phones?", "how
 * much more is Professional than Growth?") read with the price list's vocabulary (pricing-words.ts), priced from
 * content/data/pricing.json (the data the pricing page and the MCP pricing tool show) with the working line by
 * line; comparisons of two plans are found for the answer to quote both plans' rows. Nothing is priced that the
 * data does not price: Enterprise is "from" and quoted, so it gets no total, and
 * a quantity that is not a whole number, is below zero, is too large to work out exactly or is more than
 * `MOST_PRICED` is said to be unpriced, with its price per unit, never dropped or rounded into another figure.
 */
import type { Plan, Pricing } from '../../contract/content.ts';
import { type Need, planThatFits } from '../plans.ts';
import { fold, own } from '../search/analyze.ts';
import { type PricingVocabulary, vocabularyOf } from './pricing-words.ts';

/** The most of one thing the chat prices (users, devices, bundles): more is said to be unpriced. */
export const MOST_PRICED = 10_000;

export interface WorkingLine {
  /** What is priced ("Starter plan", "Extra office user"). */
  item: string;
  quantity: number;
  /** AUD, excluding GST. */
  unitPrice: number;
  amount: number;
  /** How the price is billed, as the price list says ("per month", "per bundle"). */
  unit: string;
}

/** Why a quantity is not priced. */
export type UnpricedReason = 'not-a-number' | 'negative' | 'too-large' | 'not-whole' | 'over-limit';

/** A quantity the question counts that the price list cannot price: left out of the total. */
export interface Unpriced {
  /** What was counted: the add-on's name in the price list, or the figure a plan is chosen by ("moves a year"). */
  item: string;
  /** The question's words that count it, a long number shortened ("2.5 extra users", "999999…999 moves a year"). */
  asked: string;
  reason: UnpricedReason;
  /** The price list's price per unit (AUD, excluding GST) and how it is billed; none for a plan's figure. */
  unitPrice?: number;
  unit?: string;
}

export interface Working {
  plan: string;
  lines: WorkingLine[];
  /** AUD a month, excluding GST. */
  monthly: number;
  /** AUD a year, when the question asks for it: paid annually (at the price list's annual billing), or monthly. */
  annual?: number;
  /** How the year is paid: annually (two months off) or month by month. */
  yearBilled?: 'annually' | 'monthly';
  /** The plan the figure is compared with ("how much more is Professional than Growth?"): its price is subtracted. */
  comparedWith?: string;
  /**
   * The question named no plan but its figures: the plan is the one the pricing page's rule picks (each figure's
   * smallest plan; the biggest of those wins).
   */
  chosenFor?: { officeUsers?: number; movesPerYear?: number; warehouses?: number };
  /** What the question counts that the price list cannot price (left out of the lines and the total). */
  unpriced?: Unpriced[];
  /** The plan is priced "from" and quoted (Enterprise): the figure is a starting price, not a total. */
  from: boolean;
  currency: 'AUD';
  gst: 'excluded';
}

/** What is wrong with a quantity the price list would price, if anything (`most`: the most priced). */
export function quantityProblem(n: number, most = Number.POSITIVE_INFINITY): UnpricedReason | undefined {
  if (Number.isNaN(n)) return 'not-a-number';
  if (n < 0) return 'negative';
  if (!Number.isFinite(n)) return 'too-large';
  if (!Number.isInteger(n)) return 'not-whole';
  if (!Number.isSafeInteger(n)) return 'too-large';
  return n > most ? 'over-limit' : undefined;
}

/** A number as the question writes it (digits, a number word, "NaN", "infinity"). */
function numberOf(raw: string, v: PricingVocabulary): number {
  const s = raw.replace(/−/g, '-').replace(/\s+/g, ' ').trim();
  const word = own(v.numbers, s);
  if (word !== undefined) return word;
  const sign = s.startsWith('-') ? -1 : 1;
  const digits = s.replace(/^- ?/, '');
  if (digits === '∞' || digits === 'infinity') return sign * Number.POSITIVE_INFINITY;
  return sign * Number(digits.replace(/,/g, ''));
}

/** The question's words for a count, a long number shortened. */
const askedText = (s: string) =>
  s
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[\d,]{13,}/g, (d) => `${d.slice(0, 6)}…${d.slice(-3)}`);

/** The plans a question names, by id, in order. */
function plansOf(q: string, v: PricingVocabulary): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(v.planName)) {
    const id = v.planIds.get(m[1]!)!;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

const ARTICLE = /^(a|an|one)$/;
/** Where a new clause starts: punctuation (not inside a number: "10,000"), or a new subject ("and we've got 18"). */
const CLAUSE =
  /[,.;:?!](?!\d)|\b(?:we|we've|we're|weve|were|i|i've|ive|i'm|im|there|there's|theres|our|they|they're)\b/;

interface Counted {
  n: number;
  extra: boolean;
  asked: string;
}

/** Quantities of each add-on the question counts, and the counts the price list cannot price. */
function addOnsOf(question: string, v: PricingVocabulary): { counts: Map<string, Counted>; unpriced: Unpriced[] } {
  const counts = new Map<string, Counted>();
  const unpriced: Unpriced[] = [];
  let q = question;
  for (const [re, to] of v.rewrites) q = q.replace(re, to);
  for (const { addOn, count, named, units } of v.addOns) {
    const unpricedAs = (asked: string, reason: UnpricedReason) =>
      unpriced.push({ item: addOn.name, asked, reason, unitPrice: addOn.price, unit: addOn.unit });
    const found = [...q.matchAll(count)];
    // "45 people need an office login": a number is the count; "a"/"an"/"one" only counts when no number does.
    const numbered = found.some((m) => !ARTICLE.test(m[1]!));
    let total: Counted | undefined;
    for (const m of found) {
      if (numbered && ARTICLE.test(m[1]!)) continue;
      const n = numberOf(m[1]!, v);
      // Extra when the request says so in the clause of the count ("Starter plus 2 more logins and 4 phones");
      // "Starter with 7 office users", "..., and we've got 18 office staff" are totals, of which the plan's own are
      // free.
      const clause = (q.slice(0, m.index) + m[0]).split(CLAUSE).at(-1)!;
      const extra = /\b(more|extra|additional|further|plus|another|add|adding|on top)\b/.test(clause);
      const asked = askedText(m[0]);
      total = total ? { n: total.n + n, extra, asked: `${total.asked} and ${asked}` } : { n, extra, asked };
    }
    if (!total && named?.test(q)) total = { n: 1, extra: true, asked: '' };
    const messages = !total && units ? units.exec(q) : null;
    if (messages && addOn.bundleSize) {
      const n = numberOf(messages[1]!, v);
      const problem = quantityProblem(n);
      const asked = askedText(messages[0]);
      if (problem) unpricedAs(asked, problem);
      else if (n > 0) total = { n: Math.ceil(n / addOn.bundleSize), extra: true, asked };
    }
    if (!total) continue;
    const problem = quantityProblem(total.n, MOST_PRICED);
    if (problem) unpricedAs(total.asked, problem);
    else if (total.n > 0) counts.set(addOn.id, total);
  }
  return { counts, unpriced };
}

/** The figures a plan is sized by, as the plans' limits: office users, moves a year, warehouses. */
const LIMITS = {
  officeUsers: (p: Plan) => p.officeUsers,
  movesPerYear: (p: Plan) => p.maxMovesPerYear,
  warehouses: (p: Plan) => p.maxWarehouses,
} as const;
type Figure = keyof typeof LIMITS;
/** A figure as the answer names it. */
const FIGURE_NAMES: Record<Figure, string> = {
  officeUsers: 'office users',
  movesPerYear: 'moves a year',
  warehouses: 'warehouses',
};
const PER_YEAR: Readonly<Record<string, number>> = { month: 12, mth: 12, week: 52, wk: 52 };

/** The figures of a question that names no plan (office staff, moves a year, warehouses), and those unusable. */
function figuresOf(
  q: string,
  v: PricingVocabulary,
): { figures: Partial<Record<Figure, number>>; unpriced: Unpriced[] } {
  const figures: Partial<Record<Figure, number>> = {};
  const unpriced: Unpriced[] = [];
  const take = (figure: Figure, m: RegExpExecArray | null | undefined, raw?: string, times = 1) => {
    if (!m) return;
    const n = numberOf(raw ?? m[1]!, v) * times;
    const problem = quantityProblem(n);
    if (problem) unpriced.push({ item: FIGURE_NAMES[figure], asked: askedText(m[0]), reason: problem });
    else figures[figure] = n;
  };
  const moves = v.moves.exec(q);
  take('movesPerYear', moves, undefined, own(PER_YEAR, moves?.[2] ?? '') ?? 1);
  take('warehouses', v.warehouses.exec(q));
  const office = v.officeStaff?.exec(q);
  take('officeUsers', office, office?.[1] ?? office?.[2]);
  return { figures, unpriced };
}

/**
 * The plan for a question that names none but gives its figures, by the pricing page's rule (src/core/pricing.ts):
 * each figure points to the smallest plan that covers it, and the biggest of those wins.
 */
function chosenPlan(
  figures: Partial<Record<Figure, number>>,
  pricing: Pricing,
): { id: string; chosenFor: NonNullable<Working['chosenFor']> } | undefined {
  const given = (Object.keys(LIMITS) as Figure[]).filter((f) => figures[f] !== undefined);
  const needs = given.map(
    (f): Need =>
      (p) => {
        const max = LIMITS[f](p);
        return max === null || max >= figures[f]!;
      },
  );
  const { at } = planThatFits(pricing.plans, needs);
  return at < 0 ? undefined : { id: pricing.plans[at]!.id, chosenFor: figures };
}

/** Whether a question asks for money figures at all. */
const ASKS_PRICE =
  /\b(cost|costs|price|prices|priced|pricing|how much|total|pay|per month|a month|monthly|bill|\$|aud|dollars|budget|quote me)\b/;
const ANNUAL =
  /\b(annual|annually|yearly|per year|a year|(a|the) (full|whole) year|the year|each year|every year|12 months|twelve months|upfront|up front)\b/;
/** The year paid month by month ("month to month, what's that over a year?"). */
const MONTH_BY_MONTH = /\b(month to month|month-to-month|monthly|each month|every month|by the month)\b/;
/** Words that compare two plans ("Growth vs Professional", "how much more is Professional than Growth?"). */
const COMPARE =
  /\b(vs|versus|difference|differences|different|differ|differs|compare|compared|comparing|comparison|than|between)\b/;
const WHICH_PLAN = /\b(which|what) (plan|tier)\b|\bplan (would|should|do) (we|i)\b/;

/**
 * The two plans a question compares ("Growth vs Professional", "what's the difference between growth and pro?"), in
 * the order it names them: the answer quotes both plans' rows of the price list.
 */
export function comparedPlans(question: string, pricing: Pricing): [Plan, Plan] | undefined {
  const q = fold(question);
  const named = plansOf(q, vocabularyOf(pricing));
  if (named.length !== 2 || !COMPARE.test(q)) return undefined;
  const [a, b] = named.map((id) => pricing.plans.find((p) => p.id === id)!);
  return [a!, b!];
}

/**
 * The working for a pricing question, or undefined when the question is not one (no plan, or no figure asked
 * for). `previous` is the earlier question of a follow-up ("and the Professional one?"): its add-ons carry over.
 */
export function priceQuestion(question: string, pricing: Pricing, previous?: string): Working | undefined {
  const v = vocabularyOf(pricing);
  const q = fold(question);
  const named = plansOf(q, v);
  let planId = named[0];
  let asked = addOnsOf(q, v);
  const prev = previous === undefined ? undefined : fold(previous);
  const prevWorking = prev !== undefined && ASKS_PRICE.test(prev) && plansOf(prev, v).length > 0;
  const some = (a: typeof asked) => a.counts.size > 0 || a.unpriced.length > 0;
  if (!planId && prevWorking && some(asked)) planId = plansOf(prev!, v)[0];
  if (planId && !some(asked) && prevWorking) asked = addOnsOf(prev!, v);
  let chosen: ReturnType<typeof chosenPlan>;
  const unpriced = [...asked.unpriced];
  if (!planId && (ASKS_PRICE.test(q) || WHICH_PLAN.test(q))) {
    const { figures, unpriced: unusable } = figuresOf(q, v);
    unpriced.unshift(...unusable);
    chosen = chosenPlan(figures, pricing);
    planId = chosen?.id;
  }
  if (!planId) return undefined;
  // "1,400 moves a year" sizes the plan; it does not ask for a year's price.
  const billing = q.replace(v.moves, ' ');
  const annual = ANNUAL.test(billing) || (prevWorking && !ASKS_PRICE.test(q) && ANNUAL.test(prev!));
  if (!ASKS_PRICE.test(q) && !some(asked) && !annual && !(prevWorking && named.length)) return undefined;
  const plan = pricing.plans.find((p) => p.id === planId)!;
  const planLine = (p: Plan, quantity: 1 | -1): WorkingLine => ({
    item: `${p.name} plan`,
    quantity,
    unitPrice: p.monthly,
    amount: quantity * p.monthly,
    unit: 'per month',
  });
  const compared = comparedPlans(question, pricing);
  if (compared) {
    // A difference in price between two plans, whichever is named first: none when either is quoted (the rows say
    // what each costs). Add-ons change neither plan's price.
    if (compared.some((p) => p.priceFrom || p.quoted)) return undefined;
    const [dear, cheap] = [...compared].sort((a, b) => b.monthly - a.monthly) as [Plan, Plan];
    return {
      plan: dear.name,
      lines: [planLine(dear, 1), planLine(cheap, -1)],
      monthly: dear.monthly - cheap.monthly,
      comparedWith: cheap.name,
      from: false,
      currency: 'AUD',
      gst: 'excluded',
    };
  }
  const lines: WorkingLine[] = [planLine(plan, 1)];
  for (const addOn of pricing.addOns) {
    const count = asked.counts.get(addOn.id);
    if (!count) continue;
    // "Starter with 7 office users": beyond the plan's own.
    const own = addOn.adds && !count.extra ? (plan[addOn.adds] ?? 0) : 0;
    const n = count.n - own;
    if (n <= 0) continue;
    // "per user per month": each line is one user's price already.
    const unit = addOn.unit.replace(/^per \S+ (?=per )/, '');
    lines.push({ item: addOn.name, quantity: n, unitPrice: addOn.price, amount: n * addOn.price, unit });
  }
  const monthly = lines.reduce((sum, l) => sum + l.amount, 0);
  const working: Working = {
    plan: plan.name,
    lines,
    monthly,
    from: plan.priceFrom || plan.quoted,
    currency: 'AUD',
    gst: 'excluded',
  };
  if (chosen) working.chosenFor = chosen.chosenFor;
  if (unpriced.length) working.unpriced = unpriced;
  if (annual) {
    const monthByMonth = MONTH_BY_MONTH.test(q) && !/\b(annual|annually|yearly|upfront|up front)\b/.test(q);
    working.yearBilled = monthByMonth ? 'monthly' : 'annually';
    working.annual = monthly * (monthByMonth ? 12 : pricing.annualBilling.monthsCharged);
  }
  return working;
}

/** $1,890 */
export const dollars = (n: number) => `$${n.toLocaleString('en-AU')}`;

/** An item of the price list as a sentence names it: "extra office users", "SMS bundles (1,000 messages)". */
function itemName(item: string, n: number): string {
  const name = /^[A-Z][a-z]/.test(item) ? item[0]!.toLowerCase() + item.slice(1) : item;
  return n === 1 ? name : name.replace(/^([^(]*?)(\s*\(|$)/, '$1s$2');
}

const WHY: Record<UnpricedReason, string> = {
  'not-a-number': 'that is not a number',
  negative: 'a count cannot be below zero',
  'too-large': 'the number is too large to work out exactly',
  'not-whole': 'it is not a whole number',
  'over-limit': `that is more than ${MOST_PRICED.toLocaleString('en-AU')}, the most I price of one thing`,
};

/** What the price list cannot price, each with its price per unit. */
function unpricedSentence(u: Unpriced): string {
  if (u.unitPrice === undefined) return `I can't choose a plan for ${u.asked}: ${WHY[u.reason]}.`;
  const per = `${itemName(u.item, 2)} are ${dollars(u.unitPrice)} ${u.unit}`;
  return `I can't price ${u.asked || itemName(u.item, 2)}: ${WHY[u.reason]}. ${per[0]!.toUpperCase()}${per.slice(1)}.`;
}

/** The working as one paragraph: what cannot be priced, then the total, then each line. */
export function workingSentence(w: Working): string {
  const unpriced = (w.unpriced ?? []).map(unpricedSentence);
  const lead = unpriced.length ? `${unpriced.join(' ')} ` : '';
  if (w.comparedWith) {
    const [a, b] = w.lines;
    return `${w.plan} is ${dollars(w.monthly)} a month more than ${w.comparedWith}, excluding GST: ${dollars(a!.unitPrice)} − ${dollars(b!.unitPrice)} = ${dollars(w.monthly)}.`;
  }
  const parts = w.lines.map((l) =>
    l.quantity === 1 && l.item.endsWith('plan')
      ? `${dollars(l.unitPrice)} for ${l.item}`
      : `${l.quantity} × ${dollars(l.unitPrice)} for ${itemName(l.item, l.quantity)} (${l.unit})`,
  );
  const sum = parts.join(' + ');
  const f = w.chosenFor;
  const figures = f
    ? [
        f.officeUsers === undefined ? '' : `${f.officeUsers} office user${f.officeUsers === 1 ? '' : 's'}`,
        f.movesPerYear === undefined ? '' : `${f.movesPerYear.toLocaleString('en-AU')} moves a year`,
        f.warehouses === undefined ? '' : `${f.warehouses} warehouse${f.warehouses === 1 ? '' : 's'}`,
      ].filter(Boolean)
    : [];
  const chosen = figures.length
    ? `For ${figures.join(', ').replace(/, ([^,]*)$/, ' and $1')}, the plan that fits is ${w.plan}. `
    : '';
  // An add-on left out: the total is of the rest.
  const total = w.unpriced?.some((u) => u.unitPrice !== undefined) ? 'The rest comes' : 'That comes';
  if (w.from) {
    return `${lead}${chosen}${w.plan} is quoted: it starts from ${dollars(w.monthly)} a month excluding GST (${sum}), and the final figure depends on your business.`;
  }
  const monthsCharged = w.annual === undefined || w.monthly === 0 ? 0 : w.annual / w.monthly;
  const annual =
    w.annual === undefined
      ? ''
      : w.yearBilled === 'monthly'
        ? ` Paid month by month that is ${dollars(w.annual)} a year (12 × ${dollars(w.monthly)}).`
        : ` Paid annually that is ${dollars(w.annual)} a year (12 months for the price of ${monthsCharged}: ${monthsCharged} × ${dollars(w.monthly)}).`;
  return `${lead}${chosen}${total} to ${dollars(w.monthly)} a month excluding GST: ${sum} = ${dollars(w.monthly)}.${annual}`;
}
