/**
 * @module Builds the chat's index (../ask/index.ts) from pages: each page cut into sections (./sections.ts) and
 * analysed, the sections' BM25F postings with the learned expansions, and the intent classifier trained. Run by the
 * build (src/build/derive.ts), and in memory for a site held in memory (tests, a lone content.json).
 */
import { type AskData, ASK_FIELDS, ASK_FORMAT, AskIndex, bodyOf } from '../ask/index.ts';
import type { EmbeddingTable } from '../ask/embedding.ts';
import type { IntentModel } from '../ask/intent.ts';
import { loadLexicon } from '../ask/lexicon.ts';
import { asksQuestion } from '../markdown-plain.ts';
import { EMPTY_LEXICON, type LexiconData } from '../lexicon.ts';
import { lexiconTables } from './lexicon.ts';
import { analyze, eachWord, isStopWord, termOf } from '../search/analyze.ts';
import { Bm25fBuilder } from '../search/bm25f.ts';
import { bareTitle } from '../search/compact-index.ts';
import { type HeadingAnchor, splitSections } from './sections.ts';
import { type IntentExample, trainIntents } from './train-intents.ts';

const FIELD_SPECS = Object.values(ASK_FIELDS);
/** A heading with straight quotes (the rendered page curls them). */
export const straightQuotes = (s: string) => s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
const sectionKey = (slug: string, heading: string | null) => `${slug}#${straightQuotes(heading ?? '')}`;

/** What the build gives per page: its contract fields and the rendered headings' anchors. */
export interface AskSource {
  slug: string;
  title: string;
  url: string;
  markdown: string;
  headings?: readonly HeadingAnchor[];
  kind?: string;
}

/** A question and the sections that answer it (none: a known gap); sections by slug and heading. */
export interface AskedQuestion {
  question: string;
  sections: readonly { slug: string; heading: string | null }[];
}

/** What the index learns beside the pages (src/build/ask-hints.ts gives the site's). */
export interface AskLearning {
  lexicon?: LexiconData;
  /** Labelled requests the intent classifier learns (the written questions are added as `none`). */
  intents?: readonly IntentExample[];
  /** The classifier already trained on them (the build keeps it by the hash of what it learns). */
  intentModel?: IntentModel;
  /** A section's hints (words visitors use that its text lacks). */
  hintsOf?: (slug: string, heading: string | null) => readonly string[];
  /** Questions written from the content for each section, and questions reviewed from the report. */
  questions?: readonly AskedQuestion[];
}

/** One page's part of the index, worked out on its own (in the build's page workers). */
export interface AskPageData {
  rows: [heading: string | null, anchor: string, start: number, end: number, sentences: string][];
  /** Per section: its text's terms and its heading's terms. */
  terms: [text: string[], heading: string[]][];
  /** The page's distinct surface words. */
  words: string[];
}

/** A page's part of the index. */
export function askPageData(page: Pick<AskSource, 'slug' | 'markdown' | 'headings'>): AskPageData {
  const rows: AskPageData['rows'] = [];
  const terms: AskPageData['terms'] = [];
  const seen = new Set<string>();
  for (const s of splitSections(page.slug, page.markdown, page.headings)) {
    // Each sentence as base-36 `gap x 3 + kind,length`, its gap from the end of the one before (AskIndex.sentences).
    let end = 0;
    const sentences = s.sentences
      .map((x) => {
        const gap = x.start - end;
        end = x.end;
        return `${(gap * 3 + (x.header ? 2 : x.row ? 1 : 0)).toString(36)},${(x.end - x.start).toString(36)}`;
      })
      .join(';');
    rows.push([s.heading, s.anchor ?? '', s.start, s.start + s.text.length, sentences]);
    const text: string[] = [];
    eachWord(bodyOf(s.text, s.heading !== null), (w) => {
      seen.add(w);
      if (!isStopWord(w)) text.push(termOf(w));
    });
    terms.push([text, s.heading === null ? [] : analyze(s.heading)]);
  }
  return { rows, terms, words: [...seen] };
}

/** The stride through the questions that picks each request's lead-in: a prime, so the lead-ins spread over them. */
const LEAD_IN_STRIDE = 7919;

/**
 * What the intent classifier learns: the labelled requests, and as `none` the written and reviewed questions, those
 * some section answers and the known gaps alike (a question the site cannot answer asks for no person either). Each
 * request is learned a second time after one of those questions ("does it do X? can someone call me"): a request
 * after a question or some background is still one. Cross-validated on these examples, with two questions before
 * each held-out request, requests recognised 0.14 -> 0.39 (0.34 by the gradient-descent model before Adam).
 */
