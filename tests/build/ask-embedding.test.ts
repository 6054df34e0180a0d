import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cachedPieceTable,
  DISTIL,
  embeddingParts,
  embeddingText,
  modelHash,
  modelVocabulary,
  quantise,
  reduce,
  sectionTexts,
  vectorTable,
  writeAskEmbedding,
} from '../../src/build/ask-embedding.ts';
import { MODEL_FEATURES } from '../../src/core/ask/answer.ts';
import { sectionSimilarity, textVector } from '../../src/core/ask/embedding.ts';
import { decodeEmbedding, EMBEDDING_FILE } from '../../src/core/ask-indexer/embedding-file.ts';
import { assembleAskIndex } from '../../src/core/ask-indexer/assemble.ts';

const dirs: string[] = [];
const tmp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ask-embedding-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/**
 * A cache folder holding a made-up table under the key of this model and DISTIL: every row 1 (or, `varied`, each
 * component from -100 to 100 by a fixed rule), every scale 0.5.
 */
async function madeUpCache(varied = false): Promise<string> {
  const dir = await tmp();
  const pieces = (await modelVocabulary()).length;
  const bytes = new Uint8Array(pieces * DISTIL.dims + pieces * 4);
  bytes.fill(1, 0, pieces * DISTIL.dims);
  if (varied) {
    const rows = new Int8Array(bytes.buffer, 0, pieces * DISTIL.dims);
    for (let k = 0; k < rows.length; k++) rows[k] = ((k * 37) % 201) - 100;
  }
  new Float32Array(bytes.buffer, pieces * DISTIL.dims).fill(0.5);
  await writeFile(join(dir, `pieces-${await modelHash(JSON.stringify(DISTIL))}.bin`), bytes);
  return dir;
}

const pages = [
  {
    slug: 'product/crew-app',
    title: 'Crew app | Kartage',
    url: 'https://example.com/product/crew-app',
    markdown:
      '# Crew app\n\nThe app your crews carry.\n\n## Works offline\n\nJobs load before the crew leaves; photos and ' +
      'signatures wait until there is signal.\n\n## What’s next\n\n| Step | When |\n| --- | --- |\n| Sync | On signal |\n',
  },
];
const written = [
  { slug: 'product/crew-app', heading: 'Works offline', questions: ['does it work with no reception?'] },
  { slug: 'product/crew-app', heading: "What's next", questions: ['what happens after?', 'when does it sync?'] },
];

describe('the piece table', () => {
  it('is read from the cache when the cache holds one for this model and these settings', async () => {
    const table = await cachedPieceTable(await madeUpCache());
    expect(table.dims).toBe(DISTIL.dims);
    expect(table.rows.every((x) => x === 1)).toBe(true);
    expect(table.scale.every((x) => x === 0.5)).toBe(true);
    expect(table.pieces[9]).toBe('\u2581the');
  });

  it('reduces vectors onto their main directions and quantises rows to int8 with a scale', () => {
    // Points along (1, 1, 0) with a little noise on the third axis: one component keeps the first direction.
    const v = Float32Array.from([1, 1, 0.01, 2, 2, -0.01, -1, -1, 0, -2, -2, 0]);
    const r = reduce(v, 4, 3, 1);
    expect(Math.abs(r[1]! / r[0]!)).toBeCloseTo(2, 2);
    expect(Math.sign(r[0]!)).toBe(-Math.sign(r[2]!));
    const q = quantise(Float32Array.from([0.5, -0.25, 0, 0]), 2);
    expect([...q.rows]).toEqual([127, -63, 0, 0]);
    expect(q.scale[0]).toBeCloseTo(0.5 / 127, 6);
    expect(q.scale[1]).toBe(0);
  });
});

