/**
 * @module askSite: the assistant. Extractive and deterministic: it ranks the site's sections for the question
 * (BM25 over heading and body with the site's analyzer, src/core/ask/question.ts for how questions are read),
 * quotes the sentences of the best sections that hold the question's words, and links each section (its anchor
 * plus a text fragment for the quoted sentence). It answers only when one section holds the question's words:
 * otherwise it says so in one sentence, lists what is related as related, and offers a person. Pricing arithmetic
 * comes from the price list with its working (src/core/ask/pricing.ts), each price cited. The answer is built
 * here, in one place, from quoted sentences only: a later model could only rephrase behind the same check.
 */
import type { Plan, Pricing } from '../../contract/content.ts';
import { termOf, words, isStopWord } from '../search/analyze.ts';
import { type Handoff, handoffFor, handoffIntent, isSupportRequest } from './handoff.ts';
import { type AskIndex, inContext, type NearestAsked } from './index.ts';
import { comparedPlans, dollars, priceQuestion, type Working, workingSentence } from './pricing.ts';
import {
  isFollowUp,
  messageGroups as analyseMessage,
  questionParts,
  type TermGroup,
  termGroups as analyseTerms,
} from './question.ts';
import { plainOf } from './sections.ts';

export interface AskTurn {
  question: string;
  sources?: readonly { slug: string; heading: string | null }[];
}

export interface AskInput {
  question: string;
  conversation?: readonly AskTurn[];
}

export interface AskSourceOut {
  slug: string;
  title: string;
  heading: string | null;
  url: string;
  text: string;
  role: 'answer' | 'related';
}

export interface AskResult {
  question: string;
  answered: boolean;
  answer: string;
  sources: AskSourceOut[];
  handoff: Handoff | null;
  mode: 'extractive';
  working?: Working;
}

export interface AskDeps {
  index: AskIndex;
  pricing: Pricing;
  /** The site's origin (handoff URLs). */
  origin: string;
  /** Now, ms since the epoch (the handoff's label fits the hour). */
  now: number;
}

/** The one sentence of an answer when the site has none (the only words of an answer not quoted from the site). */
export const NO_ANSWER = "The Kartage website doesn't answer that, so I won't guess.";
/** The sentence before the related sections' list, when there are some. */
export const NO_ANSWER_RELATED = 'These pages are related but do not answer it:';

const MAX_SOURCES = 5;

/** The ranking's and the answer decision's settings (tuned on the development sets, never on a clean one). */
export const ASK_TUNING = {
  k1: 1.2,
  b: 0.9,
  /** A heading word counts as this many body words. */
  headingWeight: 6,
  /**
   * Share of the question's weight one section must hold to answer it. 0.55 since the search hints
   * (src/build/ask-hints.json) made paraphrases match; 0.58 since the development sets' questions are learned
   * (src/build/ask-asked.json): chosen leaving each development set out of what is learned in turn, where it keeps
   * absent questions unanswered as often as before and answers more of the rest (no-answer 0.11 -> 0.08). 0.62 since
   * the written questions (src/build/ask-questions.json, twelve a section) add a section's paraphrases: at 0.58 they
   * answered more absent questions (leaving each learned set out, absent-correct 0.897; with no asked question
   * learned, 0.654); at 0.62 0.928 and 0.729, answer@3 0.935 and 0.860 (0.939 and 0.870 at 0.58).
   */
  minCoverage: 0.62,
  /** What a word on no page weighs against the coverage, as a share of the rarest word's weight. */
  unknownWeight: 1.5,
  /** A word of the page title counts for its sections this much (of the word's weight). */
  titleShare: 0.75,
  /**
   * The answering section must hold every word of the question whose weight is at least this share of the
   * heaviest word's (the question's topic: "dark" in "does the crew app have a dark mode?"). Above 1: no such rule.
   */
  topicShare: 2,
  /**
   * A question (or a part of one) nearer a known gap of the site (a question asked before that no page answers,
   * src/build/ask-asked.json) than any learned question, and at least this near (AskIndex.nearestAsked), is not
   * answered. Leaving each judged set out in turn: absent-correct 0.746 -> 0.912, answer@1 0.800 -> 0.799.
   */
  gapSimilarity: 0.25,
  /**
   * A question that reads like a learned one at least this closely (AskIndex.nearestAsked) has that question's
   * sections first. Leaving each judged set out in turn: answer@1 0.730 -> 0.784, answer@3 0.850 -> 0.862,
   * two-part 0.691 -> 0.770 at 0.35 (0.6: 0.759; 0.3: 0.785), the answer decision unchanged.
   */
  learnedSimilarity: 0.35,
  /**
   * A question at least this near a learned one whose sections the ranking found is answered from them even when
   * no section holds enough of its words (minCoverage): the learned question says that section answers it.
   * Leaving each judged set out in turn: answer@1 0.802 -> 0.822, answer@3 0.869 -> 0.890, no-answer 0.059 ->
   * 0.042, absent-correct the same (0.899); at 0.35 one more absent question was answered.
   */
  learnedAnswer: 0.4,
};

