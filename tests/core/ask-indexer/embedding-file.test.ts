// The sentence-model table's file: what is encoded decodes the same, and a wrong or short file is refused.
import { describe, expect, it } from 'vitest';
import { RESERVED_PIECES } from '../../../src/core/piece-tokenizer.ts';
import { decodeEmbedding, type EmbeddingParts, encodeEmbedding } from '../../../src/core/ask-indexer/embedding-file.ts';

/** Three pieces, 2 dimensions, 2 sections (the second with two questions), one known gap. */
const parts = (): EmbeddingParts => ({
  dims: 2,
  pieces: ['<unk>', '\u2581crew', '\u2581app'],
  scores: Float64Array.from([0, -3.5, -4.25]),
  scale: Float32Array.from([0, 1, 0.5]),
  pieceRows: Int8Array.from([0, 0, 127, 0, 0, -127]),
  sectionRows: Int8Array.from([127, 0, 3, -4]),
  questionStart: Uint32Array.from([0, 0, 2]),
  questionRows: Int8Array.from([0, 127, 90, 90]),
  gapRows: Int8Array.from([-5, 127]),
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

  it("decodes a table written without the sections' heading and text rows or known gaps, the rest where they were", () => {
    for (const none of [{ sectionRows: new Int8Array(0) }, { gapRows: new Int8Array(0) }]) {
      const { tokenizer: _, ...t } = decodeEmbedding(encodeEmbedding({ ...parts(), ...none }));
      expect({ ...t, pieces: [...t.pieces] }).toEqual({ ...parts(), ...none });
    }
  });

  it('reads the rows in place when the bytes are 8-aligned in their buffer, nothing copied', () => {
    const bytes = encodeEmbedding(parts());
    const shifted = new Uint8Array(bytes.length + 8);
    shifted.set(bytes, 8);
    const t = decodeEmbedding(shifted.subarray(8));
    expect(t.sectionRows.buffer).toBe(shifted.buffer);
    expect([...t.sectionRows]).toEqual([...parts().sectionRows]);
  });

  it("segments text with the table's own pieces, the tokenizer made once", () => {
    // The first rows are control symbols (the first the unknown piece), then the words and their letters.
    const reserved = ['\ufffd', '<s>', '</s>', 'x1', 'x2', 'x3'];
    const pieces = [...reserved, '\u2581crew', '\u2581app', ...'\u2581acepr'];
    const t = decodeEmbedding(
      encodeEmbedding({
        ...parts(),
        pieces,
        scores: Float64Array.from(pieces, (_, i) => (i < RESERVED_PIECES ? 0 : -1)),
        scale: new Float32Array(pieces.length),
        pieceRows: new Int8Array(pieces.length * 2),
      }),
    );
    const tokenizer = t.tokenizer();
    expect(t.tokenizer()).toBe(tokenizer);
    expect(tokenizer.encode('crew app')).toEqual([RESERVED_PIECES, RESERVED_PIECES + 1]);
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