export function intentExamples(intents: readonly IntentExample[], questions: readonly AskedQuestion[]) {
  const asked = questions.map((q) => ({ text: q.question, intent: 'none' as const }));
  const none = [...intents.filter((e) => e.intent === 'none'), ...asked];
  const requests = intents.filter((e) => e.intent !== 'none');
  const leadIn = (i: number) => none[(i * LEAD_IN_STRIDE) % none.length]!.text;
  return [
    ...intents,
    ...asked,
    ...(none.length ? requests.map((e, i) => ({ text: `${leadIn(i)} ${e.text}`, intent: e.intent })) : []),
  ];
}

/** What the build writes: the index file's data and the pack's text. */
export interface AskFiles {
  data: AskData;
  pack: string;
}

/** The index of the pages (sorted by slug), each with its part when the build worked it out already. */
export function assembleAskIndex(
  pages: readonly (AskSource & { ask?: AskPageData })[],
  { lexicon = EMPTY_LEXICON, intents = [], intentModel, hintsOf = () => [], questions = [] }: AskLearning = {},
): AskFiles {
  const pageEntries: AskData['pages'] = [];
  const sections: AskData['sections'] = [];
  const sectionExpansions: AskData['expansions'] = [];
  const asked: AskData['asked'] = [];
  const gaps: AskData['gaps'] = [];
  let pack = '';
  const ids = new Map<string, number>();
  const questionsOf = new Map<number, string[]>();
  const parts = pages.map((p) => p.ask ?? askPageData(p));
  pages.forEach((page, n) => {
    const p = pageEntries.push({ slug: page.slug, title: bareTitle(page.title), url: page.url }) - 1;
    if (page.kind === 'listing') pageEntries[p]!.listing = true;
    if (page.kind === 'post') pageEntries[p]!.post = true;
    for (const [heading, anchor, start, end, sentences] of parts[n]!.rows) {
      ids.set(sectionKey(page.slug, heading), sections.length);
      sections.push([p, heading, anchor, start, end, pack.length, sentences.length]);
      pack += sentences;
    }
  });
  for (const q of questions) {
    const terms = [...new Set(analyze(q.question))];
    const found = q.sections.map((s) => ids.get(sectionKey(s.slug, s.heading))).filter((id) => id !== undefined);
    if (!q.sections.length && terms.length) gaps.push(terms.join(' '));
    for (const id of new Set(found)) {
      asked.push([id, terms.join(' ')]);
      questionsOf.set(id, [...(questionsOf.get(id) ?? []), q.question]);
    }
  }
  // A heading that asks a question ("Who owns the data?") is a question its section answers.
  sections.forEach(([, heading], id) => {
    const terms = asksQuestion(heading) ? [...new Set(analyze(heading))] : [];
    if (terms.length) asked.push([id, terms.join(' ')]);
  });
  const builder = new Bm25fBuilder(FIELD_SPECS);
  const vocab = new Map<string, number>();
  const sums = FIELD_SPECS.map(() => 0);
  let id = 0;
  pages.forEach((page, n) => {
    const part = parts[n]!;
    const title = analyze(bareTitle(page.title));
    part.rows.forEach(([heading], k) => {
      const [text, head] = part.terms[k]!;
      const expansions = [...hintsOf(page.slug, heading), ...(questionsOf.get(id) ?? [])].flatMap((x) => analyze(x));
      for (const [field, terms] of [text, head, title, expansions].entries()) {
        sums[field]! += terms.length;
        for (const t of terms) builder.count(field, builder.termId(t));
      }
      sectionExpansions.push(expansions.join(' '));
      builder.next();
      id++;
    });
    for (const w of part.words) vocab.set(w, (vocab.get(w) ?? 0) + 1);
  });
  const tables = lexiconTables(lexicon);
  const data: AskData = {
    format: ASK_FORMAT,
    pages: pageEntries,
    sections,
    terms: builder.build(),
    expansions: sectionExpansions,
    averages: sums.map((sum) => Math.max(1, sum / Math.max(1, id))),
    asked,
    gaps,
    vocab: Object.fromEntries([...vocab.keys()].sort().map((w) => [w, vocab.get(w)!])),
    lexicon: tables,
    intents: intentModel ?? trainIntents(intentExamples(intents, questions), loadLexicon(tables)),
  };
  return { data, pack };
}

/** An index over pages held in memory (tests, small sites), with a sentence-model table of the same sections. */
export function askIndexOf(
  pages: readonly AskSource[],
  learning: AskLearning = {},
  embedding?: EmbeddingTable,
): AskIndex {
  const bySlug = new Map(pages.map((p) => [p.slug, p.markdown]));
  const { data, pack } = assembleAskIndex(pages, learning);
  const read = (start: number, length: number) => pack.slice(start, start + length);
  return new AskIndex(
    data,
    (slug) => bySlug.get(slug),
    read,
    () => embedding,
  );
}