interface Ranked {
  section: number;
  score: number;
  coverage: number;
  /** Which groups it holds. */
  holds: boolean[];
  /** It holds every topic word of the question (ASK_TUNING.topicShare). */
  topical: boolean;
}

const T = ASK_TUNING;

/** The weight of a group: the idf of its rarest known term (an unknown word: a share of the rarest word's). */
function groupIdf(index: AskIndex, g: TermGroup): number {
  let best = 0;
  for (const t of g.terms) if (index.df(t) > 0) best = Math.max(best, index.idf(t));
  return (best || T.unknownWeight * index.idf('\u0000')) * g.weight;
}

/** How many of the best sections a ranking keeps (the answer, the related ones, a second part's). */
const KEEP = 20;
/** Sites with at least this many sections look up their common words instead of scanning them (see rank). */
const COMMON_FROM_SECTIONS = 2000;
/** A word in more than this share of the sections is common. */
const COMMON_SHARE = 0.1;
/** Most groups a question is read as (a bit each in a section's mask). */
const MAX_GROUPS = 31;

/**
 * Scratch space of the ranking, kept between questions (at 10,000 pages a question touches tens of thousands of
 * sections: one allocation per section made the garbage collector a fifth of the time). `scores` holds each
 * touched section's best score per group, `masks` which groups it holds; both are zeroed again after use.
 */
const scratch = {
  scores: new Float64Array(0),
  masks: new Uint32Array(0),
  touched: new Int32Array(0),
  titles: new Int32Array(0),
};

function scratchFor(sections: number, pages: number, groups: number) {
  if (scratch.masks.length < sections) {
    scratch.masks = new Uint32Array(sections);
    scratch.touched = new Int32Array(sections);
  }
  if (scratch.scores.length < sections * groups) scratch.scores = new Float64Array(sections * groups);
  if (scratch.titles.length < pages) scratch.titles = new Int32Array(pages);
  return scratch;
}

