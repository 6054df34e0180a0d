/**
 * @module The chat's sentence-model table as a file (ask-embedding.bin, written by the build, read by the content
 * loader): uint32 header length, JSON header, padding to 8 bytes, then float64 piece scores, float32 piece scales,
 * uint32 question offsets, int8 piece, section, question and known-gap rows (each `dims` long; the section rows only
 * when the build writes them: the shipped models read them). Encoded and decoded here.
 */
import type { EmbeddingTable } from '../ask/embedding.ts';
import { PieceTokenizer } from '../piece-tokenizer.ts';

export const EMBEDDING_FILE = 'ask-embedding.bin';
export const EMBEDDING_FORMAT = 'kartage-embedding-3';

/** The file's JSON header: the vectors' length, the pieces in id order, how many sections, section rows, questions
 * and known gaps. */
export type EmbeddingHeader = {
  format: typeof EMBEDDING_FORMAT;
  dims: number;
  pieces: string[];
  sections: number;
  sectionRows: number;
  questions: number;
  gaps: number;
};

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
  const { dims, pieces, sections, questions, gaps } = header;
  const scores = take(Float64Array, pieces.length);
  const scale = take(Float32Array, pieces.length);
  const questionStart = take(Uint32Array, sections + 1);
  const pieceRows = take(Int8Array, pieces.length * dims);
  const sectionRows = take(Int8Array, header.sectionRows * dims);
  const questionRows = take(Int8Array, questions * dims);
  const gapRows = take(Int8Array, gaps * dims);
  let tokenizer: PieceTokenizer | undefined;
  // Built on first use (a few ms for the trie), not on every instance's cold start.
  const tokenize = () => (tokenizer ??= new PieceTokenizer(pieces, scores));
  return {
    dims,
    pieces,
    scores,
    scale,
    questionStart,
    pieceRows,
    sectionRows,
    questionRows,
    gapRows,
    tokenizer: tokenize,
  };
}

/** What the build gives to write a table (every row array already quantised). */
export type EmbeddingParts = Omit<EmbeddingTable, 'tokenizer'>;

/** The file's bytes for a table (the layout: this module's comment). */
export function encodeEmbedding(t: EmbeddingParts): Uint8Array {
  const sections = t.questionStart.length - 1;
  const header: EmbeddingHeader = {
    format: EMBEDDING_FORMAT,
    dims: t.dims,
    pieces: [...t.pieces],
    sections,
    sectionRows: t.sectionRows.length / t.dims,
    questions: t.questionRows.length / t.dims,
    gaps: t.gapRows.length / t.dims,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const parts: ArrayBufferView[] = [
    t.scores,
    t.scale,
    t.questionStart,
    t.pieceRows,
    t.sectionRows,
    t.questionRows,
    t.gapRows,
  ];
  const start = align8(4 + json.length);
  const out = new Uint8Array(start + parts.reduce((a, p) => a + p.byteLength, 0));
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  let at = start;
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at);
    at += p.byteLength;
  }
  return out;
}
