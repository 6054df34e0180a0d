/**
 * @module The assistant's section index: every section of every page (src/core/ask/sections.ts) with its terms,
 * built at build time and written beside the search index (`ask-index.json`); loaded once per instance. Terms
 * are the site search's analyzer's (folding, stop words, AU/US spelling, Porter2), so the assistant and search
 * read words alike. Per section it keeps two fields, heading and body; per page the title's terms, and the
 * surface words of the site with how many sections hold them (typo correction of questions).
 *
 * A section's text is not in the file: it is a range of its page's markdown (the contract's `markdown`, which the
 * pages pack already holds), read for the few sections an answer quotes. Postings (one string a term) and each
 * section's sentence list are not in it either: they are ranges of `ask-index.pack`, read and decoded when a
 * question asks for the term or an answer quotes the section. At 10,000 pages the file holding the text and number
 * arrays took ~400 ms to read and parse before the first answer; with the postings and sentence lists in it, ~100 ms
 * (most of a cold first answer); without them, a fifth of that.
 */
import { analyze, eachWord, isStopWord, own, termOf } from '../search/analyze.ts';
import { type HeadingAnchor, type Section, splitSections } from './sections.ts';

export const ASK_FILE = 'ask-index.json';
/** The postings and the sections' sentence lists (ASCII text), which the index file points into by range. */
export const ASK_PACK = 'ask-index.pack';
export const ASK_FORMAT = 'kartage-ask-6';

/** `length` characters of the pack from `start`. */
export type PackReader = (start: number, length: number) => string;

/** A page as the assistant cites it. */
export interface AskPage {
  slug: string;
  /** The page's title without the site name. */
  title: string;
  url: string;
  /** The title's terms (analyzed at build time). */
  terms: string[];
  /** A listing page (the blog or customers index): its sections summarise other pages, ranked below them. */
  listing?: true;
}

/**
 * One section in the file, as a row (a JSON array parses faster than an object): its page, heading (null: the
 * intro), anchor on the rendered page ('' for none), the [start, end) of its text in the page's markdown, and where
 * the pack holds its sentences: base-36 `start,end,kind` triples joined by `;` (relative to the section's text;
 * kind 0 text, 1 table row, 2 a table's header row), read for the few sections an answer quotes.
 */
export type AskSectionRow = [
  page: number,
  heading: string | null,
  anchor: string,
  start: number,
  end: number,
  sentencesAt: number,
  sentencesLength: number,
];

/** What the build writes in the index file: pages, sections, and where the pack holds each term's postings. */
export interface AskData {
  format: typeof ASK_FORMAT;
  pages: AskPage[];
  sections: AskSectionRow[];
  /**
   * term -> [start, length] in the pack of its postings: base-36 `section,tfBody,tfHeading` triples joined by `;`,
   * sections ascending as deltas.
   */
  postings: Record<string, [number, number]>;
  /** Body length (terms) per section. */
  lengths: number[];
  /** Folded surface word -> number of pages holding it (typo correction picks the most used). */
  vocab: Record<string, number>;
  /**
   * Questions visitors asked that the site does not answer (its known gaps), each as its terms: a question nearer
   * one of them than any learned question (nearestAsked) is told so plainly instead of quoted a near miss.
   */
  gaps: string[][];
  /**
   * Questions visitors asked that the site answers, each as its terms and the sections judged to answer it: a
   * question that reads like one of them (nearestAsked) puts those sections first.
   */
  learned: [terms: string[], sections: number[]][];
  /**
   * The idf of every term of the gaps and learned questions, worked out at build time: comparing a question with
   * them reads no postings (decoding a thousand terms' postings on an instance's first question would be its cold
   * start).
   */
  weights: Record<string, number>;
}

/** How near a question is to the asked ones (AskIndex.nearestAsked). */
export interface NearestAsked {
  /** To the nearest learned question (0-1), and the sections that answer that one. */
  similarity: number;
  sections: readonly number[];
  /** To the nearest known gap (0-1). */
  gap: number;
}

/** A question asked before, with the sections that answer it (slug and heading as the page writes it). */
export interface LearnedQuestion {
  question: string;
  /** A follow-up's earlier turn's question: the follow-up is learned in its context. */
  earlier?: string;
  sections: readonly { slug: string; heading: string | null }[];
}

