/**
 * @module Pricing questions that need arithmetic ("Starter plus 2 more office logins and 4 crew phones?"): the
 * plan and add-ons the question names, priced from content/data/pricing.json (the same data the pricing page and
 * the MCP pricing tool show), with the working line by line. Nothing is priced that the data does not price:
 * Enterprise is "from" and quoted, so it gets no total.
 */
import type { Pricing } from '../../contract/content.ts';
import { fold, own } from '../search/analyze.ts';

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

export interface Working {
  plan: string;
  lines: WorkingLine[];
  /** AUD a month, excluding GST. */
  monthly: number;
  /** AUD a year, when the question asks for it: paid annually (twelve months for the price of ten), or monthly. */
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
  /** The plan is priced "from" and quoted (Enterprise): the figure is a starting price, not a total. */
  from: boolean;
  currency: 'AUD';
  gst: 'excluded';
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  another: 1,
  two: 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

const NUM = String.raw`(\d[\d,]*|a couple of|a|an|one|another|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)`;
const MORE = String.raw`(?:\s+(?:more|extra|additional|further|new))?`;

const numberOf = (s: string) => own(NUMBER_WORDS, s.replace(/^a couple of$/, 'couple')) ?? Number(s.replace(/,/g, ''));

/** [add-on id, pattern of the thing counted after a number]. */
const COUNTED: readonly (readonly [string, string])[] = [
  [
    'office-user',
    String.raw`(?:\s+office)?\s+(?:users?|logins?|log-ins?|seats?|licen[cs]es?|staff|people|accounts?)|\s+of us(?=\s+(?:[a-z']+\s+){0,3}(?:in|on|into|at|use|using) the office\b)`,
  ],
  ['crew-device', String.raw`(?:\s+crew)?\s+(?:devices?|phones?|mobiles?|tablets?|ipads?|iphones?|androids?)`],
  // "an SMS bundle", "two 1,000-message sms bundles": a bundle's size may stand between the count and the bundle.
  [
    'sms-bundle',
    String.raw`(?:\s+\d[\d,]*[- ](?:messages?|msgs?|sms|texts?))?\s+(?:sms|text(?: message)?)\s+bundles?|\s+bundles?(?:\s+of\s+sms)?`,
  ],
  ['video-survey', String.raw`\s+video\s+survey(?:\s+apps?)?`],
];

/**
 * A plan's name, as a plan: at the end, before punctuation or a number, or before a word that keeps it one
 * ("Professional plan", "growth with 3 more users", "on growth what's that a month?"); not as an adjective of
 * something else ("professional indemnity", "growth strategy", "enterprise bargaining").
 */
const PLAN_NAME =
  /\b(starter|growth|professional|pro|enterprise)\b(?=\s*(?:$|[^\s\w]|\d|(?:plan|plans|tier|tiers|one|ones|package|subscription|level|option|version|edition|and|or|plus|with|without|for|at|on|in|but|if|is|are|was|vs|versus|than|to|from|cost|costs|price|priced|pricing|monthly|yearly|annual|annually|upfront|up|paid|billed|per|a|an|the|would|will|do|does|did|we|i|you|include|includes|including|have|has|come|comes|get|gets|need|needs|over|instead|rather|compared|then|so|ex|inc|excluding|including|gst|each|every|work|works|suit|suits|cover|covers|allow|allows|let|lets|what|how|which|please|pls|going|gonna|be|set|run|runs)\b))/g;

/** The plans a question names, by id, in order. */
function plansOf(q: string): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(PLAN_NAME)) {
    const id = m[1] === 'pro' ? 'professional' : m[1]!;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}
const planOf = (q: string): string | undefined => plansOf(q)[0];

const ARTICLE = /^(a|an|one)$/;
/** Where a new clause starts: punctuation, or a new subject ("and we've got 18 staff"). */
const CLAUSE = /[,.;:?!]|\b(?:we|we've|we're|weve|were|i|i've|ive|i'm|im|there|there's|theres|our|they|they're)\b/;

