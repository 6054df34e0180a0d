// The sentence-model table's file: what is encoded decodes the same, and a wrong or short file is refused.
import { describe, expect, it } from 'vitest';
import { decodeEmbedding, type EmbeddingParts, encodeEmbedding } from '../../../src/core/ask-indexer/embedding-file.ts';

/** Three pieces, 2 dimensions, 2 sections (the second with two questions). */
const parts = (): EmbeddingParts => ({
  dims: 2,
  pieces: ['<unk>', '\u2581crew', '\u2581app'],
  scores: Float64Array.from([0, -3.5, -4.25]),
  scale: Float32Array.from([0, 1, 0.5]),
  pieceRows: Int8Array.from([0, 0, 127, 0, 0, -127]),
  sectionRows: Int8Array.from([127, 0, 3, -4]),
  questionStart: Uint32Array.from([0, 0, 2]),
  questionRows: Int8Array.from([0, 127, 90, 90]),
});

describe('the table file', () => {
  it('decodes what it encodes, from a buffer at any offset', () => {
    const bytes = encodeEmbedding(parts());
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    for (const view of [bytes, shifted.subarray(3)]) {
      const { tokenizer: _, ...t } = decodeEmbedding(view);
      expect({ ...t, pieces: [...t.pieces] }).toEqual(parts());
    }
  });

  it('refuses another format and a file cut short', () => {
    const bytes = encodeEmbedding(parts());
    const other = new TextEncoder().encode(JSON.stringify({ format: 'other' }));
    const wrong = new Uint8Array(4 + other.length);
    new DataView(wrong.buffer).setUint32(0, other.length, true);
    wrong.set(other, 4);
    expect(() => decodeEmbedding(wrong)).toThrow(/unknown format other/);
    expect(() => decodeEmbedding(bytes.subarray(0, bytes.length - 1))).toThrow(/ends early/);
  });
});
