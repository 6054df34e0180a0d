/**
 * @module The search index: BM25F over four fields of each page (title, headings, description, body), computed at
 * build time and stored compactly (./bm25f.ts), with what the ranking reads of each page (slug, kind, title and
 * description terms) and the analyzed synonyms. Loading the file is one JSON.parse and a term table; nothing else is
 * decoded until a query asks for it.
 */
import type { PageKind } from '../../contract/content.ts';
import { analyze, analyzeSynonyms, eachWord, isStopWord, termOf, type SynonymEntry } from './analyze.ts';
import { type Bm25fData, Bm25fBuilder, Bm25fPostings, type Postings } from './bm25f.ts';

export type { Postings } from './bm25f.ts';

/** What the index reads of a page. */
export interface IndexablePage {
  slug: string;
  title: string;
  description?: string;
  markdown?: string;
  text: string;
  /** What the page is (listing, post, ...): the ranking's evergreen and listing rules read it. */
  kind: PageKind;
}

/** The file as written (JSON). */
export interface SerializedIndex extends Bm25fData {
  format: 'kartage-bm25f-1';
  /** Page slugs in index order (doc id = position). */
  slugs: string[];
  /** Each page's kind, in index order. */
  kinds: PageKind[];
  /** Each page's title terms, space-separated (for title and phrase boosts). */
  titles: string[];
  /** Each page's description terms, space-separated (for phrase boosts). */
  descriptions: string[];
  /** Analyzed synonyms: [query term, phrases it may also match]. */
  synonyms: [string, string[][]][];
}

/** BM25F settings: field weight and length normalisation. */
export const FIELDS = {
  title: { weight: 6, b: 0.3 },
  headings: { weight: 2.5, b: 0.5 },
  description: { weight: 2.5, b: 0.5 },
  body: { weight: 1, b: 0.75 },
} as const;
export { K1 } from './bm25f.ts';
/**
 * Floor of a term's idf. A word on nearly every page ("customers", "storage" here) would otherwise weigh
 * nothing, and a page titled with it could not come first for it; with the floor the field weights decide.
 */
export const MIN_IDF = 0.3;
const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

/** A page title without the site suffix ("Pricing | Kartage" -> "Pricing"). */
export const bareTitle = (t: string) => t.replace(/\s+\|\s+[^|]+$/, '');

/** Headings of a page's markdown (ATX lines outside the front matter). */
export function headingsOf(markdown: string | undefined): string {
  if (!markdown) return '';
  const body = markdown.startsWith('---\n') ? markdown.slice(markdown.indexOf('\n---', 4) + 4) : markdown;
  const out: string[] = [];
  for (const m of body.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) out.push(m[1]!);
  return out.join('. ');
}

/**
 * Builds the serialized index from the pages (at build time), as BM25F postings (./bm25f.ts). The fields' terms are
 * `analyze`'s (the title's and description's are kept as text); the headings and body are scanned word by word
 * (`eachWord`) and each distinct word is analyzed once, straight to its term id.
 */
export function buildIndex(pages: IndexablePage[], synonyms: SynonymEntry[] = []): SerializedIndex {
  const builder = new Bm25fBuilder(FIELD_NAMES.map((name) => FIELDS[name]));
  const titles: string[] = [];
  const descriptions: string[] = [];
  /** A folded word's term id, or -1 for a stop word. */
  const wordIds = new Map<string, number>();
  let field = 0;
  const countWord = (w: string) => {
    let id = wordIds.get(w);
    if (id === undefined) wordIds.set(w, (id = isStopWord(w) ? -1 : builder.termId(termOf(w))));
    if (id >= 0) builder.count(field, id);
  };
  for (const page of pages) {
    const title = analyze(bareTitle(page.title));
    const description = analyze(page.description ?? '');
    titles.push(title.join(' '));
    descriptions.push(description.join(' '));
    for (const t of title) builder.count(0, builder.termId(t));
    field = 1;
    eachWord(headingsOf(page.markdown), countWord);
    for (const t of description) builder.count(2, builder.termId(t));
    field = 3;
    eachWord(page.text, countWord);
    builder.next();
  }
  return {
    format: 'kartage-bm25f-1',
    slugs: pages.map((p) => p.slug),
    kinds: pages.map((p) => p.kind),
    titles,
    descriptions,
    ...builder.build(MIN_IDF),
    synonyms: analyzeSynonyms(synonyms),
  };
}

/** The loaded index. */
export class SearchIndex {
  readonly slugs: string[];
  readonly kinds: PageKind[];
  readonly size: number;
  private readonly titles: string[];
  private readonly titleTerms: (string[] | undefined)[];
  private readonly descriptionTerms: (string[] | undefined)[];
  private readonly data: SerializedIndex;
  private readonly terms: Bm25fPostings;
  readonly synonyms: Map<string, string[][]>;

  constructor(data: SerializedIndex) {
    if (data.format !== 'kartage-bm25f-1') throw new Error(`search index: unknown format ${String(data.format)}`);
    this.data = data;
    if (data.kinds?.length !== data.slugs.length) throw new Error('search index: no page kinds (rebuild the site)');
    this.slugs = data.slugs;
    this.kinds = data.kinds;
    this.size = data.slugs.length;
    this.titles = data.titles;
    this.titleTerms = new Array(this.size);
    this.descriptionTerms = new Array(this.size);
    this.terms = new Bm25fPostings(data);
    this.synonyms = new Map(data.synonyms);
  }

  /** Number of pages documented (MiniSearch's name, kept for the benchmark's cold-load probe). */
  get documentCount(): number {
    return this.size;
  }

  termId(term: string): number | undefined {
    return this.terms.termId(term);
  }

  df(id: number): number {
    return this.terms.df(id);
  }

  /** The analyzed title of a page (terms in order). */
  title(doc: number): string[] {
    let t = this.titleTerms[doc];
    if (!t) this.titleTerms[doc] = t = this.titles[doc] ? this.titles[doc]!.split(' ') : [];
    return t;
  }

  /** The analyzed description of a page (terms in order). */
  description(doc: number): string[] {
    let t = this.descriptionTerms[doc];
    if (!t) this.descriptionTerms[doc] = t = this.data.descriptions[doc] ? this.data.descriptions[doc]!.split(' ') : [];
    return t;
  }

  postings(id: number): Postings {
    return this.terms.postings(id);
  }
}
