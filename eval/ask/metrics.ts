/**
 * @module The chat's figures on judged questions (eval/ask/sets): any asker (the product engine, a baseline) is
 * scored from its responses alone, sections matched by slug and normalised heading (sections.ts `sectionKey`).
 * Every figure is a count over its own denominator (`Ratio`); README.md beside this file says what each means.
 */
import { type AskResponse, AskResponseSchema } from '../../src/contract/ask.ts';
import type { Pricing } from '../../src/contract/content.ts';
import { ENGINE_WORDS } from './engine.ts';
import { sectionKey } from './sections.ts';
import type { SectionRef, SetQuestion } from './sets.ts';

/** Why an engine did not answer (the rebuilt engine adds it; today's has none). */
export type AskReason = 'answered' | 'no-match' | 'known-gap' | 'handoff';

/** A response as POST /api/v1/ask sends it (the contract's AskResponse), with the engine's `reason` when it has one. */
export type AskReply = Omit<AskResponse, 'reason'> & { reason?: AskReason };

/** An earlier turn of a conversation, as the request carries it. */
export interface AskTurnIn {
  question: string;
  sources?: readonly SectionRef[];
}

/** Something that answers questions as the API does. */
export type Asker = (question: string, conversation?: readonly AskTurnIn[]) => AskReply;

/** `ok` of `of` questions (a figure with no question to count is `of: 0`, shown as n/a). */
export interface Ratio {
  ok: number;
  of: number;
}

/** A ratio's share, or null when it counts no question. */
export const share = (r: Ratio): number | null => (r.of ? r.ok / r.of : null);

/** One question's outcome. */
export interface Scored {
  q: SetQuestion;
  r: AskReply;
  /** What is wrong with the response (none: it is right). */
  problems: string[];
}

/** An asker's figures on some questions (README.md: what each counts). */
export interface AskFigures {
  questions: number;
  counts: Record<string, number>;
  answerAt1: Ratio;
  answerAt3: Ratio;
  twoPart: Ratio;
  absentCorrect: Ratio;
  handoffCorrect: Ratio;
  handoffByIntent: Record<string, Ratio>;
  falseHandoffs: Ratio;
  noAnswer: Ratio;
  answeredWrong: Ratio;
  pricingCorrect: Ratio;
  /** Sentences shown that are not in their cited sections (must be 0). */
  invented: number;
  /** Responses that do not match the contract's AskResponseSchema (must be 0). */
  schemaFailures: number;
}

export interface AskScores extends AskFigures {
  /** Every question with a problem, in order. */
  failures: Scored[];
}

const ANSWERABLE = new Set(['fact', 'follow-up', 'two-part', 'pricing']);

/** The figures that are ratios. */
const RATIOS = [
  'answerAt1',
  'answerAt3',
  'twoPart',
  'absentCorrect',
  'handoffCorrect',
  'falseHandoffs',
  'noAnswer',
  'answeredWrong',
  'pricingCorrect',
] as const;
type RatioName = (typeof RATIOS)[number];
const eachRatio = (f: (k: RatioName) => Ratio) =>
  Object.fromEntries(RATIOS.map((k) => [k, f(k)])) as Record<RatioName, Ratio>;

/**
 * Whether a response hands off other than as the plain no-answer fallback: it names a person to hand over to
 * (`handoff` set) and either answers too (a person offered beside an answer: an intent read into the question), or
 * does not answer because of the handoff: `reason: 'handoff'`, or, from an engine that gives no `reason`, an answer
 * that starts with the handoff's label (a pure handoff; the fallback starts with the no-answer sentence). The plain
 * fallback (unanswered with `reason` 'no-match' or 'known-gap', or without `reason` an answer not starting with
 * the label) is no handoff here. A false handoff is this on a question that asks for no person (any kind but
 * `handoff`).
 */
export function handsOff(r: AskReply): boolean {
  if (!r.handoff) return false;
  if (r.answered) return true;
  if (r.reason !== undefined) return r.reason === 'handoff';
  return r.answer.startsWith(r.handoff.label);
}

const refKeys = (refs: readonly SectionRef[] | undefined) => new Set((refs ?? []).map(sectionKey));