/**
 * What the index learns beside the pages: each section's search hints, the known gaps and the learned questions
 * (src/build/ask-hints.ts gives the site's; none by default).
 */
export interface AskLearning {
  hintsOf?: (slug: string) => SectionHints;
  gaps?: readonly string[];
  learned?: readonly LearnedQuestion[];
}

/** A term's idf among `sections` sections when `df` of them hold it (BM25's, never negative). */
export const idfOf = (sections: number, df: number) => Math.log(1 + (sections - df + 0.5) / (df + 0.5));

/** A heading with straight quotes (the rendered page curls them: "What's next" is "What’s next"). */
export const straightQuotes = (s: string) => s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');

/** What the build gives per page: its contract fields and the rendered headings' anchors. */
export interface AskSource {
  slug: string;
  title: string;
  url: string;
  markdown: string;
  headings?: readonly HeadingAnchor[];
  kind?: string;
}

/**
 * A page's search hints by section heading (null: the intro): words a visitor may use for what a section says that
 * the section does not (src/build/ask-hints.json). They are indexed with the section, never shown.
 */
export type SectionHints = (heading: string | null) => readonly string[];

/** A page's markdown by slug (the content source's pages). */
export type MarkdownOf = (slug: string) => string | undefined;

/** The page's title without " | Kartage". */
export const bareTitle = (t: string) => t.replace(/\s+\|\s+[^|]+$/, '');

/**
 * One page's part of the index, worked out on its own (in the build's page workers, and kept in their page cache):
 * each section's row (without its page), body length, term counts (`term`, body, heading, flat) and the distinct
 * surface words it holds.
 */
export interface AskPageData {
  rows: [heading: string | null, anchor: string, start: number, end: number, sentences: string][];
  lengths: number[];
  tf: (string | number)[][];
  /** Per section, the terms its hints add (words the section does not hold); the index keeps the uncommon ones. */
  hinted: string[][];
  /** The page's distinct surface words (the vocabulary counts pages). */
  words: string[];
}

/**
 * A hint's word is indexed only if at most this share of the site's sections hold it in their own text: a word
 * most sections hold ("kartage", "move") added to a section says nothing of it. 3.3 % (20 of 610) while the hints
 * were few: a common word ("cost", "plan") added to one section pulled generic questions to it. With the judged
 * sets' questions learned (1,056), a word a fifth of the sections hold still tells the sections that answer it
 * apart: leaving each learned set out in turn, 0.033 -> 0.2 moved answer@1 0.831 -> 0.850, answer@3 0.899 -> 0.924,
 * absent-correct 0.913 -> 0.917, no-answer 0.043 -> 0.028 (two-part 0.849 the same); 0.13 to 1 all within 0.003.
 */
export const HINT_MAX_SHARE = 0.2;

/**
 * A page's part of the index (see AskPageData). A section's hints add the words it lacks (once each, outside its
 * length, and only uncommon ones: HINT_MAX_SHARE): they let a paraphrase find the section, never weigh more on a
 * word the section says itself.
 */
export function askPageData(
  page: Pick<AskSource, 'slug' | 'markdown' | 'headings'>,
  hints: SectionHints = () => [],
): AskPageData {
  const out: AskPageData = { rows: [], lengths: [], tf: [], hinted: [], words: [] };
  const seen = new Set<string>();
  for (const section of splitSections(page.slug, page.markdown, page.headings)) {
    const sentences = section.sentences
      .map((x) => `${x.start.toString(36)},${x.end.toString(36)},${x.header ? 2 : x.row ? 1 : 0}`)
      .join(';');
    out.rows.push([
      section.heading,
      section.anchor ?? '',
      section.start,
      section.start + section.text.length,
      sentences,
    ]);
    const tf = new Map<string, [number, number]>();
    let length = 0;
    eachWord(bodyOf(section), (w) => {
      seen.add(w);
      if (isStopWord(w)) return;
      length++;
      const t = termOf(w);
      const c = tf.get(t);
      if (c) c[0]++;
      else tf.set(t, [1, 0]);
    });
    const hinted = new Set<string>();
    for (const hint of hints(section.heading)) {
      eachWord(hint, (w) => {
        seen.add(w);
        if (!isStopWord(w)) hinted.add(termOf(w));
      });
    }
    // The intro's heading is the page title, which every section of the page shares (AskIndex.titleHas).
    for (const t of section.heading === null ? [] : analyze(section.heading)) {
      const c = tf.get(t);
      if (c) c[1]++;
      else tf.set(t, [0, 1]);
    }
    const flat: (string | number)[] = [];
    for (const [t, [b, h]] of tf) flat.push(t, b, h);
    out.lengths.push(length);
    out.tf.push(flat);
    out.hinted.push([...hinted].filter((t) => !tf.has(t)));
  }
  out.words = [...seen];
  return out;
}

