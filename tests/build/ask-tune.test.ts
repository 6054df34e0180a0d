import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelVocabulary, type PieceTable, quantise, tunedTable, vectorTable } from '../../src/build/ask-embedding.ts';
import { TUNE, tunedRows } from '../../src/build/ask-tune.ts';
import { textVector } from '../../src/core/ask/embedding.ts';
import { RESERVED_PIECES } from '../../src/core/piece-tokenizer.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const vocabulary = await modelVocabulary();

/** A table over the model's vocabulary with pseudo-random rows (none for the control pieces), every scale the same. */
function smallTable(dims = 16): PieceTable {
  let seed = 3;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const vectors = Float32Array.from({ length: vocabulary.length * dims }, (_, k) =>
    k < RESERVED_PIECES * dims ? 0 : random() - 0.5,
  );
  const { rows, scale } = quantise(vectors, dims);
  const pieces = vocabulary.map(([p]) => p);
  return { dims, pieces, scores: Float64Array.from(vocabulary, ([, x]) => x), rows, scale };
}

const cosine = (table: PieceTable, a: string, b: string) => {
  const [x, y] = [textVector(vectorTable(table), a), textVector(vectorTable(table), b)];
  return x.reduce((sum, v, d) => sum + v * y[d]!, 0);
};

const groups = [
  ['crew app offline', 'no signal'],
  ['invoice xero', 'sync'],
  ['storage unit', 'gate'],
];
const tuned = (table: PieceTable, g: readonly (readonly string[])[], settings = TUNE) => ({
  ...table,
  ...quantise(tunedRows(table, g, settings), table.dims),
});

describe('the table fitted to the site', () => {
  const table = smallTable();
  const fitted = tuned(table, groups, { ...TUNE, epochs: 30 });

  it("brings a section's texts nearer one another than to another section's", () => {
    for (const [a, b] of groups) expect(cosine(fitted, a!, b!)).toBeGreaterThan(cosine(table, a!, b!));
    const within = groups.map(([a, b]) => cosine(fitted, a!, b!));
    const across = [cosine(fitted, 'no signal', 'sync'), cosine(fitted, 'gate', 'invoice xero')];
    expect(Math.min(...within)).toBeGreaterThan(Math.max(...across));
  });

  it('changes only the rows of pieces its texts hold, and is the same on every run', () => {
    const spare = table.pieces.indexOf('\u2581truck') * table.dims;
    const rowOf = (t: PieceTable, at: number) =>
      [...t.rows.slice(at, at + t.dims)].map((v) => v * t.scale[at / t.dims]!);
    expect(rowOf(fitted, spare).map((v) => +v.toFixed(4))).toEqual(rowOf(table, spare).map((v) => +v.toFixed(4)));
    expect(rowOf(fitted, table.pieces.indexOf('\u2581gate') * table.dims)).not.toEqual(
      rowOf(table, table.pieces.indexOf('\u2581gate') * table.dims),
    );
    const again = tuned(table, groups, { ...TUNE, epochs: 30 });
    expect([...again.rows]).toEqual([...fitted.rows]);
    expect([...again.scale]).toEqual([...fitted.scale]);
  });

  it('learns nothing from a section with one text', () => {
    const alone = tuned(table, [['crew app offline'], ['sync']]);
    expect([...alone.rows]).toEqual([...table.rows]);
  });

  it('is kept in the cache folder under its table, texts and settings, and read back from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ask-tune-'));
    dirs.push(dir);
    const first = await tunedTable(dir, table, groups);
    expect((await readdir(dir)).filter((f) => f.startsWith('tuned-'))).toHaveLength(1);
    const read = await tunedTable(dir, table, groups);
    expect([...read.rows]).toEqual([...first.rows]);
    expect([...read.scale]).toEqual([...first.scale]);
    await tunedTable(dir, table, [...groups, ['truck', 'crew']]);
    expect((await readdir(dir)).filter((f) => f.startsWith('tuned-'))).toHaveLength(2);
  });
});
