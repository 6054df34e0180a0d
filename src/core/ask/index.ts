/**
 * @module The chat's one index, built by ../ask-indexer: each section a BM25F document (fields: text, heading, page
 * title, expansions) in site search's postings format; its text a range of its page's markdown, read on demand.
 */
import { kept } from '../kept.ts';
import { own } from '../search/analyze.ts';
import { type Bm25fData, Bm25fPostings, type FieldSpec, idfOf } from '../search/bm25f.ts';
import type { EmbeddingTable } from './embedding.ts';
import type { IntentModel } from './intent.ts';
import { type Lexicon, type LexiconTables, loadLexicon } from './lexicon.ts';

export const ASK_FILE = 'ask-index.json';
/** Each section's sentence offsets (ASCII), which the index file points into by range. */
export const ASK_PACK = 'ask-index.pack';
export const ASK_FORMAT = 'kartage-ask-10';

/** The fields of a section, in postings order, with their BM25F weight and length normalisation (expansions: the
 * best of 0.25 to 3 for the reranker, cross-validated on the dev split; docs/chat.md). */
export const ASK_FIELDS = {
  text: { weight: 1, b: 0.75 },
  heading: { weight: 5, b: 0.3 },
  title: { weight: 1, b: 0.3 },
  expansions: { weight: 0.5, b: 0.5 },
} as const satisfies Record<string, FieldSpec>;

/** `length` characters of the pack from `start`. */
export type PackReader = (start: number, length: number) => string;
/** A page's markdown by slug. */
export type MarkdownOf = (slug: string) => string | undefined;
/** A page as cited: its title without the site name; `listing`: the blog or customers index; `post`: a blog post. */
export type AskPage = { slug: string; title: string; url: string; listing?: true; post?: true };

type Range = [start: number, end: number];
type Sentences = [sentencesAt: number, sentencesLength: number];
/** A section: its page, heading (null: the intro), anchor ('' for none), [start, end) in the page's markdown, and
 * where the pack holds its sentences (base-36 `gap x 3 + kind,length` pairs, each sentence's gap from the end of the
 * one before; kind 0 text, 1 table row, 2 header row). */
export type AskSectionRow = [page: number, heading: string | null, anchor: string, ...Range, ...Sentences];

/**
 * The index file: pages, sections, BM25F postings (ASK_FIELDS) and each field's average length; per section its
 * expansions' terms; questions with the section answering them and known gaps, as terms; folded word -> pages holding
 * it (spelling correction); the lexicon compiled and the trained intent classifier.
 */
export type AskData = {
  format: typeof ASK_FORMAT;
  pages: AskPage[];
  sections: AskSectionRow[];
  terms: Bm25fData;
  expansions: string[];
  averages: number[];
  asked: [section: number, terms: string][];
  gaps: string[];
  vocab: Record<string, number>;
  lexicon: LexiconTables;
  intents: IntentModel;
};

/** The words a section's body holds: its text without the heading line, markdown link targets left out. */
export const bodyOf = (text: string, headed: boolean) =>
  (headed ? text.slice(text.indexOf('\n') + 1) : text).replace(/\]\([^)]*\)/g, ']');

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
  /** The lexicon's lookups, made on first use. */
  get lexicon(): Lexicon {
    this.compiled ??= loadLexicon(this.data.lexicon);
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
  idf = (term: string): number => idfOf(this.sectionCount, this.df(term));
  /** How many pages hold the folded surface word. */
  wordCount = (word: string): number => own(this.data.vocab, word) ?? 0;
  pageOf = (section: number): AskPage => this.data.pages[this.data.sections[section]![0]]!;
  /** A section's heading (null: the page intro). */
  heading = (section: number): string | null => this.data.sections[section]![1];
  /** A section's anchor on the rendered page, if its heading has one. */
  anchor = (section: number): string | undefined => this.data.sections[section]![2] || undefined;
  /** Sections of a page, in page order. */
  sectionsOf(slug: string): readonly number[] {
    this.bySlug ??= Map.groupBy(this.data.sections.keys(), (i) => this.pageOf(i).slug);
    return this.bySlug.get(slug) ?? [];
  }
  /** A section's markdown, as the page's markdown twin has it ('' when the page cannot be read). */
  text(section: number): string {
    const [page, , , start, end] = this.data.sections[section]!;
    const slug = this.data.pages[page]!.slug;
    return kept(this.markdowns, slug, () => this.markdownOf(slug) ?? '').slice(start, end);
  }
  /** A section's sentences: [start, end, kind] flat, relative to its text. */
  sentences(section: number): Int32Array {
    const [, , , , , at, length] = this.data.sections[section]!;
    return kept(this.sentenceCache, section, () => {
      const n = (length ? this.pack(at, length).split(/[;,]/) : []).map((x) => Number.parseInt(x, 36));
      const out = new Int32Array((n.length / 2) * 3);
      for (let i = 0, k = 0, end = 0; i < n.length; i += 2, k += 3) {
        out[k] = end + Math.floor(n[i]! / 3);
        end = out[k]! + n[i + 1]!;
        out[k + 1] = end;
        out[k + 2] = n[i]! % 3;
      }
      return out;
    });
  }
}

/** The index a build wrote; text read through `markdownOf`, sentences through `pack`, the table on first use. */
export function loadAskIndex(
  json: string,
  markdownOf: MarkdownOf,
  pack: PackReader,
  embedding: () => EmbeddingTable | undefined = () => undefined,
): AskIndex {
  return new AskIndex(JSON.parse(json) as AskData, markdownOf, pack, embedding);
}