/** Quantities of each add-on the question counts. */
function addOnsOf(question: string, pricing: Pricing): Map<string, { n: number; extra: boolean }> {
  const out = new Map<string, { n: number; extra: boolean }>();
  // "a crew of 18 on phones", "12 guys on the app": that many crew devices.
  const q = question
    .replace(/\bcrews? of (\d[\d,]*) (?:on|with|using) (?:phones?|devices?|the (?:crew )?app)\b/g, '$1 crew devices')
    .replace(
      /\b(\d[\d,]*) (?:guys|blokes|workers|crew members|people) (?:on|with|using) (?:phones?|devices?|the (?:crew )?app)\b/g,
      '$1 crew devices',
    );
  for (const [id, thing] of COUNTED) {
    const re = new RegExp(String.raw`\b${NUM}${MORE}(?:${thing})\b`, 'g');
    const counts = [...q.matchAll(re)];
    // "45 people need an office login": a number is the count; "a"/"an"/"one" only counts when no number does.
    const numbered = counts.some((m) => !ARTICLE.test(m[1]!));
    for (const m of counts) {
      if (numbered && ARTICLE.test(m[1]!)) continue;
      const n = numberOf(m[1]!);
      if (!Number.isFinite(n) || n <= 0 || n > 10_000) continue;
      // Extra when the request says so in the clause of the count ("Starter plus 2 more logins and 4 phones");
      // "Starter with 7 office users", "..., and we've got 18 office staff" are totals, of which the plan's own are
      // free.
      const clause = (q.slice(0, m.index) + m[0]).split(CLAUSE).at(-1)!;
      const extra = /\b(more|extra|additional|further|plus|another|add|adding|on top)\b/.test(clause);
      out.set(id, { n: (out.get(id)?.n ?? 0) + n, extra });
    }
  }
  // "the video survey app", "and SMS" without a number: one.
  if (!out.has('video-survey') && /\bvideo surveys?( app)?\b/.test(q)) out.set('video-survey', { n: 1, extra: true });
  const sms = /\b(\d[\d,]*)\s*(?:sms|text messages|texts|messages)\b/.exec(q);
  if (!out.has('sms-bundle') && sms) {
    const n = Math.ceil(Number(sms[1]!.replace(/,/g, '')) / 1000);
    if (n > 0) out.set('sms-bundle', { n, extra: true });
  }
  for (const id of out.keys()) if (!pricing.addOns.some((a) => a.id === id)) out.delete(id);
  return out;
}

const COUNT_WORD = String.raw`(\d[\d,]*|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|no)`;
const MOVES =
  /\b(\d[\d,]*)\s*(?:moves|jobs|removals|relocations)(?:\s+(?:a|per|each|every|in a)\s+(yr|year|annum|month|mth|week|wk))?/;
