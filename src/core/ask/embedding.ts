/**
 * @module The sentence-model feature without the model: Universal Sentence Encoder lite distilled at build time
 * (src/build/ask-embedding.ts) into one vector per piece of its vocabulary; a text's vector is the weighted mean of
 * its pieces' rows. The file: uint32 header length, JSON header, padding to 8 bytes, then float64 piece scores,
 * float32 piece scales, uint32 question offsets, int8 piece, section and question rows (each `dims` long).
 */

export const EMBEDDING_FILE = 'ask-embedding.bin';
export const EMBEDDING_FORMAT = 'kartage-embedding-1';

/** The piece the tokenizer puts before every word (SentencePiece's U+2581). */
const SPACE = '\u2581';
/** The vocabulary's first rows are control symbols (unknown, <s>, </s>, three extras): never matched in text. */
export const RESERVED_PIECES = 6;

/** A word: U+2581 and what follows it up to the next. */
const WORDS = /\u2581[^\u2581]*/g;
/** Words whose segmentation is kept (a site's vocabulary fits; cleared when full). */
const WORDS_KEPT = 200_000;
/** Two segmentations' sums nearer than this may round either way: such a word is segmented anew each time. */
const NEAR_TIE = 1e-6;

/** A trie node: the next code points, and the piece ending here (-1: none). */
type TrieNode = { next: Map<number, TrieNode>; id: number };

/** SentencePiece's unigram segmentation exactly as the model's own tokenizer does it (@energetic-ai/embeddings). */
export class PieceTokenizer {
  private readonly root: TrieNode = { next: new Map(), id: -1 };
  private readonly pieces: readonly string[];
  private readonly scores: ArrayLike<number>;
  private readonly words = new Map<string, number[]>();

  constructor(pieces: readonly string[], scores: ArrayLike<number>) {
    this.pieces = pieces;
    this.scores = scores;
    for (let id = RESERVED_PIECES; id < pieces.length; id++) {
      let node = this.root;
      for (const ch of pieces[id]!) {
        const c = ch.codePointAt(0)!;
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), id: -1 }));
        node = child;
      }
      node.id = id;
    }
  }

  /** The piece ids of a text. */
  encode(text: string): number[] {
    const normal = text.normalize('NFKC');
    if (!normal) return [];
    const out: number[] = [];
    // Only a piece's first character is ever U+2581, so each word (U+2581 up to the next) is segmented on its own,
    // from the score the text reached before it: the same sums, in the same order, as over the whole text.
    let reached = 0;
    for (const word of (SPACE + normal.replaceAll(' ', SPACE)).match(WORDS)!) {
      let path = this.words.get(word);
      if (path) for (const id of path) reached = (id ? this.scores[id]! : 0) + reached;
      else {
        const r = this.segment(word, reached);
        path = r.path;
        reached = r.reached;
        // Kept only when no two segmentations came near a tie (then the sum before it cannot change its pieces).
        if (r.clear) {
          if (this.words.size >= WORDS_KEPT) this.words.clear();
          this.words.set(word, path);
        }
      }
      for (const id of path) if (!(id === 0 && out.at(-1) === 0)) out.push(id);
    }
    return out;
  }

  /** The best segmentation of one word (Viterbi from the score `from`), its sum, and whether it had no near tie. */
  private segment(word: string, from: number): { path: number[]; reached: number; clear: boolean } {
    const symbols = Array.from(word, (c) => c.codePointAt(0)!);
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const last = new Int32Array(n + 1);
    best[0] = from;
    let clear = true;
    // Each end's candidates are tried in ascending start order, as the model's tokenizer tries them; 0 is "not
    // reached yet" (every score is negative but the unknown piece's), as it reads it too.
    const relax = (end: number, id: number, score: number) => {
      if (best[end] !== 0 && Math.abs(score - best[end]!) < NEAR_TIE) clear = false;
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        last[end] = id;
      }
    };
    for (let start = 0; start < n; start++) {
      if (start && best[start] === 0) clear = false;
      let node = this.root.next.get(symbols[start]!);
      let found = false;
      for (let end = start + 1; node; end++) {
        if (node.id >= 0) {
          relax(end, node.id, this.scores[node.id]! + best[start]!);
          found = true;
        }
        node = end < n ? node.next.get(symbols[end]!) : undefined;
      }
      if (!found) relax(start + 1, 0, best[start]!);
    }
    const path: number[] = [];
    // A piece's length in code units is its length in code points: no piece of the vocabulary is outside the BMP.
    for (let at = n; at > 0; at -= this.pieces[last[at]!]!.length) path.push(last[at]!);
    return { path: path.reverse(), reached: best[n]!, clear };
  }
}