/** Sections ranked for the groups (the best KEEP, best first); `boost` multiplies the score of some pages' sections. */
function rank(index: AskIndex, all: readonly TermGroup[], boost?: ReadonlySet<string>): Ranked[] {
  const groups = all.slice(0, MAX_GROUPS);
  const G = groups.length;
  const N = index.sectionCount;
  const { scores, masks, touched, titles } = scratchFor(N, index.data.pages.length, G);
  const weights = groups.map((g) => groupIdf(index, g));
  // Optional groups (the site's words for a phrase) count only where a section holds them.
  const total = weights.reduce((a, b, gi) => a + (groups[gi]!.optional ? 0 : b), 0) || 1;
  const heaviest = Math.max(0, ...weights.filter((_, gi) => !groups[gi]!.optional));
  const lengths = index.data.lengths;
  const { k1, b, headingWeight } = T;
  const average = index.averageLength;
  let count = 0;
  const score = (s: number, gi: number, idf: number, tfBody: number, tfHeading: number) => {
    const tf = tfBody + headingWeight * tfHeading;
    const norm = 1 - b + (b * lengths[s]!) / average;
    const v = (idf * tf * (k1 + 1)) / (tf + k1 * norm);
    masks[s]! |= 1 << gi;
    const at = s * G + gi;
    if (v > scores[at]!) scores[at] = v;
  };
  // On a large site a word most sections hold ("move" on a movers' site) only adds to sections the question's
  // rarer words found: it is looked up in them (a binary search each) instead of touching a third of the site.
  const common = N >= COMMON_FROM_SECTIONS ? N * COMMON_SHARE : Number.POSITIVE_INFINITY;
  const late: { gi: number; term: string; idf: number; list: Int32Array }[] = [];
  for (let gi = 0; gi < G; gi++) {
    const g = groups[gi]!;
    for (const term of g.terms) {
      const list = index.postings(term);
      if (!list) continue;
      const idf = index.idf(term) * g.weight * (term === g.terms[0] ? 1 : 0.8);
      if (list.length / 3 > common) {
        late.push({ gi, term, idf, list });
        continue;
      }
      for (let i = 0; i < list.length; i += 3) {
        const s = list[i]!;
        if (masks[s] === 0) touched[count++] = s;
        score(s, gi, idf, list[i + 1]!, list[i + 2]!);
      }
    }
  }
  for (const { gi, idf, list } of late) {
    const n = list.length / 3;
    if (count === 0) {
      // Only common words: every section they name is a candidate.
      for (let i = 0; i < list.length; i += 3) {
        const s = list[i]!;
        if (masks[s] === 0) touched[count++] = s;
        score(s, gi, idf, list[i + 1]!, list[i + 2]!);
      }
      continue;
    }
    if (count * Math.log2(n) > n) {
      // Many candidates: one pass over the list, scoring the candidates it names.
      for (let i = 0; i < list.length; i += 3) {
        const s = list[i]!;
        if (masks[s] !== 0) score(s, gi, idf, list[i + 1]!, list[i + 2]!);
      }
      continue;
    }
    for (let k = 0; k < count; k++) {
      const s = touched[k]!;
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const at = list[mid * 3]!;
        if (at === s) {
          score(s, gi, idf, list[mid * 3 + 1]!, list[mid * 3 + 2]!);
          break;
        }
        if (at < s) lo = mid + 1;
        else hi = mid - 1;
      }
    }
  }
  // Which groups each page's title holds, from the titles' own index: set for the pages some title term names,
  // and cleared again after use.
  const rows = index.data.sections;
  const titled: number[] = [];
  for (let gi = 0; gi < G; gi++) {
    const g = groups[gi]!;
    if (g.optional) continue;
    for (const t of g.terms) {
      for (const page of index.pagesTitled(t)) {
        if (titles[page] === 0) titled.push(page);
        titles[page]! |= 1 << gi;
      }
    }
  }
  const best: Ranked[] = [];
  const better = (x: Ranked, y: Ranked) => x.score > y.score || (x.score === y.score && x.section < y.section);
  for (let k = 0; k < count; k++) {
    const section = touched[k]!;
    const page = rows[section]![0];
    const mask = masks[section]!;
    const fromTitle = titles[page]! & ~mask;
    let score = 0;
    let held = 0;
    let extra = 0;
    for (let gi = 0; gi < G; gi++) {
      const bit = 1 << gi;
      score += scores[section * G + gi]!;
      if (mask & bit) {
        if (groups[gi]!.optional) extra += weights[gi]!;
        else held += weights[gi]!;
      } else if (fromTitle & bit) {
        // A word of the page's title counts for its sections, a little ("does the crew app work offline?").
        score += 0.35 * weights[gi]!;
        held += T.titleShare * weights[gi]!;
      }
    }
    const holdsMask = mask | fromTitle;
    const coverage = Math.min(1, (held + extra) / (total + extra));
    const info = index.data.pages[page]!;
    if (boost?.has(info.slug)) score *= 1.3;
    if (info.listing) score *= 0.6;
    const r = {
      section,
      score: score * (0.25 + coverage * coverage),
      coverage,
      holds: [] as boolean[],
      topical: false,
    };
    if (best.length === KEEP && !better(r, best[KEEP - 1]!)) continue;
    r.holds = groups.map((_, gi) => (holdsMask & (1 << gi)) !== 0);
    r.topical = groups.every((g, gi) => g.optional || r.holds[gi] || weights[gi]! < T.topicShare * heaviest);
    let at = best.length;
    while (at > 0 && better(r, best[at - 1]!)) at--;
    best.splice(at, 0, r);
    if (best.length > KEEP) best.pop();
  }
  for (let k = 0; k < count; k++) {
    const s = touched[k]!;
    masks[s] = 0;
    scores.fill(0, s * G, s * G + G);
  }
  for (const page of titled) titles[page] = 0;
  return best;
}

