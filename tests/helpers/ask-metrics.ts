/**
 * The assistant's judged question set (tests/data/ask-judged.json, and the held-out fifth in ask-held-out.json,
 * written from the content alone by someone who did not write the assistant) and its scores: answer@1 and
 * answer@3 on fact questions, two-part questions with every part in the top 3, absent-correct, handoff-correct
 * by intent, pricing arithmetic, and the no-answer rate on answerable questions. `npm test` holds floors on
 * them (tests/core/ask.judged.test.ts); `npm run bench` reports them beside a plain MiniSearch baseline.
 */
import { readFileSync } from 'node:fs';
import { type AskIndex, type AskSource, askIndexOf, straightQuotes } from '../../src/core/ask/index.ts';
import type { AskResult, AskTurn } from '../../src/core/ask/answer.ts';
import { NO_ANSWER, NO_ANSWER_RELATED } from '../../src/core/ask/answer.ts';
import { questionParts } from '../../src/core/ask/question.ts';
import { plainOf, splitSentences } from '../../src/core/ask/sections.ts';
import { workingSentence } from '../../src/core/ask/pricing.ts';
import type { Pricing } from '../../src/contract/content.ts';
import { ASK_ASKED, type AskedQuestion, learningFrom } from '../../src/build/ask-hints.ts';
import type { ContentSource } from '../../src/core/content-source.ts';

export interface SectionRef {
  slug: string;
  heading: string | null;
}

export interface JudgedQuestion {
  id: string;
  question: string;
  kind: 'fact' | 'two-part' | 'pricing' | 'absent' | 'handoff' | 'follow-up';
  answers?: SectionRef[];
  parts?: SectionRef[][];
  related?: SectionRef[];
  intent?: 'demo' | 'contact' | 'callback' | 'message';
  expect?: { monthly?: number; annual?: number };
  conversation?: { question: string; sources: SectionRef[] }[];
}

export interface JudgedSet {
  about: string;
  questions: JudgedQuestion[];
}

/**
 * The judged sets, each written from the content alone by a helper who did not write the assistant, and how each
 * has been used: those marked `clean` are the held-out measure (written after the assistant's last change to its
 * ranking, scored once, never tuned to).
 */
