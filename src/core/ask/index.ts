/**
 * @module The assistant's section index: every section of every page (src/core/ask/sections.ts) with its terms,
 * built at build time and written beside the search index (`ask-index.json`); loaded once per instance. Terms
 * are the site search's analyzer's (folding, stop words, AU/US spelling, Porter2), so the assistant and search
 * read words alike. Per section it keeps two fields, heading and body; per page the title's terms, and the
 * surface words of the site with how many sections hold them (typo correction of questions).
 *
 * A section's text is not in the file: it is a range of its page's markdown (the contract's `markdown`, which the
 * pages pack already holds), read for the few sections an answer quotes. Postings are one string a term, decoded
 * when a question asks for the term. At 10,000 pages the file holding the text and number arrays took ~400 ms to
 * read and parse before the first answer.
 */
import { analyze, eachWord, isStopWord, termOf } from '../search/analyze.ts';
import { type HeadingAnchor, type Section, splitSections } from './sections.ts';

export const ASK_FILE = 'ask-index.json';
export const ASK_FORMAT = 'kartage-ask-2';

/** A page as the assistant cites it. */
export interface AskPage {
  slug: string;
  /** The page's title without the site name. */
  title: string;
  url: string;
  /** A listing page (the blog or customers index): its sections summarise other pages, ranked below them. */
  listing?: true;
}

/** One section in the file: its page, heading, anchor, range of the page's markdown and sentence ranges. */
export interface AskSectionData {
  /** Page index. */
  p: number;
  /** Heading (null: the intro). */
  h: string | null;
  /** Anchor on the rendered page. */
  a?: string;
  /** [start, end) of the section's text in the page's markdown. */
  o: [number, number];
  /** Sentences as [start, end, kind] flat, relative to the section's text (kind 0 text, 1 table row, 2 header row). */
  s: number[];
}

/** What the build writes: pages, sections and postings. */
export interface AskData {
  format: typeof ASK_FORMAT;
  pages: AskPage[];
  sections: AskSectionData[];
  /** term -> postings: base-36 `section,tfBody,tfHeading` triples joined by `;`, sections ascending as deltas. */
  postings: Record<string, string>;
  /** Body length (terms) per section. */
  lengths: number[];
  /** Folded surface word -> number of sections holding it. */
  vocab: Record<string, number>;
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

/** A page's markdown by slug (the content source's pages). */
export type MarkdownOf = (slug: string) => string | undefined;

/** The page's title without " | Kartage". */
export const bareTitle = (t: string) => t.replace(/\s+\|\s+[^|]+$/, '');

/** Builds the index from the published pages (sorted by slug). */
export function buildAskIndex(pages: readonly AskSource[]): AskData {
  const data: AskData = { format: ASK_FORMAT, pages: [], sections: [], postings: {}, lengths: [], vocab: {} };
  const postings = new Map<string, number[]>();
  const vocab = new Map<string, number>();
  for (const page of pages) {
    const entry: AskPage = { slug: page.slug, title: bareTitle(page.title), url: page.url };
    if (page.kind === 'listing') entry.listing = true;
    const p = data.pages.push(entry) - 1;
    for (const section of splitSections(page.slug, page.markdown, page.headings)) {
      const id = data.sections.length;
      const flat: number[] = [];
      for (const s of section.sentences) flat.push(s.start, s.end, s.header ? 2 : s.row ? 1 : 0);
      const range: [number, number] = [section.start, section.start + section.text.length];
      const item: AskSectionData = { p, h: section.heading, o: range, s: flat };
      if (section.anchor) item.a = section.anchor;
      data.sections.push(item);
      const tf = new Map<string, [number, number]>();
      let length = 0;
      const seen = new Set<string>();
      eachWord(bodyOf(section), (w) => {
        if (!seen.has(w)) {
          seen.add(w);
          vocab.set(w, (vocab.get(w) ?? 0) + 1);
        }
        if (isStopWord(w)) return;
        length++;
        const t = termOf(w);
        const c = tf.get(t) ?? [0, 0];
        c[0]++;
        tf.set(t, c);
      });
      // The intro's heading is the page title, which every section of the page shares (AskIndex.titleHas).
      for (const t of section.heading === null ? [] : analyze(section.heading)) {
        const c = tf.get(t) ?? [0, 0];
        c[1]++;
        tf.set(t, c);
      }
      data.lengths.push(length);
      for (const [t, [b, h]] of tf) {
        let list = postings.get(t);
        if (!list) postings.set(t, (list = []));
        list.push(id, b, h);
      }
    }
  }
  const sorted = [...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  data.postings = Object.fromEntries(sorted.map(([t, list]) => [t, encodePostings(list)]));
  data.vocab = Object.fromEntries([...vocab].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return data;
}

/** Flat [section, tfBody, tfHeading]* (sections ascending) as base-36 triples, the section as a delta. */
export function encodePostings(list: readonly number[]): string {
  const out: string[] = [];
  let previous = 0;
  for (let i = 0; i < list.length; i += 3) {
    out.push(`${(list[i]! - previous).toString(36)},${list[i + 1]!.toString(36)},${list[i + 2]!.toString(36)}`);
    previous = list[i]!;
  }
  return out.join(';');
}

/** The flat postings of an encoded string. */
export function decodePostings(encoded: string): Int32Array {
  const triples = encoded ? encoded.split(';') : [];
  const out = new Int32Array(triples.length * 3);
  let section = 0;
  triples.forEach((t, k) => {
    const [d, b, h] = t.split(',');
    section += Number.parseInt(d!, 36);
    out[k * 3] = section;
    out[k * 3 + 1] = Number.parseInt(b!, 36);
    out[k * 3 + 2] = Number.parseInt(h!, 36);
  });
  return out;
}

/** The words a section's body holds: its text without the heading line, markdown link targets left out. */
function bodyOf(section: Section): string {
  const text = section.heading === null ? section.text : section.text.slice(section.text.indexOf('\n') + 1);
  return text.replace(/\]\([^)]*\)/g, ']');
}

/** Decoded postings kept per instance (the terms questions ask for; bounded). */
const DECODED_LIMIT = 20_000;
/** Pages' markdown kept per instance (the pages answers quote; bounded). */
const PAGES_LIMIT = 64;

/** A loaded index: postings by term, section lengths, page title terms, and the sections' text on demand. */
export class AskIndex {
  readonly data: AskData;
  readonly averageLength: number;
  private readonly titleTerms: Set<string>[];
  private readonly sectionsByPage = new Map<string, number[]>();
  private readonly decoded = new Map<string, Int32Array>();
  private readonly markdowns = new Map<string, string>();
  private readonly markdownOf: MarkdownOf;