/**
 * The ranking with the sections of the learned question the question reads most like first (in their order), when
 * it reads like one closely enough (ASK_TUNING.learnedSimilarity) and the ranking holds them.
 */
function learnedFirst(near: NearestAsked, ranked: Ranked[]): Ranked[] {
  if (near.similarity < T.learnedSimilarity) return ranked;
  const first = ranked.filter((r) => near.sections.includes(r.section));
  if (!first.length) return ranked;
  return [...first, ...ranked.filter((r) => !near.sections.includes(r.section))];
}

/** The ranking with its entry at `at` first (as it was when `at` is 0, or -1 for none). */
const toFront = (ranked: Ranked[], at: number): Ranked[] =>
  at <= 0 ? ranked : [ranked[at]!, ...ranked.filter((_, i) => i !== at)];

/**
 * The ranking with first its best section whose heading holds every word the visitor typed (not a word's
 * alternatives): the page asks the question as the visitor did ("How much does Kartage cost?" is the FAQ's own
 * question, not the product pages' "Plans", which "cost" also finds, nor a learned "how much does it cost to get
 * started?" about storage). Not for a follow-up, whose few words ("what plan are they on?") name a heading of many
 * pages. Leaving each learned set out: answer@1 0.862 -> 0.860 (two questions), the rest the same.
 */
function headingFirst(index: AskIndex, ranked: Ranked[], groups: readonly TermGroup[]): Ranked[] {
  const typed = groups.flatMap((g, gi) => (g.optional || g.unknown ? [] : [gi]));
  if (!typed.length) return ranked;
  const at = ranked.findIndex((r) => {
    const h = index.heading(r.section);
    // A section that does not hold every such word at all (heading, text or title) is passed over unread.
    if (!h || !typed.every((gi) => r.holds[gi])) return false;
    const terms = sentenceTerms(h);
    return typed.every((gi) => terms.has(groups[gi]!.terms[0]!));
  });
  return toFront(ranked, at);
}

/** The terms of a section's own text, its heading and its page's title (its hints left out). */
function ownTerms(index: AskIndex, section: number): Set<string> {
  const title = index.data.pages[index.pageOf(section)]!.title;
  return sentenceTerms(`${title} ${index.heading(section) ?? ''} ${plainOf(index.text(section))}`);
}

/**
 * A follow-up's ranking with, first, the first of its three best that holds as much of it and whose own text holds
 * its topic (its heaviest word), when the best holds the topic only through its hints: a follow-up has few words of
 * its own beside those it carries, and the answer is quoted from the section's own sentences, so "does that include
 * GST?" after a price is answered from the section that says GST, not from the pricing intro whose hints do. A
 * section a learned question put first gives way only to another section that question names; the page's title
 * counts as the section's own words ("and ironbark?" on Ironbark's page). (For every question, leaving each learned
 * set out: answer@1 0.862 -> 0.860, two-part 0.873 -> 0.864; for follow-ups as here, unchanged.)
 */