export const ASK_SETS = [
  { set: 'tuning', file: 'ask-judged.json', use: 'tuned to (session 6)', learned: true },
  { set: 'held-out', file: 'ask-held-out.json', use: 'held out in session 6; seen since', learned: true },
  {
    set: 'held-out-2',
    file: 'ask-held-out-2.json',
    use: 'written in session 7, scored untuned, then tuned to',
    learned: true,
  },
  {
    set: 'held-out-3',
    file: 'ask-held-out-3.json',
    use: 'written in session 7, scored untuned, then tuned to',
    learned: true,
  },
  {
    set: 'held-out-4',
    file: 'ask-held-out-4.json',
    use: "written in session 7, scored untuned (session 7's clean measure), its misses read in session 8",
    learned: true,
  },
  {
    set: 'held-out-5',
    file: 'ask-held-out-5.json',
    use: "written in session 7, scored untuned (session 7's clean measure), its misses read in session 8",
    learned: true,
  },
  {
    set: 'held-out-6',
    file: 'ask-held-out-6.json',
    use: "written in session 8 after the assistant's last change to its ranking, scored once; its two handoff misses and one price miss fixed since, its ranking never tuned to (its figures seen in session 9, not tuned to); learned from since session 10",
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-7',
    file: 'ask-held-out-7.json',
    use: 'written in session 8 after the last change to the assistant, scored once (clean in session 8); its misses read in session 9',
    learned: true,
  },
  {
    set: 'held-out-8',
    file: 'ask-held-out-8.json',
    use: 'written in session 9 before the search hints and the last change to the assistant, scored once, never tuned to; learned from since session 10',
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-9',
    file: 'ask-held-out-9.json',
    use: "written in session 9 after the assistant's last change, scored once, never tuned to; learned from since session 10",
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-10',
    file: 'ask-held-out-10.json',
    use: 'written in session 10 before the assistant learned from the other sets, scored once after (clean: answer@1 0.68, answer@3 0.77, absent 1.00, no-answer 0.09), its misses read, learned from since',
    learned: true,
  },
  {
    set: 'held-out-11',
    file: 'ask-held-out-11.json',
    use: "written in session 10 before the assistant's last change, scored once after it (answer@1 0.74, answer@3 0.83, absent 0.75, no-answer 0.12); its one handoff and one price miss fixed since, its ranking never tuned to; learned from since",
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-12',
    file: 'ask-held-out-12.json',
    use: "written in session 10 after held-out-11's score, before the assistant's last change, scored once after it (answer@1 0.87, answer@3 0.90, two-part 0.88, absent 1.00, no-answer 0.08); its two handoff misses fixed since, its ranking never tuned to; learned from since session 11",
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-13',
    file: 'ask-held-out-13.json',
    use: 'written in session 11 before its first change, scored once after one (answer@1 0.69, answer@3 0.81, two-part 0.75, absent 1.00, handoff 0.92, no-answer 0.12); its handoff miss and two misses read since (a number with a thousands separator, the quoted section holding the question), learned from since',
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-14',
    file: 'ask-held-out-14.json',
    use: 'written in session 11 before its changes, scored once after the hint change (answer@1 0.78, answer@3 0.83, two-part 0.88, absent 1.00, handoff 1.00, no-answer 0.07); its misses read since (message context, ", or can i", ring us, liability), learned from since',
    clean: true,
    learned: true,
  },
  {
    set: 'held-out-15',
    file: 'ask-held-out-15.json',
    use: "written in session 11 during its changes, committed unscored, scored once after its last ranking change (answer@1 0.90, answer@3 0.97, two-part 0.88, absent 1.00, handoff 1.00, pricing 0.75, no-answer 0.01); its two price misses fixed since (a plan named before 'going'/'upfront', a whole year), its ranking never tuned to, never learned from",
    clean: true,
  },
] as const satisfies readonly { set: string; file: string; use: string; clean?: true; learned?: true }[];
/** The clean sets: written after a change to the assistant's rules, scored once, its rules never tuned to them. */
export const CLEAN_SETS = ASK_SETS.filter((x) => 'clean' in x && x.clean);
/**
 * The sets whose questions the assistant learns from (src/build/ask-asked.json, askedFrom): each question's words
 * become hints of the sections judged to answer it. Each is scored on an index that leaves its own questions out
 * (`learnedIndex`), so its figures are those of questions the assistant has not seen.
 */
export const LEARNED_SETS = ASK_SETS.filter((x) => 'learned' in x && x.learned);
export type AskSetName = (typeof ASK_SETS)[number]['set'];

export const loadJudged = (file: string): JudgedSet =>
  JSON.parse(readFileSync(new URL(`../data/${file}`, import.meta.url), 'utf8')) as JudgedSet;

/** A build's pages as the ask index reads them (to index them again in memory). */
export function askSourcesOf(content: ContentSource): AskSource[] {
  return content.entries().map((e) => {
    const p = content.page(e.slug)!;
    return { slug: p.slug, title: p.title, url: p.url, markdown: p.markdown, kind: e.kind };
  });
}

/** The index a set is scored on: the pages with the hints and every learned question but the set's own. */
export function learnedIndex(pages: readonly AskSource[], set: string): AskIndex {
  return askIndexOf(pages, learningFrom(ASK_ASKED.filter((q) => q.set !== set)));
}

/**
 * What the assistant learns from the learned sets (src/build/ask-asked.json, `npm run ask:learn`): each question
 * with the sections judged to answer it. A two-part question is learned part by part (split as the assistant
 * splits it, each part with its own sections; whole, when the split does not give its parts), a follow-up after its
 * earlier turn's question (as the assistant reads it) with the sections that answer it in that conversation, an
 * absent question with none (a known gap of the site). Not pricing (worked out from the price list) or handoff
 * questions (a request for a person).
 */
