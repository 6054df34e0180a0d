/** @module The price stage's words: pricing-words.json (its note says how a phrase reads), checked and read here. */
import { z } from 'zod';
import type { Pricing } from '../../contract/content.ts';
import { fold, own } from '../search/analyze.ts';
import data from './pricing-words.json' with { type: 'json' };
const note = z.string().min(20);
const strings = z.array(z.string().min(1));
const entry = z.strictObject({ note, words: strings.min(1) });
const table = <T extends z.ZodType>(value: T) => z.strictObject({ note, words: z.record(z.string(), value) });
const figure = entry.extend({ name: z.string(), words: strings.optional(), phrases: strings.min(1) });
const addOn = entry.extend({ qualifiers: strings, units: strings.default([]), people: strings.default([]) });
/** pricing-words.json: words by plan and add-on id, figures' phrases, modules, numbers, answers, phrases by name. */
export const PricingWordsSchema = z.strictObject({
  note,
  plans: z.record(z.string(), entry),
  addOns: z.record(z.string(), addOn.extend({ oneWhenNamed: z.literal(true).optional() })),
  figures: z.strictObject({ officeUsers: figure, movesPerYear: figure, warehouses: figure }),
  modules: table(strings.min(1)),
  numbers: table(z.number().int().min(0)),
  numerals: table(z.enum(['Infinity', 'NaN'])),
  perYear: table(z.number().int().positive()),
  answers: table(z.string()),
  phrases: z.record(z.string(), entry),
});
/** The visitors' words for priced things (pricing-words.json; checked once, so without zod's compiled fast path). */
export const PRICING_WORDS = PricingWordsSchema.parse(data, { jitless: true });
const W = PRICING_WORDS;
type Lists = Readonly<Record<string, readonly string[]>>;
const PLURAL = ['words', 'qualifiers', 'units'];
const GLOBAL: Lists = {
  ...Object.fromEntries(Object.entries(W.phrases).map(([name, e]) => [name, e.words])),
  ...{ perYear: Object.keys(W.perYear.words), numbers: Object.keys(W.numbers.words) },
};
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Between the words of a phrase: space, or a hyphen after a number ("two 1,000-message bundles"). */
const SEP = '(?:\\s+|(?<=\\d)-)';
const NUMERAL = `(?<![\\w.,])(?:[-−]\\s?)?(?:(?=\\.?\\d)[\\d,]*(?:\\.\\d+)?(?:e[+-]?\\d+)?|${Object.keys(W.numerals.words).map(escaped).join('|')})`;
/** Any of a list of phrases as a regular expression source, the longest tried first (none: matches nothing). */
export function anyOf(phrases: readonly string[], lists = GLOBAL, plural = false): string {
  const key = [plural, ...phrases, '', ...PLURAL.map((n) => lists[n]?.join('/'))].join('\n');
  return memo(SOURCES, key, () => {
    const sources = [...phrases].sort((a, b) => b.length - a.length).map((p) => phrase(p, lists, plural));
    return sources.length ? `(?:${sources.join('|')})` : '(?!)';
  });
}
const memo = <T>(cache: Map<string, T>, key: string, make: () => T) =>
  cache.get(key) ?? cache.set(key, make()).get(key)!;
const [SOURCES, REGEXPS] = [new Map<string, string>(), new Map<string, RegExp>()];
function phrase(text: string, lists: Lists, plural: boolean): string {
  const part = (body: string, name = body.slice(1, -1)) => {
    if (body === '{d}' || body === '{n}') return `(${NUMERAL}${body === '{n}' ? `|${anyOf(GLOBAL.numbers!)}` : ''})`;
    if (body[0] === '{') return anyOf(lists[name] ?? [], lists, PLURAL.includes(name));
    return `\\b(?:${body.split('/').map(escaped).join('|')})${plural ? '(?:e?s)?' : ''}\\b`;
  };
  const parts = text.split(' ').map((p, i) => {
    if (p[0] === '*') return `(?:\\s+[a-z']+){0,${p.slice(1)}}`;
    return p.endsWith('?') ? `(?:${SEP}${part(p.slice(0, -1))})?` : `${i ? SEP : ''}${part(p)}`;
  });
  return parts.join('');
}
/** Where a phrase matched a folded text, and the counts it read, in order: their value and words. */
export type Match = { at: number; text: string; counts: { n: number; w: string }[] };
function numberOf(s: string): number {
  const [sign, digits] = '-−'.includes(s[0]!) ? [-1, s.slice(1).trim()] : [1, s];
  const word = own(W.numbers.words, wordsOf(s).join(' '));
  return word ?? sign * Number(own(W.numerals.words, digits) ?? digits.replaceAll(',', ''));
}
/** The matches of a regular expression source in a folded text, left to right. */
export function matches(q: string, source: string): Match[] {
  const re = memo(REGEXPS, source, () => new RegExp(source, 'g'));
  const counts = (m: RegExpExecArray) => m.slice(1).flatMap((w) => (w === undefined ? [] : [{ n: numberOf(w), w }]));
  return [...q.matchAll(re)].map((m) => ({ at: m.index, text: m[0], counts: counts(m) }));
}
/** Whether a folded text holds a word of each part a phrase needs (a phrase that cannot match is not compiled). */
export function mayMatch(q: string, p: string, lists: Lists): boolean {
  const held = (t: string) => t.split('/').some((w) => q.includes(w));
  const named = (t: string) => (lists[t.slice(1, -1)] ?? []).some((s) => mayMatch(q, s, lists));
  return p.split(' ').every((t) => /^\*|\?$|^\{[dn]\}$/.test(t) || (t[0] === '{' ? named(t) : held(t)));
}
/** The matches of a phrase, or any of a list of them, in a folded text (`lists`: those it names beside `phrases`). */
export function find(q: string, phrase: string | readonly string[], lists = GLOBAL) {
  const phrases = typeof phrase === 'string' ? [phrase] : phrase;
  return phrases.some((p) => mayMatch(q, p, lists)) ? matches(q, anyOf(phrases, lists)) : [];
}
/** Whether a folded text says any phrase of a list of pricing-words.json's `phrases` ("asksPrice": "how much", ...). */
export const says = (q: string, name: keyof typeof data.phrases) => find(q, `{${name}}`).length > 0;
/** A sentence of a priced answer (pricing-words.json's `answers`), its {names} filled in. */
export const say = (k: keyof typeof data.answers.words, v: Record<string, unknown> = {}) =>
  W.answers.words[k]!.replace(/\{(\w+)\}/g, (_, name: string) => String(v[name]));
/** The words of a text, folded. */
export const wordsOf = (s: string) => fold(s).match(/[\p{L}\p{N}]+/gu) ?? [];
/** A name of the price list as a phrase: its words, without a note in brackets. */
export const nameOf = (name: string) => wordsOf(name.split('(')[0]!).join(' ');
/** An add-on pricing-words.json has no entry for: its name is its only word. */
const NO_WORDS = { words: [], qualifiers: [], units: [], people: [] };
/** The lists an add-on's or a figure's phrases name: its words (the add-on's name among them), qualifiers, units. */
export function listsOf(a: Pricing['addOns'][number] | undefined, words?: string[]): Lists {
  const own = (a && W.addOns[a.id]) ?? NO_WORDS;
  const [named, units] = [words ?? (a ? [nameOf(a.name), ...own.words] : []), a?.bundleSize ? own.units : []];
  return { ...GLOBAL, words: named, qualifiers: own.qualifiers, units, people: own.people };
}