const WAREHOUSES = new RegExp(
  String.raw`\b${COUNT_WORD}\s+(?:warehouses?|depots?|storage (?:sites?|facility|facilities))\b`,
);
const OFFICE =
  /\b(\d[\d,]*)\s+(?:(?:of us|people|staff|users?)\s+(?:[a-z']+\s+){0,3})?(?:in|on|into|at|use|using) the office\b|\b(\d[\d,]*)\s+office\s+(?:staff|users?|people|logins?)\b/;
const WHICH_PLAN = /\b(which|what) (plan|tier)\b|\bplan (would|should|do) (we|i)\b/;

/**
 * The plan for a question that names none but gives its figures (office staff, moves a year, warehouses), by the
 * pricing page's rule: each figure points to the smallest plan that covers it, and the biggest of those wins.
 */
function chosenPlan(
  q: string,
  pricing: Pricing,
): { id: string; chosenFor: NonNullable<Working['chosenFor']> } | undefined {
  const chosenFor: NonNullable<Working['chosenFor']> = {};
  const moves = MOVES.exec(q);
  if (moves) {
    const n = Number(moves[1]!.replace(/,/g, ''));
    const per = moves[2] ?? 'year';
    chosenFor.movesPerYear = /^(month|mth)$/.test(per) ? n * 12 : /^(week|wk)$/.test(per) ? n * 52 : n;
  }
  const warehouses = WAREHOUSES.exec(q);
  if (warehouses) chosenFor.warehouses = warehouses[1] === 'no' ? 0 : numberOf(warehouses[1]!);
  const office = OFFICE.exec(q);
  if (office) chosenFor.officeUsers = Number((office[1] ?? office[2])!.replace(/,/g, ''));
  const figures: [number | undefined, (p: Pricing['plans'][number]) => number | null][] = [
    [chosenFor.officeUsers, (p) => p.officeUsers],
    [chosenFor.movesPerYear, (p) => p.maxMovesPerYear],
    [chosenFor.warehouses, (p) => p.maxWarehouses],
  ];
  let at = -1;
  for (const [n, limit] of figures) {
    if (n === undefined || !Number.isFinite(n)) continue;
    const fits = pricing.plans.findIndex((p) => {
      const max = limit(p);
      return max === null || max >= n;
    });
    at = Math.max(at, fits < 0 ? pricing.plans.length - 1 : fits);
  }
  return at < 0 ? undefined : { id: pricing.plans[at]!.id, chosenFor };
}

/** Whether a question asks for money figures at all. */
const ASKS_PRICE =
  /\b(cost|costs|price|prices|priced|pricing|how much|total|pay|per month|a month|monthly|bill|\$|aud|dollars|budget|quote me)\b/;
const ANNUAL =
  /\b(annual|annually|yearly|per year|a year|(a|the) (full|whole) year|the year|each year|every year|12 months|twelve months|upfront|up front)\b/;
/** The year paid month by month ("month to month, what's that over a year?"). */
const MONTH_BY_MONTH = /\b(month to month|month-to-month|monthly|each month|every month|by the month)\b/;
/** A comparison of two plans ("how much more is Professional than Growth?"). */
const COMPARE = /\b(more than|less than|cheaper than|dearer than|difference|vs|versus|compared (to|with)|than)\b/;

/**
 * The working for a pricing question, or undefined when the question is not one (no plan, or no figure asked
 * for). `previous` is the earlier question of a follow-up ("and the Professional one?"): its add-ons carry over.
 */
export function priceQuestion(question: string, pricing: Pricing, previous?: string): Working | undefined {
  const q = fold(question);
  let planId = planOf(q);
  let addOns = addOnsOf(q, pricing);
  const prev = previous === undefined ? undefined : fold(previous);
  const prevWorking = prev !== undefined && ASKS_PRICE.test(prev) && planOf(prev) !== undefined;
  if (!planId && prevWorking && addOns.size) planId = planOf(prev!);
  if (planId && !addOns.size && prevWorking) addOns = addOnsOf(prev!, pricing);
  let chosen: ReturnType<typeof chosenPlan>;
  if (!planId && (ASKS_PRICE.test(q) || WHICH_PLAN.test(q))) {
    chosen = chosenPlan(q, pricing);
    planId = chosen?.id;
  }
  if (!planId) return undefined;
  const annual = ANNUAL.test(q) || (prevWorking && !ASKS_PRICE.test(q) && ANNUAL.test(prev!));
  if (!ASKS_PRICE.test(q) && !addOns.size && !annual && !(prevWorking && planOf(q))) return undefined;
  const plan = pricing.plans.find((p) => p.id === planId)!;
  const lines: WorkingLine[] = [
    { item: `${plan.name} plan`, quantity: 1, unitPrice: plan.monthly, amount: plan.monthly, unit: 'per month' },
  ];
  const named = plansOf(q);
  const other = named.length === 2 && COMPARE.test(q) ? pricing.plans.find((p) => p.id === named[1]) : undefined;
  if (other && !other.priceFrom) {
    lines.push({
      item: `${other.name} plan`,
      quantity: -1,
      unitPrice: other.monthly,
      amount: -other.monthly,
      unit: 'per month',
    });
  }
  for (const addOn of pricing.addOns) {
    const asked = addOns.get(addOn.id);
    if (!asked) continue;
    let n = asked.n;
    // "Starter with 7 office users": beyond the plan's own.
    if (addOn.id === 'office-user' && !asked.extra && plan.officeUsers !== null) n -= plan.officeUsers;
    if (addOn.id === 'crew-device' && !asked.extra && plan.crewDevices !== undefined) n -= plan.crewDevices;
    if (n <= 0) continue;
    const unit = addOn.unit.replace(/^per (user|device) /, '');
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
  if (other && !other.priceFrom) working.comparedWith = other.name;
  if (chosen) working.chosenFor = chosen.chosenFor;
  if (annual) {
    const monthByMonth = MONTH_BY_MONTH.test(q) && !/\b(annual|annually|yearly|upfront|up front)\b/.test(q);
    working.yearBilled = monthByMonth ? 'monthly' : 'annually';
    working.annual = monthly * (monthByMonth ? 12 : 10);
  }
  return working;
}

/** $1,890 */
export const dollars = (n: number) => `$${n.toLocaleString('en-AU')}`;

/** The working as one sentence: the total first, then each line. */
export function workingSentence(w: Working): string {
  if (w.comparedWith) {
    const [a, b] = w.lines;
    return `${w.plan} is ${dollars(w.monthly)} a month more than ${w.comparedWith}, excluding GST: ${dollars(a!.unitPrice)} − ${dollars(b!.unitPrice)} = ${dollars(w.monthly)}.`;
  }
  const parts = w.lines.map((l) =>
    l.quantity === 1 && l.item.endsWith('plan')
      ? `${dollars(l.unitPrice)} for ${l.item}`
      : `${l.quantity} × ${dollars(l.unitPrice)} for ${l.item.toLowerCase()}${l.quantity > 1 ? 's' : ''} (${l.unit})`,
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
  if (w.from) {
    return `${chosen}${w.plan} is quoted: it starts from ${dollars(w.monthly)} a month excluding GST (${sum}), and the final figure depends on your business.`;
  }
  const annual =
    w.annual === undefined
      ? ''
      : ` Paid annually that is ${dollars(w.annual)} a year (twelve months for the price of ten).`;
  return `${chosen}That comes to ${dollars(w.monthly)} a month excluding GST: ${sum} = ${dollars(w.monthly)}.${annual}`;
}
