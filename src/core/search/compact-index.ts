/**
 * @module The search index: BM25F over four fields (title, headings, description, body), computed at build
 * time and stored compactly. Each term's postings are its pages in order, delta-encoded as base-32 varints, each
 * followed by the page's quantised BM25F saturation (tf~ / (k1 + tf~), 6 bits), all in one string of URL-safe
 * base-64 characters (JSON needs no escapes for them). A term's postings are decoded on first use and kept, so
 * loading the file is one JSON.parse and a term table; nothing else is decoded until a query asks for it.
 */
import type { PageKind } from '../../contract/content.ts';
import { analyze, analyzeSynonyms, eachWord, isStopWord, termOf, type SynonymEntry } from './analyze.ts';

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
export interface SerializedIndex {
  format: 'kartage-bm25f-1';
  /** Page slugs in index order (doc id = position). */
  slugs: string[];
  /** Each page's kind, in index order. */
  kinds: PageKind[];
  /** Each page's title terms, space-separated (for title and phrase boosts). */
  titles: string[];
  /** Each page's description terms, space-separated (for phrase boosts). */
  descriptions: string[];
  /** Every term, space-separated; term id = position. */
  terms: string;
  /** Per term: inverse document frequency x 1000, rounded. */
  idf: number[];
  /** Per term: number of pages holding it. */
  df: number[];
  /** Per term: offset of its postings in `postings`. */
  offsets: number[];
  postings: string;
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
export const K1 = 1.2;
/**
 * Floor of a term's idf. A word on nearly every page ("customers", "storage" here) would otherwise weigh
 * nothing, and a page titled with it could not come first for it; with the floor the field weights decide.
 */
export const MIN_IDF = 0.3;
const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

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

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

/**
 * The postings string while it is written: ASCII codes of ALPHABET characters in a growing byte array, decoded
 * once at the end (not millions of one-character strings joined).
 */
class PostingsOut {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  /** One character: ALPHABET[value]. */
  push(value: number) {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = ALPHABET_CODES[value]!;
  }

  /** A base-32 varint: 5 bits a character, low bits first, 32 set on every character but the last. */
  varint(n: number) {
    while (n >= 32) {
      this.push(32 | (n & 31));
      n = Math.floor(n / 32);
    }
    this.push(n);
  }

