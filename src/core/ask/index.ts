/**
 * @module The chat's one index: every section of every page (./sections.ts) as a BM25F document with four fields
 * (its text, heading, page title, and expansions: hints, written questions and reviewed visitor questions), in the
 * same postings format and code as site search (../search/bm25f.ts), with the same analyzer. Built at build time
 * (`ask-index.json`, and `ask-index.pack` for each section's sentence offsets), loaded once per instance. A
 * section's text is not in the file: it is a range of its page's markdown, read for the few sections a question
 * looks at.
 */
import { analyze, eachWord, isStopWord, own, termOf } from '../search/analyze.ts';
import { type Bm25fData, Bm25fBuilder, Bm25fPostings, type FieldSpec, idfOf } from '../search/bm25f.ts';
import type { EmbeddingTable } from './embedding.ts';
import { type IntentExample, type IntentModel, trainIntents } from './intent.ts';
import { EMPTY_LEXICON, type LexiconData } from '../lexicon.ts';
import { compileLexicon, type Lexicon } from './lexicon.ts';
import { type HeadingAnchor, splitSections } from './sections.ts';

export const ASK_FILE = 'ask-index.json';
/** Each section's sentence offsets (ASCII), which the index file points into by range. */
export const ASK_PACK = 'ask-index.pack';
export const ASK_FORMAT = 'kartage-ask-7';

/** The fields of a section, in postings order, with their BM25F weight and length normalisation. */
export const ASK_FIELDS = {
  text: { weight: 1, b: 0.75 },
  heading: { weight: 5, b: 0.3 },
  title: { weight: 1, b: 0.3 },
  expansions: { weight: 1, b: 0.5 },
} as const satisfies Record<string, FieldSpec>;
const FIELD_SPECS = Object.values(ASK_FIELDS);

/** `length` characters of the pack from `start`. */
export type PackReader = (start: number, length: number) => string;
/** A page's markdown by slug. */
export type MarkdownOf = (slug: string) => string | undefined;

/** A page as the chat cites it. */
export interface AskPage {
  slug: string;
  /** The page's title without the site name. */
  title: string;
  url: string;
  /** A listing page (the blog or customers index): its sections summarise other pages. */
  listing?: true;
}

/** A section: its page, heading (null: the intro), anchor ('' for none), [start, end) in the page's markdown, and
 * where the pack holds its sentences (base-36 `start,end,kind` triples; kind 0 text, 1 table row, 2 header row). */
export type AskSectionRow = [
  page: number,
  heading: string | null,
  anchor: string,
  start: number,
  end: number,
  sentencesAt: number,
  sentencesLength: number,
];

/** The index file. */
export interface AskData {
  format: typeof ASK_FORMAT;
  pages: AskPage[];
  sections: AskSectionRow[];
  /** BM25F postings over the sections (ASK_FIELDS). */
  terms: Bm25fData;
  /** Per section: its expansions' terms, space-separated. */
  expansions: string[];
  /** Each field's average length (terms) over the sections, in ASK_FIELDS order. */
  averages: number[];
  /** Questions with the section that answers them (written and reviewed), as terms: the nearest-question feature. */
  asked: [section: number, terms: string][];
  /** Reviewed questions the site does not answer (its known gaps), as terms. */
  gaps: string[];
  /** Folded surface word -> pages holding it (spelling correction picks the most used). */
  vocab: Record<string, number>;
  /** The lexicon (content/data/lexicon.json), checked. */
  lexicon: LexiconData;
  /** The intent classifier, trained at build time. */
  intents: IntentModel;
}

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

/** What the index learns beside the pages (src/build/ask-data.ts gives the site's). */
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

/** The page title without " | Kartage". */
export const bareTitle = (t: string) => t.replace(/\s+\|\s+[^|]+$/, '');
/** A heading with straight quotes (the rendered page curls them). */
export const straightQuotes = (s: string) => s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
const sectionKey = (slug: string, heading: string | null) => `${slug}#${straightQuotes(heading ?? '')}`;

/** The words a section's body holds: its text without the heading line, markdown link targets left out. */
export const bodyOf = (text: string, headed: boolean) =>
  (headed ? text.slice(text.indexOf('\n') + 1) : text).replace(/\]\([^)]*\)/g, ']');

