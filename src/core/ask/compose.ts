/**
 * @module Stage 7, compose: sentences quoted from the sections that answer, each source linked to its section (anchor
 * and text fragment). The only words not quoted are the fixed sentences below and a handoff's label.
 */
import type { z } from 'zod';
import type { AskSourceSchema } from '../../contract/ask.ts';
import { asksQuestion, plainOf } from '../markdown-plain.ts';
import { analyze, fold } from '../search/analyze.ts';
import type { Part, TermGroup } from './analyse.ts';
import { cosine, textVector } from './embedding.ts';
import type { AskIndex } from './index.ts';
import type { Ranked } from './rerank.ts';

/** The one sentence of an answer when the site has none. */
export const NO_ANSWER = "The Kartage website doesn't answer that, so I won't guess.";
/** The sentence before the related sections' list, when there are some. */
export const NO_ANSWER_RELATED = 'These pages are related but do not answer it:';
/** The sentence for a part of a question the site does not answer, naming it in the visitor's words. */
export const partUnanswered = (part: string) => `The Kartage website doesn't answer “${part}”, so I won't guess.`;

export type AskSourceOut = z.infer<typeof AskSourceSchema>;
/** A quoted sentence: its section and range there, and its plain text. */
export type Quote = { section: number; start: number; end: number; plain: string; row: boolean };
/** A sentence's terms (plain text through the analyzer). */
export const termsOf = (plain: string) => new Set(analyze(plain));

/** The sentences of a section (table header rows left out). */
export function sentencesOf(index: AskIndex, section: number): Quote[] {
  const [ranges, text, out] = [index.sentences(section), index.text(section), [] as Quote[]];
  for (let i = 0; i < ranges.length; i += 3) {
    if (ranges[i + 2] === 2) continue;
    const [start, end, row] = [ranges[i]!, ranges[i + 1]!, ranges[i + 2] === 1];
    const raw = text.slice(start, end);
    out.push({ section, start, end, row, plain: plainOf(row ? raw.replace(/\s*\|\s*/g, ' ') : raw) });
  }
  return out;
}
/** The sentence model's cosine's weight in a lead beside its share of the question's words (docs/chat.md). */
const LEAD_MODEL_WEIGHT = 3;
/** A "Yes."/"No, ...": quoted only as a first sentence (as any brief one), for the question its heading asks. */
const SHORT_ANSWER = /^(yes|no)\b/i;
/** Whether a section's heading is a question holding every known word the visitor typed and every plan named. */
function headingAsks(index: AskIndex, section: number, groups: readonly TermGroup[], named: readonly string[]) {
  const heading = index.heading(section);
  if (!asksQuestion(heading)) return false;
  const terms = termsOf(heading);
  return groups.every((g) => g.unknown || g.terms.some((t) => terms.has(t))) && named.every((n) => terms.has(n));
}

/** A section's sentences that answer: the best, the next after a short one, one holding words the others lack. */
export function quotesFrom(index: AskIndex, section: number, { text, groups }: Omit<Part, 'lean'>, named: string[]) {
  const all = sentencesOf(index, section);
  if (!all.length) return [];
  const weights = groups.map((g) => g.weight * Math.max(...g.terms.map((t) => index.idf(t))));
  const holdsOf = (terms: Set<string>) => groups.map((g) => g.terms.some((t) => terms.has(t)));
  const holds = all.map((q) => holdsOf(termsOf(q.plain)));
  // The lead: words outside links (a pointer never leads), a table row's with its header row's, the sentence model's.
  const head = (q: Quote) => (q.row ? `${tableHead(index, section, q.start)?.split('\n')[0] ?? ''} ` : '');
  const bare = all.map((q) => plainOf(head(q) + index.text(section).slice(q.start, q.end), false).replace(/\|/g, ' '));
  const own = bare.map((p) => holdsOf(termsOf(p)));
  const score = (i: number, skip?: Set<number>, by = holds) =>
    by[i]!.reduce((a, h, g) => a + (h && !skip?.has(g) ? weights[g]! : 0), 0);
  const [table, most] = [index.embedding, Math.max(...all.map((_, i) => score(i, undefined, own)))];
  const asked = table && textVector(table, text);
  const near = bare.map((p) => (table && asked && p ? cosine(asked, textVector(table, p)) : 0));
  const lead = (i: number) => (most ? score(i, undefined, own) / most + LEAD_MODEL_WEIGHT * near[i]! : 0);
  const brief = (i: number) => all[i]!.plain.length <= 24;
  const short = (i: number) => brief(i) && SHORT_ANSWER.test(all[i]!.plain);
  const firstAnswers = brief(0) && headingAsks(index, section, groups, named);
  let best = firstAnswers ? 0 : -1;
  for (let i = 0; i < all.length; i++) if (!short(i) && (best < 0 || lead(i) > lead(best))) best = i;
  best = Math.max(best, 0);
  const picked = new Set(firstAnswers ? [0, best] : [best]);
  const announces = (i: number) => all[i]?.plain.endsWith(':');
  if (best + 1 < all.length && (all[best]!.plain.length < 70 || announces(best) || announces(best + 1)))
    picked.add(best + 1);
  // A list announced ("Their answers were practical:"): the first sentence of each of its items.
  for (let i = ([...picked].find(announces) ?? all.length) + 1; i < all.length; i++) {
    const gap = index.text(section).slice(all[i - 1]!.end, all[i]!.start);
    if (/\n\s*(?:\d+[.)]|[-*+])\s+$/.test(gap)) picked.add(i);
    else if (gap.includes('\n')) break;
  }
  const covered = new Set([...picked].flatMap((i) => [...holds[i]!.keys()].filter((g) => holds[i]![g])));
  let extra = -1;
  for (let i = 0; i < all.length; i++)
    if (!picked.has(i) && !short(i) && score(i, covered) > (extra < 0 ? 0 : score(extra, covered))) extra = i;
  if (extra >= 0 && picked.size < 3) picked.add(extra);
  for (const plan of named) {
    const at = all.findIndex((q) => termsOf(q.plain).has(plan));
    if (at >= 0 && ![...picked].some((i) => termsOf(all[i]!.plain).has(plan))) picked.add(at);
  }
  return [...picked].sort((x, y) => x - y).map((i) => all[i]!);
}