function quotedFirst(index: AskIndex, ranked: Ranked[], own: readonly TermGroup[], near: NearestAsked): Ranked[] {
  if (ranked.length < 2 || !own.length) return ranked;
  const weights = own.map((g) => groupIdf(index, g));
  const topic = own[weights.indexOf(Math.max(...weights))]!;
  if (topic.unknown) return ranked;
  const holds = (r: Ranked) => {
    const terms = ownTerms(index, r.section);
    return topic.terms.some((t) => terms.has(t));
  };
  if (holds(ranked[0]!)) return ranked;
  // A section a learned question put first gives way only to another that question names.
  const vouched = near.similarity >= T.learnedSimilarity && near.sections.includes(ranked[0]!.section);
  const at =
    ranked
      .slice(1, 3)
      .findIndex(
        (r) => r.coverage >= ranked[0]!.coverage && (!vouched || near.sections.includes(r.section)) && holds(r),
      ) + 1;
  return toFront(ranked, at);
}

/** A sentence's terms (plain text through the analyzer). */
function sentenceTerms(plain: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(plain)) if (!isStopWord(w)) out.add(termOf(w));
  return out;
}

interface Quote {
  section: number;
  start: number;
  end: number;
  plain: string;
  row: boolean;
}

/** The sentences of a section that answer the groups: the best, with what it leans on ("Yes." before it). */
function quotesFrom(index: AskIndex, section: number, groups: readonly TermGroup[], weights: number[]): Quote[] {
  const ranges = index.sentences(section);
  const text = index.text(section);
  const sentences: Quote[] = [];
  for (let i = 0; i < ranges.length; i += 3) {
    const start = ranges[i]!;
    const end = ranges[i + 1]!;
    const kind = ranges[i + 2]!;
    if (kind === 2) continue;
    const row = kind === 1;
    const raw = text.slice(start, end);
    sentences.push({ section, start, end, row, plain: row ? plainOf(raw.replace(/\s*\|\s*/g, ' ')) : plainOf(raw) });
  }
  if (!sentences.length) return [];
  const scores = sentences.map((q) => {
    const terms = sentenceTerms(q.plain);
    let v = 0;
    groups.forEach((g, gi) => {
      if (g.terms.some((t) => terms.has(t))) v += weights[gi]!;
    });
    return v;
  });
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  const picked = new Set<number>([best]);
  // A headed section whose first sentence is the short answer ("Yes.", "No.") keeps it.
  if (best > 0 && sentences[0]!.plain.length <= 24) picked.add(0);
  if (scores[best] === 0) picked.add(0);
  // A short best sentence, or one that leads into a list (":"), brings the next one.
  const b = sentences[best]!;
  if ((b.plain.length < 70 || b.plain.endsWith(':')) && best + 1 < sentences.length) picked.add(best + 1);
  // Another sentence holding words the picked ones lack (up to three sentences in all).
  const covered = new Set<number>();
  for (const i of picked) {
    const terms = sentenceTerms(sentences[i]!.plain);
    groups.forEach((g, gi) => {
      if (g.terms.some((t) => terms.has(t))) covered.add(gi);
    });
  }
  let extra = -1;
  let extraGain = 0;
  sentences.forEach((q, i) => {
    if (picked.has(i)) return;
    const terms = sentenceTerms(q.plain);
    let gain = 0;
    groups.forEach((g, gi) => {
      if (!covered.has(gi) && g.terms.some((t) => terms.has(t))) gain += weights[gi]!;
    });
    if (gain > extraGain) {
      extra = i;
      extraGain = gain;
    }
  });
  if (extra >= 0 && picked.size < 3) picked.add(extra);
  return [...picked].sort((x, y) => x - y).map((i) => sentences[i]!);
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
function sourceOf(index: AskIndex, section: number, role: 'answer' | 'related', quote?: Quote): AskSourceOut {
  const page = index.data.pages[index.pageOf(section)]!;
  const anchor = index.anchor(section);
  const fragment = quote && !quote.row ? textFragment(quote.plain) : '';
  const hash = anchor || fragment ? `#${anchor ?? ''}${fragment}` : '';
  return {
    slug: page.slug,
    title: page.title,
    heading: index.heading(section),
    url: `${page.url}${hash}`,
    text: index.text(section),
    role,
  };
}

/** The sections an earlier turn cited that the index still has. */
function citedPages(turn: AskTurn | undefined): Set<string> {
  return new Set((turn?.sources ?? []).map((s) => s.slug));
}

/**
 * The pricing page's sentences for a pricing answer: `cited`, each price's row (a plan's, an add-on's) and what the
 * page says of the plan-choice rule, annual billing and GST; `said`, what the answer quotes (the rows of the plans
 * compared, the rows of what cannot be priced, and the sentences).
 */
function pricingQuotes(
  index: AskIndex,
  pricing: Pricing,
  working: Working | undefined,
  compared: readonly Plan[] = [],
): { cited: Quote[]; said: Quote[] } {
  const cited: Quote[] = [];
  const said: Quote[] = [];
  const find = (needles: string[]): Quote | undefined => {
    for (const s of index.sectionsOf('pricing')) {
      const ranges = index.sentences(s);
      const text = index.text(s);
      for (let i = 0; i < ranges.length; i += 3) {
        const raw = text.slice(ranges[i]!, ranges[i + 1]!);
        if (needles.every((n) => raw.includes(n))) {
          const row = ranges[i + 2] !== 0;
          if (ranges[i + 2] === 2) continue;
          return {
            section: s,
            start: ranges[i]!,
            end: ranges[i + 1]!,
            row,
            plain: plainOf(row ? raw.replace(/\s*\|\s*/g, ' ') : raw),
          };
        }
      }
    }
    return undefined;
  };
  const add = (q: Quote | undefined, say: boolean) => {
    if (!q) return;
    cited.push(q);
    if (say || !q.row) said.push(q);
  };
  const comparing = working?.comparedWith !== undefined || compared.length > 0;
  for (const plan of compared) add(find([plan.name, dollars(plan.monthly)]), true);
  for (const line of working?.lines ?? []) {
    const name = line.item.replace(/ plan$/, '');
    add(find([name, dollars(line.unitPrice)]) ?? find([dollars(line.unitPrice)]), comparing);
  }
  // What cannot be priced is quoted with its price per unit.
  for (const u of working?.unpriced ?? []) if (u.unitPrice) add(find([u.item, dollars(u.unitPrice)]), true);
  if (working?.chosenFor) {
    // The rule the plan was chosen by, as the pricing page states it.
    const q = find(['biggest plan wins']);
    if (q) {
      cited.unshift(q);
      said.unshift(q);
    }
  }
  if (working?.annual !== undefined && working.yearBilled === 'annually') add(find([pricing.annualDiscount]), true);
  add(find(['exclude GST']) ?? find(['GST']), true);
  return { cited, said };
}

/**
 * Joins quotes into the answer: sentences that follow each other in one paragraph of a section are one run of its
 * text (so each paragraph of the answer is a substring of its section); anything else starts a new paragraph.
 */
function joinQuotes(index: AskIndex, quotes: readonly Quote[]): string {
  const runs: { section: number; start: number; end: number }[] = [];
  for (const q of quotes) {
    const last = runs.at(-1);
    const text = index.text(q.section);
    if (
      last &&
      last.section === q.section &&
      !q.row &&
      q.start >= last.end &&
      !/\n/.test(text.slice(last.end, q.start))
    )
      last.end = q.end;
    else runs.push({ section: q.section, start: q.start, end: q.end });
  }
  return runs.map((r) => index.text(r.section).slice(r.start, r.end)).join('\n\n');
}

/** Answers a question from the site (see the module comment). */
export function askSite(d: AskDeps, input: AskInput): AskResult {
  const question = input.question.trim();
  const turns = input.conversation ?? [];
  const previous = turns.at(-1);
  // Each text is analysed once per request, however many parts and turns read it.
  const index = d.index;
  const memo = new Map<string, TermGroup[]>();
  const once =
    (tag: string, analyse: typeof analyseTerms) =>
    (text: string, _index: AskIndex, weight = 1): readonly TermGroup[] => {
      const key = `${tag}\u0000${text}`;
      let groups = memo.get(key);
      if (!groups) memo.set(key, (groups = analyse(text, index)));
      return weight === 1 ? groups : groups.map((g) => ({ ...g, weight: g.weight * weight }));
    };
  const termGroups = once('t', analyseTerms);
  const messageGroups = once('m', analyseMessage);
  const asked = handoffIntent(question);
  const intent = asked?.intent;
  // A request for a person is read without its request words ("can someone call me back about storage billing?"),
  // but a demo request keeps them: the demo pages are what it is about.
  const read = asked && intent !== 'demo' ? asked.rest : question;
  const support = intent === 'contact' && isSupportRequest(question);
  const result = (
    answered: boolean,
    answer: string,
    sources: AskSourceOut[],
    handoff: Handoff | null,
    working?: Working,
  ): AskResult => {
    const r: AskResult = {
      question,
      answered,
      answer,
      sources: sources.slice(0, MAX_SOURCES),
      handoff,
      mode: 'extractive',
    };
    if (working) r.working = working;
    return r;
  };
  const handoff = (fallback: boolean) =>
    intent ? handoffFor(intent, d.now, d.origin, support) : fallback ? handoffFor('contact', d.now, d.origin) : null;

  // The sentences that ask are the question; the others ("had a junior send a $14k quote last week") its context.
  const firstGroups = messageGroups(read, index);
  // A request for a person is never a follow-up: it asks for what it says, not for more of the last answer.
  const followUp = previous !== undefined && !intent && isFollowUp(question, firstGroups);
  const working = priceQuestion(question, d.pricing, followUp ? previous.question : undefined);
  const compared = working ? undefined : comparedPlans(question, d.pricing);
  if (working || compared) {
    const { cited, said } = pricingQuotes(index, d.pricing, working, compared);
    const seen = new Map<number, Quote>();
    for (const q of cited) if (!seen.has(q.section)) seen.set(q.section, q);
    const sources = [...seen].map(([s, q]) => sourceOf(index, s, 'answer', q));
    // The prices are cited by their sections; the answer states the working and quotes the rows of the plans
    // compared and of what cannot be priced, and what the page says of GST (and of annual billing when asked).
    const answer = [working && workingSentence(working), joinQuotes(index, said)].filter(Boolean).join('\n\n');
    return result(true, answer, sources, handoff(false), working);
  }

  // Each part of a two-part question is answered on its own; a follow-up carries the earlier question's words.
  const boost = followUp ? citedPages(previous) : undefined;
  const carried = (groups: readonly TermGroup[]): TermGroup[] => {
    if (!followUp) return [...groups];
    const own = new Set(groups.flatMap((g) => g.terms));
    const before = termGroups(previous.question, index, 0.5).filter(
      (g) => !g.unknown && !g.terms.some((t) => own.has(t)),
    );
    // A follow-up with no word of its own ("what did she do before that?") asks again about the earlier subject.
    if (!groups.some((g) => !g.unknown))
      return [...groups, ...termGroups(previous.question, index).filter((g) => !g.unknown)];
    return [...groups, ...before.map((g) => ({ ...g, optional: true }))];
  };
  const split = questionParts(read);
  const parts = split.map((part, i, all) => {
    const mine = all.length === 1 ? firstGroups : messageGroups(part, index);
    let groups = carried(mine);
    // A later part leans on the first ("how long is a demo and is it online?"): its words come along, optional.
    if (i > 0) {
      const own = new Set(groups.flatMap((g) => g.terms));
      const lead = termGroups(all[0]!, index).filter((g) => !g.unknown && !g.terms.some((t) => own.has(t)));
      groups = [...groups, ...lead.map((g) => ({ ...g, optional: true }))];
    }
    // In a request for a person, words on no page are names (of the person, their company), not the question.
    if (intent) groups = groups.filter((g) => !g.unknown);
    const found = rank(index, groups, boost);
    // Whether the site answers is the ranking's to say (its best section holds the question), or a learned
    // question's the question reads like; which section answers best, that learned question may say better.
    const best = found[0];
    // A follow-up is compared with asked questions in its context ("and in a lift?" after "do photos save?").
    const near = index.nearestAsked(inContext(part, followUp ? previous!.question : undefined));
    const own = groups.filter((g) => !g.optional);
    const learned = learnedFirst(near, found);
    // (Only a follow-up with words of its own: "what did she do before that?" asks the earlier question again.)
    const ranked = !followUp
      ? headingFirst(index, learned, groups)
      : mine.some((g) => !g.unknown)
        ? quotedFirst(index, learned, own, near)
        : learned;
    const top = ranked[0];
    // A call back or a message asks for a person, not for the site's words on the subject.
    const forPerson = support || intent === 'callback' || intent === 'message';
    // The ranking's best section holds the question, or the one a learned question puts first does (the section
    // the answer is quoted from), or that learned question is near enough to say its section answers.
    const holds = (r: Ranked | undefined) => r !== undefined && r.coverage >= T.minCoverage && r.topical;
    const answerable =
      best !== undefined &&
      own.length > 0 &&
      (holds(best) ||
        (top !== best && holds(top)) ||
        (top !== undefined &&
          near.similarity >= T.learnedAnswer &&
          near.sections.includes(top.section) &&
          best.topical)) &&
      !forPerson &&
      !(near.gap >= T.gapSimilarity && near.gap > near.similarity);
    return { groups, ranked, top, answerable };
  });

  const answering = parts.filter((p) => p.answerable);
  if (!answering.length) {
    const related = parts[0]!.ranked.slice(0, 3).filter((r) => r.coverage >= 0.3);
    const sources = related.map((r) => sourceOf(index, r.section, 'related'));
    const list = sources.map((s) => `- [${s.heading ? `${s.title}: ${s.heading}` : s.title}](${s.url})`).join('\n');
    const person = handoff(true)!;
    const lead = intent ? person.label : NO_ANSWER;
    const answer = sources.length ? `${lead} ${NO_ANSWER_RELATED}\n\n${list}` : lead;
    return result(false, answer, sources, person);
  }

  const quotes: Quote[] = [];
  const answerSections: number[] = [];
  for (const part of answering) {
    const top = part.top!;
    if (answerSections.includes(top.section)) continue;
    answerSections.push(top.section);
    const weights = part.groups.map((g) => groupIdf(index, g));
    quotes.push(...quotesFrom(index, top.section, part.groups, weights));
  }
  const firstQuote = (s: number) => quotes.find((q) => q.section === s);
  const sources = answerSections.map((s) => sourceOf(index, s, 'answer', firstQuote(s)));
  // Then the next best sections of each part, in turn, as related: the last part first, as a later part leans on the
  // first's words ("... and which plan are they on?") and its ranking is the less sure, while the first part's best
  // section already leads. Leaving each judged set out in turn: two-part 0.775 -> 0.824, answer@3 0.890 -> 0.893.
  const rest = parts
    .map((p) => p.ranked.filter((r) => r.coverage >= 0.3 && !answerSections.includes(r.section)))
    .reverse();
  const listed = new Set(answerSections);
  for (let k = 0; sources.length < MAX_SOURCES && rest.some((r) => k < r.length); k++) {
    for (const r of rest) {
      const next = r[k];
      if (!next || listed.has(next.section) || sources.length >= MAX_SOURCES) continue;
      listed.add(next.section);
      sources.push(sourceOf(index, next.section, 'related'));
    }
  }
  return result(true, joinQuotes(index, quotes), sources, handoff(false));
}