/** A page's part of the index. */
export function askPageData(page: Pick<AskSource, 'slug' | 'markdown' | 'headings'>): AskPageData {
  const out: AskPageData = { rows: [], terms: [], words: [] };
  const seen = new Set<string>();
  for (const s of splitSections(page.slug, page.markdown, page.headings)) {
    const sentences = s.sentences
      .map((x) => `${x.start.toString(36)},${x.end.toString(36)},${x.header ? 2 : x.row ? 1 : 0}`)
      .join(';');
    out.rows.push([s.heading, s.anchor ?? '', s.start, s.start + s.text.length, sentences]);
    const text: string[] = [];
    eachWord(bodyOf(s.text, s.heading !== null), (w) => {
      seen.add(w);
      if (!isStopWord(w)) text.push(termOf(w));
    });
    out.terms.push([text, s.heading === null ? [] : analyze(s.heading)]);
  }
  out.words = [...seen];
  return out;
}

/** What the intent classifier learns: the labelled requests, and the questions some section answers as `none`. */
export const intentExamples = (intents: readonly IntentExample[], questions: readonly AskedQuestion[]) => [
  ...intents,
  ...questions.filter((q) => q.sections.length).map((q) => ({ text: q.question, intent: 'none' as const })),
];

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
  const data: AskData = {
    format: ASK_FORMAT,
    pages: [],
    sections: [],
    terms: { terms: '', idf: [], df: [], offsets: [], postings: '' },
    expansions: [],
    averages: [],
    asked: [],
    gaps: [],
    vocab: {},
    lexicon,
    intents: { features: {}, weights: [], bias: [] },
  };
  let pack = '';
  const ids = new Map<string, number>();
  const questionsOf = new Map<number, string[]>();
  const parts = pages.map((p) => p.ask ?? askPageData(p));
  pages.forEach((page, n) => {
    const p = data.pages.push({ slug: page.slug, title: bareTitle(page.title), url: page.url }) - 1;
    if (page.kind === 'listing') data.pages[p]!.listing = true;
    for (const [heading, anchor, start, end, sentences] of parts[n]!.rows) {
      ids.set(sectionKey(page.slug, heading), data.sections.length);
      data.sections.push([p, heading, anchor, start, end, pack.length, sentences.length]);
      pack += sentences;
    }
  });
  for (const q of questions) {
    const terms = [...new Set(analyze(q.question))];
    const found = q.sections.map((s) => ids.get(sectionKey(s.slug, s.heading))).filter((id) => id !== undefined);
    if (!q.sections.length && terms.length) data.gaps.push(terms.join(' '));
    for (const id of new Set(found)) {
      data.asked.push([id, terms.join(' ')]);
      questionsOf.set(id, [...(questionsOf.get(id) ?? []), q.question]);
    }
  }
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
      data.expansions.push(expansions.join(' '));
      builder.next();
      id++;
    });
    for (const w of part.words) vocab.set(w, (vocab.get(w) ?? 0) + 1);
  });
  data.terms = builder.build();
  data.averages = sums.map((sum) => Math.max(1, sum / Math.max(1, id)));
  data.vocab = Object.fromEntries([...vocab].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  data.intents = intentModel ?? trainIntents(intentExamples(intents, questions), compileLexicon(lexicon));
  return { data, pack };
}

/** Pages' markdown and sections' terms kept per instance (the few sections questions look at; bounded). */
const KEEP = 256;

/** A loaded index: postings by term, the sections' rows, and their text and sentences on demand. */
export class AskIndex {
  readonly data: AskData;
  readonly terms: Bm25fPostings;
  private readonly markdownOf: MarkdownOf;
  private readonly pack: PackReader;
  private readonly markdowns = new Map<string, string>();
  private readonly sentenceCache = new Map<number, Int32Array>();
  private bySlug: Map<string, number[]> | undefined;
  private compiled: Lexicon | undefined;

  private readonly loadEmbedding: () => EmbeddingTable | undefined;
  private table: EmbeddingTable | undefined | null = null;