/** The file's JSON header: the vectors' length, the pieces in id order, and how many sections and questions. */
export type EmbeddingHeader = {
  format: typeof EMBEDDING_FORMAT;
  dims: number;
  pieces: string[];
  sections: number;
  questions: number;
};

/** A decoded table: the tokenizer, the piece rows and each section's rows. */
export interface EmbeddingTable {
  dims: number;
  pieces: readonly string[];
  /** Per piece: its log-probability in the model's vocabulary (what the tokenizer sums). */
  scores: Float64Array;
  /** Per piece: its row's scale times its weight (a common piece weighs little). */
  scale: Float32Array;
  pieceRows: Int8Array;
  sectionRows: Int8Array;
  /** Section i's questions are rows questionStart[i] to questionStart[i + 1] of questionRows. */
  questionStart: Uint32Array;
  questionRows: Int8Array;
  tokenizer(): PieceTokenizer;
}

/** Where the rows start after the header (8-byte aligned). */
export const align8 = (n: number) => (n + 7) & ~7;

/** A table from the file's bytes (views into them, nothing copied but the header). */
export function decodeEmbedding(bytes: Uint8Array): EmbeddingTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as EmbeddingHeader;
  if (header.format !== EMBEDDING_FORMAT) throw new Error(`ask embedding: unknown format ${String(header.format)}`);
  // A copy when the bytes are not 8-aligned in their buffer (a Node Buffer from a pool may not be).
  const data = bytes.byteOffset % 8 ? bytes.slice() : bytes;
  let at = data.byteOffset + align8(4 + length);
  const take = <T extends { byteLength: number }>(
    Kind: new (b: ArrayBufferLike, o: number, n: number) => T,
    n: number,
  ) => {
    const out = new Kind(data.buffer, at, n);
    at += out.byteLength;
    if (at > data.byteOffset + data.byteLength) throw new Error('ask embedding: the file ends early');
    return out;
  };
  const { dims, pieces, sections, questions } = header;
  const scores = take(Float64Array, pieces.length);
  const scale = take(Float32Array, pieces.length);
  const questionStart = take(Uint32Array, sections + 1);
  const pieceRows = take(Int8Array, pieces.length * dims);
  const sectionRows = take(Int8Array, sections * dims);
  const questionRows = take(Int8Array, questions * dims);
  let tokenizer: PieceTokenizer | undefined;
  // Built on first use (a few ms for the trie), not on every instance's cold start.
  const tokenize = () => (tokenizer ??= new PieceTokenizer(pieces, scores));
  return { dims, pieces, scores, scale, questionStart, pieceRows, sectionRows, questionRows, tokenizer: tokenize };
}

/** A text's vector (lower-cased, as the table's pieces are): its pieces' rows' weighted mean, of length 1. */
export function textVector(
  table: Pick<EmbeddingTable, 'dims' | 'pieceRows' | 'scale' | 'tokenizer'>,
  text: string,
): Float32Array {
  const { dims, pieceRows, scale } = table;
  // Each distinct piece's row is added once, times its weight and count (a section repeats most of its pieces).
  const weights = new Map<number, number>();
  for (const id of table.tokenizer().encode(text.toLowerCase())) weights.set(id, (weights.get(id) ?? 0) + scale[id]!);
  const out = new Float32Array(dims);
  for (const [id, w] of weights) {
    if (!w) continue;
    const base = id * dims;
    for (let d = 0; d < dims; d++) out[d]! += w * pieceRows[base + d]!;
  }
  return unit(out);
}

/** A vector scaled to length 1 (unchanged when all zero). */
export function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (let d = 0; d < v.length; d++) sum += v[d]! * v[d]!;
  if (sum > 0) {
    const k = 1 / Math.sqrt(sum);
    for (let d = 0; d < v.length; d++) v[d]! *= k;
  }
  return v;
}

/** The cosine of a unit vector and row `row` of `rows` (0 for an all-zero row). */
export function rowCosine(q: Float32Array, rows: Int8Array, row: number): number {
  const dims = q.length;
  const base = row * dims;
  let dot = 0;
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    const x = rows[base + d]!;
    dot += q[d]! * x;
    norm += x * x;
  }
  return norm ? dot / Math.sqrt(norm) : 0;
}

/** How near a question's vector is to a section's heading and text, and to the nearest of its written questions. */
export function sectionSimilarity(table: EmbeddingTable, q: Float32Array, section: number) {
  let nearestQuestion = 0;
  for (let r = table.questionStart[section]!; r < table.questionStart[section + 1]!; r++)
    nearestQuestion = Math.max(nearestQuestion, rowCosine(q, table.questionRows, r));
  return { text: rowCosine(q, table.sectionRows, section), nearestQuestion };
}