  constructor(data: AskData, markdownOf: MarkdownOf) {
    if (data.format !== ASK_FORMAT) throw new Error(`ask index: unknown format ${String(data.format)}`);
    this.data = data;
    this.markdownOf = markdownOf;
    const total = data.lengths.reduce((a, b) => a + b, 0);
    this.averageLength = data.lengths.length ? total / data.lengths.length : 1;
    this.titleTerms = data.pages.map((p) => new Set(analyze(p.title)));
    data.sections.forEach((s, i) => {
      const slug = data.pages[s.p]!.slug;
      const list = this.sectionsByPage.get(slug);
      if (list) list.push(i);
      else this.sectionsByPage.set(slug, [i]);
    });
  }

  get sectionCount(): number {
    return this.data.sections.length;
  }

  /** Flat [section, tfBody, tfHeading]* of a term, or undefined. */
  postings(term: string): Int32Array | undefined {
    let list = this.decoded.get(term);
    if (list) return list;
    const encoded = this.data.postings[term];
    if (encoded === undefined) return undefined;
    if (this.decoded.size >= DECODED_LIMIT) this.decoded.clear();
    this.decoded.set(term, (list = decodePostings(encoded)));
    return list;
  }

  /** Sections holding the term, in body or heading. */
  df(term: string): number {
    return (this.postings(term)?.length ?? 0) / 3;
  }

  /** How many sections hold the folded surface word. */
  wordCount(word: string): number {
    return this.data.vocab[word] ?? 0;
  }

  titleHas(page: number, term: string): boolean {
    return this.titleTerms[page]!.has(term);
  }

  /** Sections of a page, in page order. */
  sectionsOf(slug: string): readonly number[] {
    return this.sectionsByPage.get(slug) ?? [];
  }

  /** A section's markdown, as the page's markdown twin has it ('' when the page cannot be read). */
  text(section: number): string {
    const s = this.data.sections[section]!;
    const slug = this.data.pages[s.p]!.slug;
    let md = this.markdowns.get(slug);
    if (md === undefined) {
      md = this.markdownOf(slug) ?? '';
      if (this.markdowns.size >= PAGES_LIMIT) this.markdowns.delete(this.markdowns.keys().next().value!);
      this.markdowns.set(slug, md);
    }
    return md.slice(s.o[0], s.o[1]);
  }
}

/** The index a build wrote (`ask-index.json`'s text), its sections' text read through `markdownOf`. */
export function loadAskIndex(json: string, markdownOf: MarkdownOf): AskIndex {
  return new AskIndex(JSON.parse(json) as AskData, markdownOf);
}

/** An index over pages held in memory (tests, small sites). */
export function askIndexOf(pages: readonly AskSource[]): AskIndex {
  const bySlug = new Map(pages.map((p) => [p.slug, p.markdown]));
  return new AskIndex(buildAskIndex(pages), (slug) => bySlug.get(slug));
}
