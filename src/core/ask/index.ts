/**
 * @module The assistant's section index: every section of every page (src/core/ask/sections.ts) with its terms,
 * built at build time and written beside the search index (`ask-index.json`); loaded once per instance. Terms
 * are the site search's analyzer's (folding, stop words, AU/US spelling, Porter2), so the assistant and search
 * read words alike. Per section it keeps two fields, heading and body; per page the title's terms, and the
 * surface words of the site with how many sections hold them (typo correction of questions).
 */
import { analyze, eachWord, isStopWord, termOf } from '../search/analyze.ts';
import { type Section, splitSections, type HeadingAnchor } from './sections.ts';

export const ASK_FILE = 'ask-index.json';
export const ASK_FORMAT = 'kartage-ask-1';

/** A page as the assistant cites it. */
export interface AskPage {
  slug: string;
  /** The page's title without the site name. */
  title: string;
  url: string;
  /** A listing page (the blog or customers index): its sections summarise other pages, ranked below them. */
  listing?: true;
}

/** What the build writes: pages, sections (text and sentence ranges) and postings. */
export interface AskData {
  format: typeof ASK_FORMAT;
  pages: AskPage[];
  /**
   * p: page index; h: heading (null: intro); a: anchor; t: markdown; s: sentences as [start, end, kind] flat
   * (kind 0 text, 1 table row, 2 a table's header row).
   */
  sections: { p: number; h: string | null; a?: string; t: string; s: number[] }[];
  /** term -> flat [section, tf in body, tf in heading]* (sections ascending). */
  postings: Record<string, number[]>;
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
      const entry: AskData['sections'][number] = { p, h: section.heading, t: section.text, s: flat };
      if (section.anchor) entry.a = section.anchor;
      data.sections.push(entry);
      const body = bodyOf(section);
      const tf = new Map<string, [number, number]>();
      let length = 0;
      const seen = new Set<string>();
      eachWord(body, (w) => {
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
  data.postings = Object.fromEntries([...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  data.vocab = Object.fromEntries([...vocab].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return data;
}

/** The words a section's body holds: its text without the heading line, markdown link targets left out. */
function bodyOf(section: Section): string {
  const text = section.heading === null ? section.text : section.text.slice(section.text.indexOf('\n') + 1);
  return text.replace(/\]\([^)]*\)/g, ']');
}

/** A loaded index: postings by term, section lengths, page title terms. */
export class AskIndex {
  readonly data: AskData;
  readonly averageLength: number;
  private readonly titleTerms: Set<string>[];
  private readonly sectionsByPage = new Map<string, number[]>();

  constructor(data: AskData) {
    if (data.format !== ASK_FORMAT) throw new Error(`ask index: unknown format ${String(data.format)}`);
    this.data = data;
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

  postings(term: string): number[] | undefined {
    return this.data.postings[term];
  }

  /** Sections (of all) holding the term, in body or heading. */
  df(term: string): number {
    return (this.data.postings[term]?.length ?? 0) / 3;
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

  /** The section whose slug and heading these are (heading compared case- and space-insensitively). */
  find(slug: string, heading: string | null): number | undefined {
    const key = heading === null ? null : heading.toLowerCase().replace(/\s+/g, ' ').trim();
    for (const i of this.sectionsOf(slug)) {
      const h = this.data.sections[i]!.h;
      if (h === null ? key === null : key !== null && h.toLowerCase().replace(/\s+/g, ' ').trim() === key) return i;
    }
    return undefined;
  }
}

export function loadAskIndex(json: string): AskIndex {
  return new AskIndex(JSON.parse(json) as AskData);
}
