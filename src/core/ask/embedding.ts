/**
 * @module The sentence-model feature without the model: Universal Sentence Encoder lite distilled at build time
 * (src/build/ask-embedding.ts) into one vector per piece of its vocabulary; a text's vector is the weighted mean of
 * its pieces' rows (the file it is read from: ../ask-indexer/embedding-file.ts).
 */
import type { PieceTokenizer } from '../piece-tokenizer.ts';

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
  /** The questions the site is known not to answer (reviewed, or written from the content). */
  gapRows: Int8Array;
  tokenizer(): PieceTokenizer;
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
  const k = 1 / Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  if (Number.isFinite(k)) for (let d = 0; d < v.length; d++) v[d]! *= k;
  return v;
}
/** The cosine of two unit vectors. */
export const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, d) => sum + x * b[d]!, 0);
/** The cosine of a unit vector and row `row` of `rows` (0 for an all-zero row). */
export function rowCosine(q: Float32Array, rows: Int8Array, row: number): number {
  const [dims, base] = [q.length, row * q.length];
  let [dot, norm] = [0, 0];
  for (let d = 0; d < dims; d++) {
    const x = rows[base + d]!;
    dot += q[d]! * x;
    norm += x * x;
  }
  return norm ? dot / Math.sqrt(norm) : 0;
}
/** The cosine of a unit vector and the nearest row of `rows` (0: no rows). */
export function nearestRow(q: Float32Array, rows: Int8Array, from = 0, to = rows.length / q.length): number {
  let best = 0;
  for (let r = from; r < to; r++) best = Math.max(best, rowCosine(q, rows, r));
  return best;
}
/** How near a question's vector is to a section's heading and text (0: none written), and to its nearest question. */
export function sectionSimilarity(table: EmbeddingTable, q: Float32Array, section: number) {
  const [from, to] = [table.questionStart[section], table.questionStart[section + 1]];
  const nearestQuestion = nearestRow(q, table.questionRows, from, to);
  return { text: table.sectionRows.length ? rowCosine(q, table.sectionRows, section) : 0, nearestQuestion };
}
