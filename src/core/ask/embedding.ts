/**
 * @module The sentence-model feature without the model: Universal Sentence Encoder lite distilled at build time
 * (src/build/ask-embedding.ts) into one vector per piece of its vocabulary; a text's vector is the weighted mean of
 * its pieces' rows. The file: uint32 header length, JSON header, padding to 8 bytes, then float64 piece scores,
 * float32 piece scales, uint32 question offsets, int8 piece, section and question rows (each `dims` long).
 */
import { PieceTokenizer } from '../piece-tokenizer.ts';

export const EMBEDDING_FILE = 'ask-embedding.bin';
export const EMBEDDING_FORMAT = 'kartage-embedding-1';

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