export function askedFrom(sets: readonly { set: string; file: string }[]): AskedQuestion[] {
  return sets.flatMap((x) =>
    loadJudged(x.file).questions.flatMap((q): AskedQuestion[] => {
      const one = (question: string, sections: SectionRef[], id = q.id) => ({ set: x.set, id, question, sections });
      if (q.kind === 'fact' && q.answers?.length) return [one(q.question, q.answers)];
      if (q.kind === 'follow-up' && q.answers?.length) {
        const earlier = q.conversation?.at(-1)?.question;
        return [earlier ? { ...one(q.question, q.answers), earlier } : one(q.question, q.answers)];
      }
      if (q.kind === 'absent') return [one(q.question, [])];
      if (q.kind !== 'two-part' || !q.parts?.length) return [];
      const split = questionParts(q.question);
      if (split.length !== q.parts.length) return [one(q.question, q.parts.flat())];
      return split.map((part, i) => one(part, q.parts![i]!, `${q.id}/${i + 1}`));
    }),
  );
}

const key = (h: string | null) =>
  h === null ? null : straightQuotes(plainOf(h)).toLowerCase().replace(/\s+/g, ' ').trim();

/** The index's section for a judged reference (slug and heading as the content writes it), or undefined. */
export function sectionOf(index: AskIndex, ref: SectionRef): number | undefined {
  const want = key(ref.heading);
  for (const i of index.sectionsOf(ref.slug)) {
    const h = index.heading(i);
    if (key(h) === want) return i;
  }
  return undefined;
}

/** A source's section in the index. */
const sourceSection = (index: AskIndex, s: { slug: string; heading: string | null }) => sectionOf(index, s);

/** The judged references no section of the index has (the set must name only real sections). */
export function unmatched(index: AskIndex, set: JudgedSet): string[] {
  const out: string[] = [];
  for (const q of set.questions) {
    const refs = [...(q.answers ?? []), ...(q.parts ?? []).flat()];
    for (const r of refs) if (sectionOf(index, r) === undefined) out.push(`${q.id}: ${r.slug} # ${r.heading}`);
    // An earlier turn's sources only name its pages for the follow-up (a heading with no text of its own, such as
    // a "## Features" right above its "###"s, is no section of the index but still a page the turn cited).
    for (const r of (q.conversation ?? []).flatMap((t) => t.sources))
      if (!index.sectionsOf(r.slug).length) out.push(`${q.id}: ${r.slug} (earlier turn)`);
  }
  return out;
}

export interface Scored {
  q: JudgedQuestion;
  r: AskResult;
  /** For fact and follow-up questions: rank (1-based) of the first judged section in `sources`, 0 when none. */
  rank?: number;
  correct: boolean;
}

export interface AskScores {
  counts: Record<string, number>;
  answerAt1: number;
  answerAt3: number;
  twoPart: number;
  absentCorrect: number;
  handoffCorrect: number;
  handoffByIntent: Record<string, number>;
  pricingCorrect: number;
  noAnswerRate: number;
  /** Sentences shown that are not in their cited sections (must be 0). */
  invented: string[];
  failures: Scored[];
}

export type Asker = (question: string, conversation?: AskTurn[]) => AskResult;

const ratio = (n: number, d: number) => (d ? n / d : 1);