/** Percent-encodes a text directive's term (also `-`, `,` and `&`, which the syntax reserves). */
const fragmentTerm = (s: string) => encodeURIComponent(s).replace(/-/g, '%2D');

/** `#:~:text=` for a sentence: whole when short, else its first and last words (textStart,textEnd). */
export function textFragment(plain: string): string {
  const ws = plain.split(' ');
  if (ws.length <= 8) return `:~:text=${fragmentTerm(plain)}`;
  return `:~:text=${fragmentTerm(ws.slice(0, 4).join(' '))},${fragmentTerm(ws.slice(-4).join(' '))}`;
}

/** A source: the section, its URL landing on it (anchor, and the first quoted sentence's text fragment). */
export function sourceOf(index: AskIndex, section: number, role: AskSourceOut['role'], quote?: Quote): AskSourceOut {
  const page = index.pageOf(section);
  const anchor = index.anchor(section);
  const fragment = quote && !quote.row ? textFragment(quote.plain) : '';
  const hash = anchor || fragment ? `#${anchor ?? ''}${fragment}` : '';
  const { slug, title } = page;
  return { slug, title, heading: index.heading(section), url: `${page.url}${hash}`, text: index.text(section), role };
}

/** The header row and rule line of the table a row at `at` of a section belongs to (a row alone loses its columns). */
function tableHead(index: AskIndex, section: number, at: number): string | undefined {
  const ranges = index.sentences(section);
  let header: number | undefined;
  // Stryker disable next-line EqualityOperator: the range starting at `at` is the row itself, never a header
  for (let i = 0; ranges[i]! < at; i += 3) if (ranges[i + 2] === 2) header = i;
  if (header === undefined) return undefined;
  const text = index.text(section);
  // Up to the line break after the rule line under the header row.
  return text.slice(ranges[header]!, text.indexOf('\n', text.indexOf('\n', ranges[header + 1]!) + 1));
}

/** Quotes as answer text: sentences that follow each other are one run of the text; rows one table under its header. */
export function joinQuotes(index: AskIndex, quotes: readonly Quote[]): string {
  const runs: { section: number; start: number; end: number; rows?: string[]; head?: string }[] = [];
  for (const q of quotes) {
    const last = runs.at(-1);
    const text = index.text(q.section);
    if (q.row) {
      const head = tableHead(index, q.section, q.start);
      const row = text.slice(q.start, q.end);
      if (last?.rows && last.section === q.section && last.head === head) last.rows.push(row);
      else runs.push({ section: q.section, start: q.start, end: q.end, rows: [row], ...(head ? { head } : {}) });
      continue;
    }
    // Stryker disable next-line EqualityOperator: a sentence never starts where the last ends (a space is between)
    const follows = last?.section === q.section && !last.rows && q.start >= last.end;
    if (follows && !text.slice(last.end, q.start).includes('\n')) last.end = q.end;
    else runs.push({ section: q.section, start: q.start, end: q.end });
  }
  return runs
    .map((r) => (r.rows ? [r.head, ...r.rows].filter(Boolean).join('\n') : index.text(r.section).slice(r.start, r.end)))
    .join('\n\n');
}

/** The question's words the site has on no page, as the visitor typed them ("SOC" of "SOC 2"). */
export function unknownWords(question: string, groups: readonly TermGroup[]): string[] {
  const typed = [...question.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
  return groups.filter((g) => g.unknown).map((g) => typed.find((t) => fold(t) === g.word) ?? g.word);
}

/** Related sections but `skip`: each part's candidates within `margin` (log-odds) of its best, nearest it first. */
export function relatedOf(parts: readonly (readonly Ranked[])[], skip: ReadonlySet<number> = new Set(), margin = 3) {
  const near = parts.flatMap((ranked) => ranked.map((r) => [ranked[0]!.score - r.score, r.section] as const));
  const kept = near.filter(([gap, s]) => gap <= margin && !skip.has(s)).sort((a, b) => a[0] - b[0]);
  return [...new Set(kept.map(([, s]) => s))];
}