  /** `embedding`: the sentence-model table of the same sections (./embedding.ts), read on first use; none: no model. */
  constructor(data: AskData, markdownOf: MarkdownOf, pack: PackReader, embedding: () => EmbeddingTable | undefined) {
    if (data.format !== ASK_FORMAT) throw new Error(`ask index: unknown format ${String(data.format)}`);
    this.data = data;
    this.terms = new Bm25fPostings(data.terms);
    this.markdownOf = markdownOf;
    this.pack = pack;
    this.loadEmbedding = embedding;
  }

  /** The sentence-model table, when the build wrote one for these sections. */
  get embedding(): EmbeddingTable | undefined {
    if (this.table === null) {
      const t = this.loadEmbedding();
      this.table = t && t.questionStart.length === this.sectionCount + 1 ? t : undefined;
    }
    return this.table;
  }

  /** The lexicon, compiled on first use. */
  get lexicon(): Lexicon {
    this.compiled ??= compileLexicon(this.data.lexicon);
    return this.compiled;
  }

  get sectionCount(): number {
    return this.data.sections.length;
  }

  /** Sections holding the term in any field. */
  df(term: string): number {
    const id = this.terms.termId(term);
    return id === undefined ? 0 : this.terms.df(id);
  }

  /** The term's idf over the sections (a term on no section: the rarest's). */
  idf(term: string): number {
    return idfOf(this.sectionCount, this.df(term));
  }

  /** How many pages hold the folded surface word. */
  wordCount(word: string): number {
    return own(this.data.vocab, word) ?? 0;
  }

  pageOf(section: number): AskPage {
    return this.data.pages[this.data.sections[section]![0]]!;
  }

  /** A section's heading (null: the page intro). */
  heading(section: number): string | null {
    return this.data.sections[section]![1];
  }

  /** A section's anchor on the rendered page, if its heading has one. */
  anchor(section: number): string | undefined {
    return this.data.sections[section]![2] || undefined;
  }

  /** Sections of a page, in page order. */
  sectionsOf(slug: string): readonly number[] {
    if (!this.bySlug) {
      this.bySlug = new Map();
      this.data.sections.forEach(([page], i) => {
        const s = this.data.pages[page]!.slug;
        this.bySlug!.set(s, [...(this.bySlug!.get(s) ?? []), i]);
      });
    }
    return this.bySlug.get(slug) ?? [];
  }

  /** A section's markdown, as the page's markdown twin has it ('' when the page cannot be read). */
  text(section: number): string {
    const [page, , , start, end] = this.data.sections[section]!;
    const slug = this.data.pages[page]!.slug;
    let md = this.markdowns.get(slug);
    if (md === undefined) {
      md = this.markdownOf(slug) ?? '';
      if (this.markdowns.size >= KEEP) this.markdowns.delete(this.markdowns.keys().next().value!);
      this.markdowns.set(slug, md);
    }
    return md.slice(start, end);
  }

  /** A section's sentences: [start, end, kind] flat, relative to its text. */
  sentences(section: number): Int32Array {
    let out = this.sentenceCache.get(section);
    if (out) return out;
    const [, , , , , at, length] = this.data.sections[section]!;
    const triples = length ? this.pack(at, length).split(';') : [];
    out = new Int32Array(triples.length * 3);
    triples.forEach((t, k) => {
      const [a, b, c] = t.split(',');
      out![k * 3] = Number.parseInt(a!, 36);
      out![k * 3 + 1] = Number.parseInt(b!, 36);
      out![k * 3 + 2] = Number(c);
    });
    if (this.sentenceCache.size >= KEEP) this.sentenceCache.delete(this.sentenceCache.keys().next().value!);
    this.sentenceCache.set(section, out);
    return out;
  }
}

/**
 * The index a build wrote, its sections' text read through `markdownOf`, sentences through `pack`, and its
 * sentence-model table through `embedding` (on first use).
 */
export function loadAskIndex(
  json: string,
  markdownOf: MarkdownOf,
  pack: PackReader,
  embedding: () => EmbeddingTable | undefined = () => undefined,
): AskIndex {
  return new AskIndex(JSON.parse(json) as AskData, markdownOf, pack, embedding);
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