/** What the build writes: the index file's data and the pack's text. */
export interface AskFiles {
  data: AskData;
  pack: string;
}

/** The index from the pages (sorted by slug), each with its part when the build worked it out already. */
export function assembleAskIndex(
  pages: readonly (AskSource & { ask?: AskPageData })[],
  { hintsOf = () => () => [], gaps = [], learned = [] }: AskLearning = {},
): AskFiles {
  const data: AskData = {
    format: ASK_FORMAT,
    pages: [],
    sections: [],
    postings: {},
    lengths: [],
    vocab: {},
    gaps: [],
    learned: [],
    weights: {},
  };
  const pack: string[] = [];
  let at = 0;
  const put = (text: string): [number, number] => {
    pack.push(text);
    at += text.length;
    return [at - text.length, text.length];
  };
  const postings = new Map<string, number[]>();
  const vocab = new Map<string, number>();
  const parts = pages.map((page) => page.ask ?? askPageData(page, hintsOf(page.slug)));
  // How many sections hold each term in their own text: a hint adds only the uncommon ones (HINT_MAX_SHARE).
  const holding = new Map<string, number>();
  let sections = 0;
  for (const part of parts) {
    sections += part.tf.length;
    for (const tf of part.tf)
      for (let i = 0; i < tf.length; i += 3) holding.set(tf[i] as string, (holding.get(tf[i] as string) ?? 0) + 1);
  }
  const hintLimit = Math.floor(sections * HINT_MAX_SHARE);
  const add = (t: string, id: number, body: number, heading: number) => {
    const list = postings.get(t);
    if (list) list.push(id, body, heading);
    else postings.set(t, [id, body, heading]);
  };
  pages.forEach((page, n) => {
    const entry: AskPage = {
      slug: page.slug,
      title: bareTitle(page.title),
      url: page.url,
      terms: analyze(bareTitle(page.title)),
    };
    if (page.kind === 'listing') entry.listing = true;
    const p = data.pages.push(entry) - 1;
    const part = parts[n]!;
    part.rows.forEach(([heading, anchor, start, end, sentences], k) => {
      const id = data.sections.push([p, heading, anchor, start, end, ...put(sentences)]) - 1;
      data.lengths.push(part.lengths[k]!);
      const tf = part.tf[k]!;
      for (let i = 0; i < tf.length; i += 3) add(tf[i] as string, id, tf[i + 1] as number, tf[i + 2] as number);
      for (const t of part.hinted[k] ?? []) if ((holding.get(t) ?? 0) <= hintLimit) add(t, id, 1, 0);
    });
    for (const w of part.words) vocab.set(w, (vocab.get(w) ?? 0) + 1);
  });
  const sorted = [...postings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  data.postings = Object.fromEntries(sorted.map(([t, list]) => [t, put(encodePostings(list))]));
  data.vocab = Object.fromEntries([...vocab].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  data.gaps = gaps.map(askedTerms).filter((t) => t.length > 0);
  const sectionId = new Map<string, number>();
  data.sections.forEach(([page, heading], id) => {
    sectionId.set(`${data.pages[page]!.slug}#${straightQuotes(heading ?? '')}`, id);
  });
  for (const q of learned) {
    const ids = q.sections
      .map((s) => sectionId.get(`${s.slug}#${straightQuotes(s.heading ?? '')}`))
      .filter((id) => id !== undefined);
    const terms = askedTerms(inContext(q.question, q.earlier));
    if (ids.length && terms.length) data.learned.push([terms, [...new Set(ids)]]);
  }
  const idf = (t: string) => idfOf(sections, (postings.get(t)?.length ?? 0) / 3);
  const weighed = new Set([...data.gaps.flat(), ...data.learned.flatMap(([terms]) => terms)]);
  data.weights = Object.fromEntries([...weighed].sort().map((t) => [t, Math.round(idf(t) * 1000) / 1000]));
  return { data, pack: pack.join('') };
}

/** A follow-up as it is compared with asked questions: its earlier turn's question, then its own words. */
export const inContext = (question: string, earlier?: string) => (earlier ? `${earlier} ${question}` : question);

/** An asked question's terms (its analyzed words), sorted, each once. */
export const askedTerms = (question: string): string[] => [...new Set(analyze(question))].sort();

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
  private sectionsByPage: Map<string, number[]> | undefined;
  private readonly decoded = new Map<string, Int32Array>();
  private readonly decodedSentences = new Map<number, Int32Array>();
  private readonly markdowns = new Map<string, string>();
  private readonly markdownOf: MarkdownOf;
  private readonly pack: PackReader;
  private titleIndex: Map<string, number[]> | undefined;
  private asked: { byTerm: Map<string, number[]>; weight: Float64Array } | undefined;

  constructor(data: AskData, markdownOf: MarkdownOf, pack: PackReader) {
    if (data.format !== ASK_FORMAT) throw new Error(`ask index: unknown format ${String(data.format)}`);
    this.data = data;
    this.markdownOf = markdownOf;
    this.pack = pack;
    const total = data.lengths.reduce((a, b) => a + b, 0);
    this.averageLength = data.lengths.length ? total / data.lengths.length : 1;
    this.titleTerms = data.pages.map((p) => new Set(p.terms));
  }

  get sectionCount(): number {
    return this.data.sections.length;
  }

  /**
   * The asked questions (learned and gaps) the question reads most like: the similarity of their terms (Jaccard,
   * each term weighed by its idf, so "how long does a demo take" is near "how long does the demo go for?" for
   * "demo", not "long"), with the nearest learned question's sections, and the nearest gap's similarity.
   */
  nearestAsked(question: string): NearestAsked {
    const { learned, gaps, weights } = this.data;
    const out: NearestAsked = { similarity: 0, sections: [], gap: 0 };
    if (!learned.length && !gaps.length) return out;
    const asked = this.askedByTerm();
    // A term of the question no asked question has is weighed from its postings (the ranking read them).
    const weight = (t: string) => own(weights, t) ?? this.idf(t);
    const terms = askedTerms(question);
    if (!terms.length) return out;
    let held = 0;
    const shared = new Map<number, number>();
    for (const t of terms) {
      const w = weight(t);
      held += w;
      for (const id of asked.byTerm.get(t) ?? []) shared.set(id, (shared.get(id) ?? 0) + w);
    }
    // Only the asked questions that share a term with it: Jaccard of the weights, shared over the union. Of two
    // learned questions as near, the first in the file.
    let nearest = Number.POSITIVE_INFINITY;
    for (const [id, both] of shared) {
      const v = both / (held + asked.weight[id]! - both);
      if (id >= learned.length) out.gap = Math.max(out.gap, v);
      else if (v > out.similarity || (v === out.similarity && id < nearest)) {
        out.similarity = v;
        out.sections = learned[id]![1];
        nearest = id;
      }
    }
    return out;
  }

  /** The asked questions (learned, then gaps) by term, and each one's weight (built on first use). */
  private askedByTerm(): { byTerm: Map<string, number[]>; weight: Float64Array } {
    if (this.asked) return this.asked;
    const { learned, gaps, weights } = this.data;
    const all = [...learned.map(([terms]) => terms), ...gaps];
    const byTerm = new Map<string, number[]>();
    const weight = new Float64Array(all.length);
    all.forEach((terms, id) => {
      for (const t of terms) {
        weight[id]! += weights[t]!;
        const list = byTerm.get(t);
        if (list) list.push(id);
        else byTerm.set(t, [id]);
      }
    });
    this.asked = { byTerm, weight };
    return this.asked;
  }

  /** Flat [section, tfBody, tfHeading]* of a term, or undefined. */
  postings(term: string): Int32Array | undefined {
    let list = this.decoded.get(term);
    if (list) return list;
    const at = this.data.postings[term];
    if (at === undefined) return undefined;
    if (this.decoded.size >= DECODED_LIMIT) this.decoded.clear();
    this.decoded.set(term, (list = decodePostings(this.pack(at[0], at[1]))));
    return list;
  }

  /** Sections holding the term, in body or heading. */
  df(term: string): number {
    return (this.postings(term)?.length ?? 0) / 3;
  }

  /** The term's idf over the sections (idfOf). */
  idf(term: string): number {
    return idfOf(this.sectionCount, this.df(term));
  }

  /** How many pages hold the folded surface word. */
  wordCount(word: string): number {
    return own(this.data.vocab, word) ?? 0;
  }

  titleHas(page: number, term: string): boolean {
    return this.titleTerms[page]!.has(term);
  }

  /** The pages whose title holds the term (built on first use: one pass over the titles). */
  pagesTitled(term: string): readonly number[] {
    if (!this.titleIndex) {
      this.titleIndex = new Map();
      this.titleTerms.forEach((terms, page) => {
        for (const t of terms) {
          const list = this.titleIndex!.get(t);
          if (list) list.push(page);
          else this.titleIndex!.set(t, [page]);
        }
      });
    }
    return this.titleIndex.get(term) ?? [];
  }

  /** Sections of a page, in page order. */
  sectionsOf(slug: string): readonly number[] {
    // Built on first use (pricing answers and the tests read it), not on the cold start of every instance.
    if (!this.sectionsByPage) {
      const bySlug = new Map<string, number[]>();
      this.data.sections.forEach((s, i) => {
        const page = this.data.pages[s[0]]!.slug;
        const list = bySlug.get(page);
        if (list) list.push(i);
        else bySlug.set(page, [i]);
      });
      this.sectionsByPage = bySlug;
    }
    return this.sectionsByPage.get(slug) ?? [];
  }

  /** The page (index in `data.pages`) of a section. */
  pageOf(section: number): number {
    return this.data.sections[section]![0];
  }

  /** A section's heading (null: the page intro). */
  heading(section: number): string | null {
    return this.data.sections[section]![1];
  }

  /** A section's anchor on the rendered page, if its heading has one. */
  anchor(section: number): string | undefined {
    return this.data.sections[section]![2] || undefined;
  }

  /** A section's sentences: [start, end, kind] flat, relative to its text. */
  sentences(section: number): Int32Array {
    let out = this.decodedSentences.get(section);
    if (out) return out;
    const [, , , , , at, length] = this.data.sections[section]!;
    const encoded = length ? this.pack(at, length) : '';
    const triples = encoded ? encoded.split(';') : [];
    out = new Int32Array(triples.length * 3);
    triples.forEach((t, k) => {
      const [a, b, c] = t.split(',');
      out![k * 3] = Number.parseInt(a!, 36);
      out![k * 3 + 1] = Number.parseInt(b!, 36);
      out![k * 3 + 2] = Number(c);
    });
    if (this.decodedSentences.size >= DECODED_LIMIT) this.decodedSentences.clear();
    this.decodedSentences.set(section, out);
    return out;
  }

  /** A section's markdown, as the page's markdown twin has it ('' when the page cannot be read). */
  text(section: number): string {
    const [page, , , start, end] = this.data.sections[section]!;
    const slug = this.data.pages[page]!.slug;
    let md = this.markdowns.get(slug);
    if (md === undefined) {
      md = this.markdownOf(slug) ?? '';
      if (this.markdowns.size >= PAGES_LIMIT) this.markdowns.delete(this.markdowns.keys().next().value!);
      this.markdowns.set(slug, md);
    }
    return md.slice(start, end);
  }
}

/**
 * The index a build wrote (`ask-index.json`'s text), its sections' text read through `markdownOf` and its postings
 * and sentence lists through `pack` (ranges of `ask-index.pack`).
 */
export function loadAskIndex(json: string, markdownOf: MarkdownOf, pack: PackReader): AskIndex {
  return new AskIndex(JSON.parse(json) as AskData, markdownOf, pack);
}

/** An index over pages held in memory (tests, small sites). */
export function askIndexOf(pages: readonly AskSource[], learning: AskLearning = {}): AskIndex {
  const bySlug = new Map(pages.map((p) => [p.slug, p.markdown]));
  const { data, pack } = assembleAskIndex(pages, learning);
  return new AskIndex(
    data,
    (slug) => bySlug.get(slug),
    (start, length) => pack.slice(start, start + length),
  );
}
