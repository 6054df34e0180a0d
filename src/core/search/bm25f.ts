/**
 * @module BM25F postings, built once at build time and read per query: site search indexes pages with it, the chat
 * indexes sections. A document's fields (title, headings, body, ...) each have a weight and a length normalisation;
 * each term's postings are its documents in order, delta-encoded as base-32 varints, each followed by the
 * document's quantised BM25F saturation (tf~ / (k1 + tf~), 6 bits), in one string of URL-safe base-64 characters
 * (JSON needs no escapes for them). A term's postings are decoded on first use and kept.
 */

/** A field's weight and length normalisation (BM25F). */
export interface FieldSpec {
  weight: number;
  b: number;
}

/** The postings as written (JSON). */
export interface Bm25fData {
  /** Every term, space-separated; term id = position. */
  terms: string;
  /** Per term: inverse document frequency x 1000, rounded. */
  idf: number[];
  /** Per term: number of documents holding it. */
  df: number[];
  /** Per term: offset of its postings in `postings`. */
  offsets: number[];
  postings: string;
}

/** A term's postings, decoded: documents ascending and each one's score for the term (idf x saturation). */
export interface Postings {
  docs: Int32Array;
  scores: Float32Array;
}

export const K1 = 1.2;
/** Levels of a quantised saturation (6 bits). */
const LEVELS = 63;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** BM25's idf of a term `df` of `n` documents hold (never negative). */
export const idfOf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The postings string while it is written: ASCII codes in a growing byte array, decoded once at the end. */
class PostingsOut {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

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

/** A growable list of integers. */
class IntList {
  data = new Int32Array(16);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
}

/**
 * Builds BM25F postings document by document: `count(field, termId)` for each term occurrence of the current
 * document, `next()` after each document, `build()` at the end.
 */
export class Bm25fBuilder {
  private readonly fields: readonly FieldSpec[];
  private readonly ids = new Map<string, number>();
  private readonly termList: string[] = [];
  /** Per term: flat [doc, tf of each field...]. */
  private readonly raw: IntList[] = [];
  /** Per field: each document's length (terms). */
  private readonly lengths: IntList[];
  private counts = new Int32Array(0);
  private readonly held: number[] = [];
  private doc = 0;

  constructor(fields: readonly FieldSpec[]) {
    this.fields = fields;
    this.lengths = fields.map(() => new IntList());
    this.counts = new Int32Array(4096 * fields.length);
    for (const l of this.lengths) l.push(0);
  }

  /** The id of a term (a new one on first use). */
  termId(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      this.ids.set(term, (id = this.termList.length));
      this.termList.push(term);
      this.raw.push(new IntList());
    }
    return id;
  }

  /** One occurrence of a term (its id) in a field of the current document. */
  count(field: number, id: number): void {
    const F = this.fields.length;
    if (id * F + F > this.counts.length) {
      const grown = new Int32Array(Math.max(this.counts.length * 2, id * F + F));
      grown.set(this.counts);
      this.counts = grown;
    }
    const at = id * F;
    let seen = false;
    for (let f = 0; f < F; f++) if (this.counts[at + f] !== 0) seen = true;
    if (!seen) this.held.push(id);
    this.counts[at + field]!++;
    this.lengths[field]!.data[this.doc]!++;
  }

  /** Ends the current document. */
  next(): void {
    const F = this.fields.length;
    for (const id of this.held) {
      const list = this.raw[id]!;
      list.push(this.doc);
      for (let f = 0; f < F; f++) list.push(this.counts[id * F + f]!);
      this.counts.fill(0, id * F, id * F + F);
    }
    this.held.length = 0;
    this.doc++;
    for (const l of this.lengths) l.push(0);
  }

  /** The postings of the documents so far; `minIdf` floors each term's idf. */
  build(minIdf = 0): Bm25fData {
    const n = this.doc;
    const F = this.fields.length;
    const avg = this.lengths.map((l) => {
      let sum = 0;
      for (let d = 0; d < n; d++) sum += l.data[d]!;
      return Math.max(1, sum / Math.max(1, n));
    });
    const idf: number[] = [];
    const df: number[] = [];
    const offsets: number[] = [];
    const out = new PostingsOut();
    for (let id = 0; id < this.termList.length; id++) {
      const { data: r, length } = this.raw[id]!;
      const count = length / (F + 1);
      df.push(count);
      idf.push(Math.round(1000 * Math.max(minIdf, idfOf(n, count))));
      offsets.push(out.length);
      let prev = -1;
      for (let i = 0; i < length; i += F + 1) {
        const doc = r[i]!;
        let tf = 0;
        for (let f = 0; f < F; f++) {
          const { weight, b } = this.fields[f]!;
          const norm = 1 - b + (b * this.lengths[f]!.data[doc]!) / avg[f]!;
          tf += (weight * r[i + 1 + f]!) / norm;
        }
        out.varint(doc - prev - 1);
        prev = doc;
        out.push(Math.max(1, Math.min(LEVELS, Math.round((LEVELS * tf) / (K1 + tf)))));
      }
    }
    return { terms: this.termList.join(' '), idf, df, offsets, postings: out.text() };
  }
}

/** Loaded postings: term ids, document frequencies and each term's postings on first use (bounded cache). */
export class Bm25fPostings {
  private readonly data: Bm25fData;
  private readonly ids = new Map<string, number>();
  private readonly decoded = new Map<number, Postings>();

  constructor(data: Bm25fData) {
    this.data = data;
    const terms = data.terms ? data.terms.split(' ') : [];
    for (let i = 0; i < terms.length; i++) this.ids.set(terms[i]!, i);
  }

  termId(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** Documents holding the term (by id). */
  df(id: number): number {
    return this.data.df[id]!;
  }

  /** The term's idf (by id). */
  idf(id: number): number {
    return this.data.idf[id]! / 1000;
  }

  /** Whether a document holds the term (in any field). */
  holds(term: string, doc: number): boolean {
    const id = this.ids.get(term);
    if (id === undefined) return false;
    const { docs } = this.postings(id);
    let [lo, hi] = [0, docs.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return docs[lo] === doc;
  }

  /** The term's documents and their scores (idf x saturation). */
  postings(id: number): Postings {
    let p = this.decoded.get(id);
    if (p) return p;
    const { postings: s, offsets } = this.data;
    const count = this.data.df[id]!;
    const idf = this.idf(id);
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
      scores[k] = (idf * VALUE[s.charCodeAt(at++)]!) / LEVELS;
    }
    p = { docs, scores };
    if (this.decoded.size > 4096) this.decoded.clear();
    this.decoded.set(id, p);
    return p;
  }
}