/** Scores an asker over judged questions (pricing: the price list the never-invent check reads). */
export function scoreAsk(questions: readonly SetQuestion[], ask: Asker, pricing: Pricing): AskScores {
  const zero = (): Ratio => ({ ok: 0, of: 0 });
  const f = eachRatio(zero);
  const count = (r: Ratio, ok: boolean) => {
    r.of++;
    if (ok) r.ok++;
  };
  const counts: Record<string, number> = {};
  const byIntent: Record<string, Ratio> = {};
  const scored: Scored[] = [];
  let invented = 0;
  let schemaFailures = 0;
  for (const q of questions) {
    counts[q.kind] = (counts[q.kind] ?? 0) + 1;
    const r = ask(q.question, q.conversation);
    const problems: string[] = [];
    const made = inventedSentences(r, pricing);
    invented += made.length;
    problems.push(...made.map((s) => `invented: ${s}`));
    const valid = AskResponseSchema.safeParse(r);
    if (!valid.success) {
      schemaFailures++;
      problems.push(`schema: ${valid.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
    const keys = r.sources.map(sectionKey);
    const firstAnswer = r.sources.find((s) => s.role === 'answer');
    if (ANSWERABLE.has(q.kind)) {
      count(f.noAnswer, !r.answered);
      if (!r.answered) problems.push('not answered');
    }
    if (q.kind !== 'handoff') {
      count(f.falseHandoffs, handsOff(r));
      if (handsOff(r)) problems.push(`false handoff (${r.handoff?.intent})`);
    }
    if (q.kind === 'fact' || q.kind === 'follow-up') {
      const judged = refKeys(q.answers);
      const rank = r.answered ? keys.findIndex((k) => judged.has(k)) + 1 : 0;
      count(f.answerAt1, rank === 1);
      count(f.answerAt3, rank >= 1 && rank <= 3);
      const wrong = r.answered && !(firstAnswer && judged.has(sectionKey(firstAnswer)));
      count(f.answeredWrong, wrong);
      if (r.answered && rank !== 1) problems.push(rank ? `judged section at rank ${rank}` : 'no judged section');
      if (wrong) problems.push('answered from a section not judged to answer');
    } else if (q.kind === 'two-part') {
      const parts = (q.parts ?? []).map(refKeys);
      const top3 = keys.slice(0, 3);
      const missing = parts.filter((p) => !top3.some((k) => p.has(k))).length;
      count(f.twoPart, r.answered && missing === 0);
      const any = new Set(parts.flatMap((p) => [...p]));
      const wrong = r.answered && r.sources.some((s) => s.role === 'answer' && !any.has(sectionKey(s)));
      count(f.answeredWrong, wrong);
      if (r.answered && missing) problems.push(`${missing} part(s) with no section in the top 3`);
      if (wrong) problems.push('quotes a section of no part');
    } else if (q.kind === 'absent') {
      count(f.absentCorrect, !r.answered);
      if (r.answered) problems.push('answered a question the site does not answer');
    } else if (q.kind === 'handoff') {
      const ok = r.handoff?.intent === q.intent;
      count(f.handoffCorrect, ok);
      count((byIntent[q.intent ?? 'none'] ??= zero()), ok);
      if (!ok) problems.push(`handoff ${r.handoff?.intent ?? 'none'}, not ${q.intent}`);
    } else if (q.kind === 'pricing') {
      const w = r.working;
      const ok =
        r.answered &&
        w !== undefined &&
        (q.expect?.monthly === undefined || w.monthly === q.expect.monthly) &&
        (q.expect?.annual === undefined || w.annual === q.expect.annual);
      count(f.pricingCorrect, ok);
      if (!ok) problems.push(`working ${w ? `${w.monthly}/${w.annual}` : 'none'}, not ${JSON.stringify(q.expect)}`);
    }
    scored.push({ q, r, problems });
  }
  return {
    questions: questions.length,
    counts,
    ...f,
    handoffByIntent: byIntent,
    invented,
    schemaFailures,
    failures: scored.filter((s) => s.problems.length),
  };
}

/** The figures alone (no response), as the runner prints and records them. */
export function figuresOf({ failures: _, ...figures }: AskScores): AskFigures {
  return figures;
}

/** The figures of several question sets together (each figure a count: they add up). */
export function sumFigures(all: readonly AskFigures[]): AskFigures {
  const add = (a?: Ratio, b?: Ratio): Ratio => ({ ok: (a?.ok ?? 0) + (b?.ok ?? 0), of: (a?.of ?? 0) + (b?.of ?? 0) });
  const merge = <T>(a: Record<string, T>, b: Record<string, T>, plus: (x?: T, y?: T) => T) =>
    Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, plus(a[k], b[k])]));
  const plus = (a: AskFigures, b: AskFigures): AskFigures => ({
    questions: a.questions + b.questions,
    counts: merge(a.counts, b.counts, (x = 0, y = 0) => x + y),
    ...eachRatio((k) => add(a[k], b[k])),
    handoffByIntent: merge(a.handoffByIntent, b.handoffByIntent, add),
    invented: a.invented + b.invented,
    schemaFailures: a.schemaFailures + b.schemaFailures,
  });
  const zero = { questions: 0, counts: {}, handoffByIntent: {}, invented: 0, schemaFailures: 0 };
  return all.reduce(plus, { ...zero, ...eachRatio(() => add()) });
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const segmenter = new Intl.Segmenter('en-AU', { granularity: 'sentence' });

/**
 * The sentences of a response that are not in a cited section: every paragraph of an answered question's answer
 * must be one run of the text of a source with role `answer`, but for the pricing working, which is recomputed from
 * the price list and must quote only prices its cited sections state. An unanswered question's answer is the
 * engine's one no-answer sentence (or the handoff's label) and the links of its sources.
 */
export function inventedSentences(r: AskReply, pricing: Pricing): string[] {
  const out: string[] = [];
  const cited = r.sources.filter((s) => s.role === 'answer').map((s) => squash(s.text));
  if (!r.answered) {
    const [first = '', ...rest] = r.answer.split('\n\n');
    const lead = first.replace(` ${ENGINE_WORDS.relatedLead}`, '');
    if (lead !== ENGINE_WORDS.noAnswer && lead !== r.handoff?.label) out.push(lead);
    const links = new Set(r.sources.map((s) => s.url));
    for (const line of rest.join('\n').split('\n').filter(Boolean)) {
      const m = /^- \[[^\]]*\]\(([^)]+)\)$/.exec(line);
      if (!m || !links.has(m[1]!)) out.push(line);
    }
    return out;
  }
  for (const para of r.answer.split('\n\n')) {
    if (r.working && para === ENGINE_WORDS.working(r.working)) {
      out.push(...unfoundedWorking(r.working, pricing, cited));
      continue;
    }
    // A paragraph of the answer is one run of a section's text (sentences that follow each other there), or the
    // engine's sentence naming a part it does not answer (quoting the visitor).
    if (cited.some((t) => t.includes(squash(para)))) continue;
    // A table: its header row and the rows quoted, each a line of one cited section.
    const lines = para.split('\n');
    if (lines.every((l) => l.startsWith('|')) && cited.some((t) => lines.every((l) => t.includes(squash(l))))) continue;
    if (para === ENGINE_WORDS.partUnanswered(para.replace(/^.*?“(.*)”.*$/s, '$1'))) continue;
    for (const { segment } of segmenter.segment(para)) {
      const sentence = squash(segment);
      if (sentence)
        out.push(cited.some((t) => t.includes(sentence)) ? `(not one run of its section) ${sentence}` : sentence);
    }
  }
  return out;
}

type Working = NonNullable<AskReply['working']> & { yearBilled?: 'annually' | 'monthly' };

/** What is wrong with a pricing working: a price not the price list's, or in no cited section, or a wrong sum. */
function unfoundedWorking(w: Working, pricing: Pricing, cited: string[]): string[] {
  const out: string[] = [];
  const price = (item: string) =>
    pricing.plans.find((p) => `${p.name} plan` === item)?.monthly ?? pricing.addOns.find((a) => a.name === item)?.price;
  for (const l of w.lines) {
    if (price(l.item) !== l.unitPrice) out.push(`${l.item}: ${l.unitPrice} is not the price list's ${price(l.item)}`);
    if (l.amount !== l.quantity * l.unitPrice) out.push(`${l.item}: ${l.quantity} x ${l.unitPrice} != ${l.amount}`);
    const shown = `$${l.unitPrice.toLocaleString('en-AU')}`;
    if (!cited.some((t) => t.includes(shown))) out.push(`${l.item}: ${shown} is in no cited section`);
  }
  const sum = w.lines.reduce((a, l) => a + l.amount, 0);
  if (sum !== w.monthly) out.push(`total ${w.monthly} != ${sum}`);
  const months = w.yearBilled === 'monthly' ? 12 : pricing.annualBilling.monthsCharged;
  if (w.annual !== undefined && w.annual !== w.monthly * months)
    out.push(`annual ${w.annual} != ${months} x ${w.monthly}`);
  return out;
}