describe('the sections', () => {
  const { data } = assembleAskIndex(pages);
  const markdownOf = (slug: string) => pages.find((p) => p.slug === slug)?.markdown ?? '';

  it('embed a section as its heading and plain text, the intro with the page title, with its written questions', () => {
    const texts = sectionTexts(data, markdownOf, written);
    expect(texts.map((t) => t.text)).toEqual([
      'Crew app\nCrew app The app your crews carry.',
      'Works offline Jobs load before the crew leaves; photos and signatures wait until there is signal.',
      'What’s next Step When Sync On signal',
    ]);
    expect(texts[0]!.questions).toEqual([]);
    expect(texts[1]!.questions).toEqual(['does it work with no reception?']);
    // A heading with a curled quote on the page finds the questions written with a straight one.
    expect(texts[2]!.questions).toEqual(['what happens after?', 'when does it sync?']);
    expect(sectionTexts(data, markdownOf, written, 12).map((t) => t.text)).toEqual([
      'Crew app\nCre',
      'Works offlin',
      'What’s next ',
    ]);
    expect(embeddingText('| Step | When |\n| --- | --- |\n| **Sync** | [On signal](/x) |')).toBe(
      'Step When Sync On signal',
    );
  });

  it('are written with the table, and read back as the run time computes them', async () => {
    const dataDir = await tmp();
    const cacheDir = await madeUpCache();
    await writeAskEmbedding({ dataDir, cacheDir, data, markdownOf, written });
    const table = decodeEmbedding(new Uint8Array(await readFile(join(dataDir, EMBEDDING_FILE))));
    expect([...table.questionStart]).toEqual([0, 0, 1, 3]);
    const cached = await cachedPieceTable(cacheDir);
    const texts = sectionTexts(data, markdownOf, written);
    const parts = embeddingParts(cached, texts);
    expect([...table.sectionRows]).toEqual([...parts.sectionRows]);
    // With every piece's row the same, every text's vector is that row: each similarity is 1.
    const q = textVector(vectorTable(cached), 'can the crew use it underground');
    expect(sectionSimilarity(table, q, 1).text).toBeCloseTo(1, 5);
    expect(sectionSimilarity(table, q, 2).nearestQuestion).toBeCloseTo(1, 5);
    expect(sectionSimilarity(table, q, 0).nearestQuestion).toBe(0);
  });

  it('take a heading that asks a question as one more question its section answers (after the fit)', async () => {
    const asking = [{ ...pages[0]!, markdown: '# Crew app\n\nThe app.\n\n## Does it work offline?\n\nIt does.\n' }];
    const dataDir = await tmp();
    const cacheDir = await madeUpCache(true);
    const { data: askingData } = assembleAskIndex(asking);
    await writeAskEmbedding({ dataDir, cacheDir, data: askingData, markdownOf: () => asking[0]!.markdown, written });
    const table = decodeEmbedding(new Uint8Array(await readFile(join(dataDir, EMBEDDING_FILE))));
    expect([...table.questionStart]).toEqual([0, 0, 1]);
    const asked = textVector(table, 'Does it work offline?');
    expect(sectionSimilarity(table, asked, 1).nearestQuestion).toBeCloseTo(1, 2);
  });

  it('are worked out from the table fitted to the written questions: only the pieces they hold move', async () => {
    const dataDir = await tmp();
    const cacheDir = await madeUpCache(true);
    await writeAskEmbedding({ dataDir, cacheDir, data, markdownOf, written });
    const table = decodeEmbedding(new Uint8Array(await readFile(join(dataDir, EMBEDDING_FILE))));
    const distilled = await cachedPieceTable(cacheDir);
    const row = (rows: Int8Array, piece: string) => {
      const id = distilled.pieces.indexOf(piece);
      return [...rows.slice(id * DISTIL.dims, (id + 1) * DISTIL.dims)];
    };
    // A row unchanged by the fit, quantised again: scaled so its largest component is 127.
    const requantised = (piece: string) => {
      const r = row(distilled.rows, piece);
      const max = Math.max(...r.map(Math.abs));
      return r.map((v) => Math.round((v / max) * 127));
    };
    // "happens" is in a written question: its row moves. "money", in no question and no section's text, does not.
    expect(row(table.pieceRows, '\u2581money')).toEqual(requantised('\u2581money'));
    expect(row(table.pieceRows, '\u2581happens')).not.toEqual(requantised('\u2581happens'));
  });

  it("leave out the sections' heading and text rows when the models do not read them, and only those", async () => {
    const [full, lean] = [await tmp(), await tmp()];
    const cacheDir = await madeUpCache();
    await writeAskEmbedding({ dataDir: full, cacheDir, data, markdownOf, written });
    await writeAskEmbedding({ dataDir: lean, cacheDir, data, markdownOf, written, sectionText: false });
    const read = async (dir: string) => decodeEmbedding(new Uint8Array(await readFile(join(dir, EMBEDDING_FILE))));
    const [a, b] = [await read(full), await read(lean)];
    expect(b.sectionRows.length).toBe(0);
    expect(a.sectionRows.length).toBe(3 * a.dims);
    expect([...b.questionRows]).toEqual([...a.questionRows]);
    expect([...b.questionStart]).toEqual([...a.questionStart]);
    const q = textVector(vectorTable(await cachedPieceTable(cacheDir)), 'can the crew use it underground');
    expect(sectionSimilarity(b, q, 1)).toEqual({
      text: 0,
      nearestQuestion: sectionSimilarity(a, q, 1).nearestQuestion,
    });
  });

  it("are left out of the site's build unless its models read the `semantic` feature", async () => {
    const built = new URL('../../build/ask-embedding.bin', import.meta.url);
    const table = decodeEmbedding(new Uint8Array(await readFile(built)));
    const sections = table.questionStart.length - 1;
    expect(table.sectionRows.length).toBe(MODEL_FEATURES.has('semantic') ? sections * table.dims : 0);
  });
});
