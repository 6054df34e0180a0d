/**
 * @module Pricing questions that need arithmetic ("Starter plus 2 more office logins and 4 crew phones?"): the
 * plan and add-ons the question names, priced from content/data/pricing.json (the same data the pricing page and
 * the MCP pricing tool show), with the working line by line. Nothing is priced that the data does not price:
 * Enterprise is "from" and quoted, so it gets no total.
 */
import type { Pricing } from '../../contract/content.ts';
import { fold } from '../search/analyze.ts';

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

const numberOf = (s: string) => NUMBER_WORDS[s.replace(/^a couple of$/, 'couple')] ?? Number(s.replace(/,/g, ''));

/** [add-on id, pattern of the thing counted after a number]. */
const COUNTED: readonly (readonly [string, string])[] = [
  [
    'office-user',
    String.raw`(?:\s+office)?\s+(?:users?|logins?|log-ins?|seats?|licen[cs]es?|staff|people|accounts?)|\s+of us(?=\s+in the office)`,
  ],
  ['crew-device', String.raw`(?:\s+crew)?\s+(?:devices?|phones?|mobiles?|tablets?|ipads?|iphones?|androids?)`],
  ['sms-bundle', String.raw`\s+(?:sms|text(?: message)?)\s+bundles?|\s+bundles?(?:\s+of\s+sms)?`],
  ['video-survey', String.raw`\s+video\s+survey(?:\s+apps?)?`],
];

/** The plans a question names, by id, in order. */
function plansOf(q: string): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(/\b(starter|growth|professional|pro|enterprise)\b/g)) {
    const id = m[1] === 'pro' ? 'professional' : m[1]!;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}
const planOf = (q: string): string | undefined => plansOf(q)[0];

/** Quantities of each add-on the question counts. */
function addOnsOf(q: string, pricing: Pricing): Map<string, { n: number; extra: boolean }> {
  const out = new Map<string, { n: number; extra: boolean }>();
  for (const [id, thing] of COUNTED) {
    const re = new RegExp(String.raw`\b${NUM}${MORE}(?:${thing})\b`, 'g');
    for (const m of q.matchAll(re)) {
      const n = numberOf(m[1]!);
      if (!Number.isFinite(n) || n <= 0 || n > 10_000) continue;
      // Extra when the request says so anywhere before the count ("Starter plus 2 more logins and 4 phones");
      // "Starter with 7 office users" is a total, of which the plan's own are free.
      const extra = /\b(more|extra|additional|further|plus|another|add|adding|on top)\b/.test(
        q.slice(0, m.index) + m[0],
      );
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

/** Whether a question asks for money figures at all. */
const ASKS_PRICE =
  /\b(cost|costs|price|prices|priced|pricing|how much|total|pay|per month|a month|monthly|bill|\$|aud|dollars|budget|quote me)\b/;
const ANNUAL =
  /\b(annual|annually|yearly|per year|a year|a full year|a whole year|the year|each year|every year|12 months|twelve months|upfront|up front)\b/;
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
  if (w.from) {
    return `${w.plan} is quoted: it starts from ${dollars(w.monthly)} a month excluding GST (${sum}), and the final figure depends on your business.`;
  }
  const annual =
    w.annual === undefined
      ? ''
      : ` Paid annually that is ${dollars(w.annual)} a year (twelve months for the price of ten).`;
  return `That comes to ${dollars(w.monthly)} a month excluding GST: ${sum} = ${dollars(w.monthly)}.${annual}`;
}