/** Scores an asker over a judged set. */
export function scoreAsk(index: AskIndex, set: JudgedSet, ask: Asker, pricing?: Pricing): AskScores {
  const counts: Record<string, number> = {};
  const scored: Scored[] = [];
  let at1 = 0;
  let at3 = 0;
  let facts = 0;
  let twoOk = 0;
  let twos = 0;
  let absentOk = 0;
  let absents = 0;
  const byIntent: Record<string, [number, number]> = {};
  let priceOk = 0;
  let prices = 0;
  let unanswered = 0;
  let answerable = 0;
  const invented: string[] = [];
  for (const q of set.questions) {
    counts[q.kind] = (counts[q.kind] ?? 0) + 1;
    const r = ask(q.question, q.conversation);
    if (pricing) invented.push(...inventedSentences(r, pricing).map((s) => `${q.id}: ${s}`));
    const top = r.sources.map((s) => sourceSection(index, s));
    const judged = new Set((q.answers ?? []).map((a) => sectionOf(index, a)));
    if (q.kind !== 'absent' && q.kind !== 'handoff') {
      answerable++;
      if (!r.answered) unanswered++;
    }
    if (q.kind === 'fact' || q.kind === 'follow-up') {
      facts++;
      const rank = r.answered ? top.findIndex((s) => s !== undefined && judged.has(s)) + 1 : 0;
      if (rank === 1) at1++;
      if (rank >= 1 && rank <= 3) at3++;
      scored.push({ q, r, rank, correct: rank === 1 });
    } else if (q.kind === 'two-part') {
      twos++;
      const ok =
        r.answered &&
        (q.parts ?? []).every((part) => {
          const want = new Set(part.map((p) => sectionOf(index, p)));
          return top.slice(0, 3).some((s) => s !== undefined && want.has(s));
        });
      if (ok) twoOk++;
      scored.push({ q, r, correct: ok });
    } else if (q.kind === 'absent') {
      absents++;
      if (!r.answered) absentOk++;
      scored.push({ q, r, correct: !r.answered });
    } else if (q.kind === 'handoff') {
      const e = (byIntent[q.intent!] ??= [0, 0]);
      e[1]++;
      const ok = r.handoff?.intent === q.intent;
      if (ok) e[0]++;
      scored.push({ q, r, correct: ok });
    } else if (q.kind === 'pricing') {
      prices++;
      const w = r.working;
      const ok =
        r.answered &&
        w !== undefined &&
        (q.expect?.monthly === undefined || w.monthly === q.expect.monthly) &&
        (q.expect?.annual === undefined || w.annual === q.expect.annual);
      if (ok) priceOk++;
      scored.push({ q, r, correct: ok });
    }
  }
  const intents = Object.values(byIntent);
  return {
    counts,
    answerAt1: ratio(at1, facts),
    answerAt3: ratio(at3, facts),
    twoPart: ratio(twoOk, twos),
    absentCorrect: ratio(absentOk, absents),
    handoffCorrect: ratio(
      intents.reduce((a, [ok]) => a + ok, 0),
      intents.reduce((a, [, n]) => a + n, 0),
    ),
    handoffByIntent: Object.fromEntries(Object.entries(byIntent).map(([k, [ok, n]]) => [k, ratio(ok, n)])),
    pricingCorrect: ratio(priceOk, prices),
    noAnswerRate: ratio(unanswered, answerable),
    invented,
    failures: scored.filter((s) => !s.correct),
  };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The sentences of an answer that are not in a cited section: every sentence of an answered question's answer
 * must occur in the text of a source with role `answer`, but for the pricing working, which is recomputed from
 * the price list and must quote only prices its cited sections state. An unanswered question's answer is the
 * one no-answer sentence (or the handoff's label) and the related sections' links.
 */
export function inventedSentences(r: AskResult, pricing: Pricing): string[] {
  const out: string[] = [];
  const cited = r.sources.filter((s) => s.role === 'answer').map((s) => squash(s.text));
  if (!r.answered) {
    const [first, ...rest] = r.answer.split('\n\n');
    const lead = first!.replace(` ${NO_ANSWER_RELATED}`, '');
    if (lead !== NO_ANSWER && lead !== r.handoff?.label) out.push(lead);
    const links = new Set(r.sources.map((s) => s.url));
    for (const line of rest.join('\n').split('\n').filter(Boolean)) {
      const m = /^- \[[^\]]*\]\(([^)]+)\)$/.exec(line);
      if (!m || !links.has(m[1]!)) out.push(line);
    }
    return out;
  }
  for (const para of r.answer.split('\n\n')) {
    if (r.working && para === workingSentence(r.working)) {
      out.push(...unfoundedWorking(r, pricing, cited));
      continue;
    }
    // A paragraph of the answer is one run of a section's text (sentences that follow each other there).
    const quoted = squash(para);
    if (!cited.some((t) => t.includes(quoted))) {
      for (const { start, end } of splitSentences(para)) {
        const sentence = squash(para.slice(start, end));
        out.push(cited.some((t) => t.includes(sentence)) ? `(not one run of its section) ${sentence}` : sentence);
      }
    }
  }
  return out;
}

/** What is wrong with a pricing working: a price not the price list's, or in no cited section, or a wrong sum. */
function unfoundedWorking(r: AskResult, pricing: Pricing, cited: string[]): string[] {
  const w = r.working!;
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