  text(): string {
    return new TextDecoder().decode(this.bytes.subarray(0, this.length));
  }
}

/** A growable array of integers (a term's raw postings while the index is built). */
class IntList {
  data = new Int32Array(10);
  length = 0;
  push5(a: number, b: number, c: number, d: number, e: number) {
    if (this.length + 5 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const x = this.data;
    const n = this.length;
    x[n] = a;
    x[n + 1] = b;
    x[n + 2] = c;
    x[n + 3] = d;
    x[n + 4] = e;
    this.length = n + 5;
  }
}

/**
 * Builds the serialized index from the pages (at build time). The fields' terms are `analyze`'s (the title's
 * and description's are kept as text); the headings and body are scanned word by word (`eachWord`) and each
 * distinct word is analyzed once, straight to its term id: the same terms, ids and counts, at 10,000 pages
 * about half the time.
 */
export function buildIndex(pages: IndexablePage[], synonyms: SynonymEntry[] = []): SerializedIndex {
  const n = pages.length;
  const termIds = new Map<string, number>();
  const termList: string[] = [];
  // Per term: flat [doc, tfTitle, tfHeadings, tfDescription, tfBody, ...] (docs ascending).
  const raw: IntList[] = [];
  const lengths = FIELD_NAMES.map(() => new Float64Array(n));
  const titles: string[] = [];
  const descriptions: string[] = [];
  const idOfTerm = (t: string): number => {
    let id = termIds.get(t);
    if (id === undefined) {
      termIds.set(t, (id = termList.length));
      termList.push(t);
      raw.push(new IntList());
    }
    return id;
  };
  /** A folded word's term id, or -1 for a stop word. */
  const wordIds = new Map<string, number>();
  // Per term id, this page's counts per field (4 each), and the ids this page holds in order of first use.
  let counts = new Int32Array(4096 * 4);
  const held: number[] = [];
  let field = 0;
  let doc = 0;
  const count = (id: number) => {
    if (id * 4 + 4 > counts.length) {
      const grown = new Int32Array(Math.max(counts.length * 2, id * 4 + 4));
      grown.set(counts);
      counts = grown;
    }
    const at = id * 4;
    if (counts[at]! === 0 && counts[at + 1]! === 0 && counts[at + 2]! === 0 && counts[at + 3]! === 0) held.push(id);
    counts[at + field]!++;
    lengths[field]![doc]!++;
  };
  const countWord = (w: string) => {
    let id = wordIds.get(w);
    if (id === undefined) wordIds.set(w, (id = isStopWord(w) ? -1 : idOfTerm(termOf(w))));
    if (id >= 0) count(id);
  };
  for (; doc < n; doc++) {
    const page = pages[doc]!;
    const title = analyze(bareTitle(page.title));
    const description = analyze(page.description ?? '');
    titles.push(title.join(' '));
    descriptions.push(description.join(' '));
    field = 0;
    for (const t of title) count(idOfTerm(t));
    field = 1;
    eachWord(headingsOf(page.markdown), countWord);
    field = 2;
    for (const t of description) count(idOfTerm(t));
    field = 3;
    eachWord(page.text, countWord);
    for (const id of held) {
      const at = id * 4;
      raw[id]!.push5(doc, counts[at]!, counts[at + 1]!, counts[at + 2]!, counts[at + 3]!);
      counts.fill(0, at, at + 4);
    }
    held.length = 0;
  }
  const avg = lengths.map((l) => Math.max(1, l.reduce((a, b) => a + b, 0) / Math.max(1, n)));
  const weights = FIELD_NAMES.map((name) => FIELDS[name].weight);
  const bs = FIELD_NAMES.map((name) => FIELDS[name].b);
  const idf: number[] = [];
  const df: number[] = [];
  const offsets: number[] = [];
  const out = new PostingsOut();
  for (let id = 0; id < termList.length; id++) {
    const { data: r, length: rl } = raw[id]!;
    const d = rl / 5;
    df.push(d);
    idf.push(Math.round(1000 * Math.max(MIN_IDF, Math.log(1 + (n - d + 0.5) / (d + 0.5)))));
    offsets.push(out.length);
    let prev = -1;
    for (let i = 0; i < rl; i += 5) {
      const doc = r[i]!;
      let tf = 0;
      for (let f = 0; f < 4; f++) {
        const b = bs[f]!;
        tf += (weights[f]! * r[i + 1 + f]!) / (1 - b + (b * lengths[f]![doc]!) / avg[f]!);
      }
      out.varint(doc - prev - 1);
      prev = doc;
      out.push(Math.max(1, Math.min(63, Math.round((63 * tf) / (K1 + tf)))));
    }
  }
  return {
    format: 'kartage-bm25f-1',
    slugs: pages.map((p) => p.slug),
    kinds: pages.map((p) => p.kind),
    titles,
    descriptions,
    terms: termList.join(' '),
    idf,
    df,
    offsets,
    postings: out.text(),
    synonyms: analyzeSynonyms(synonyms),
  };
}

/** A term's postings, decoded: pages ascending and each page's score for the term (idf x saturation). */
export interface Postings {
  docs: Int32Array;
  scores: Float32Array;
}

/** The loaded index. */
export class SearchIndex {
  readonly slugs: string[];
  readonly kinds: PageKind[];
  readonly size: number;
  private readonly titles: string[];
  private readonly titleTerms: (string[] | undefined)[];
  private readonly descriptionTerms: (string[] | undefined)[];
  private readonly ids = new Map<string, number>();
  private readonly data: SerializedIndex;
  private readonly decoded = new Map<number, Postings>();
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
    const terms = data.terms ? data.terms.split(' ') : [];
    for (let i = 0; i < terms.length; i++) this.ids.set(terms[i]!, i);
    this.synonyms = new Map(data.synonyms);
  }

  /** Number of pages documented (MiniSearch's name, kept for the benchmark's cold-load probe). */
  get documentCount(): number {
    return this.size;
  }

  termId(term: string): number | undefined {
    return this.ids.get(term);
  }

  df(id: number): number {
    return this.data.df[id]!;
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
    let p = this.decoded.get(id);
    if (p) return p;
    const { postings: s, offsets, df } = this.data;
    const count = df[id]!;
    const idf = this.data.idf[id]! / 1000;
    const docs = new Int32Array(count);
    const scores = new Float32Array(count);
    let at = offsets[id]!;
    let prev = -1;
    for (let k = 0; k < count; k++) {
      let v = VALUE[s.charCodeAt(at++)]!;
      let delta = v & 31;
      for (let shift = 32; v & 32; shift *= 32) {
        v = VALUE[s.charCodeAt(at++)]!;
        delta += (v & 31) * shift;
      }
      prev += delta + 1;
      docs[k] = prev;
      scores[k] = (idf * VALUE[s.charCodeAt(at++)]!) / 63;
    }
    p = { docs, scores };
    if (this.decoded.size > 4096) this.decoded.clear();
    this.decoded.set(id, p);
    return p;
  }
}
