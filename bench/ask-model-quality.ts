/**
 * @module The sentence model's two ways, compared on ranking quality in the product's own pipeline: the reranker's
 * sentence-model features (`semanticQuestion`, the nearest written question; `semantic`, the heading and text) worked
 * out (a) at run time by Universal Sentence Encoder lite itself, the question embedded per request, the sections'
 * texts and written questions at build time, (b) from the piece table the build distils, or (c) from that table
 * fitted to the written questions (what ships: src/build/ask-embedding.ts, ask-tune.ts, src/core/ask/embedding.ts);
 * and, for scale, with no sentence model at all. Each is
 * scored as `npm run ask:fit` scores a feature set: the shipped reranker's features, fitted on the other dev sets and
 * ranked on each (answer@1 and answer@3 of the dev split's answerable parts, cross-validated set by set); and the
 * sentence-model feature ranking alone. Only the development split is read (eval/ask/fit.ts); the test split never is.
 * The costs of each way (cold start, per question, bytes carried, build work) are bench/ask-model.ts's.
 *
 *   node bench/ask-model-quality.ts   # over build/ (brought up to date first); prints a table, then one JSON line
 *
 * The model's vectors are kept in node_modules/.cache/kartage-embedding under the hash of the model and the texts:
 * a second run does no model work.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ASK_WRITTEN } from '../src/build/ask-hints.ts';
import {
  cachedPieceTable,
  EMBEDDING_CACHE,
  loadSentenceModel,
  modelHash,
  type SentenceModel,
  sectionTexts,
  vectorTable,
} from '../src/build/ask-embedding.ts';
import { textVector } from '../src/core/ask/embedding.ts';
import models from '../src/core/ask/ranker.json' with { type: 'json' };
import { FEATURES, type Feature } from '../src/core/ask/rerank.ts';
import { answerAt, index, rankedOutOfFold, type Row, rowsOf } from '../eval/ask/fit.ts';
import { devQuestions } from '../eval/ask/data.ts';
import { createContentFiles } from '../src/adapters/content-files.ts';
import { ROOT } from './lib.ts';

const MODEL_DIMS = 512;
const log = (s: string) => process.stderr.write(`ask-model-quality: ${s}\n`);

let model: SentenceModel | undefined;
/** Seconds of model work this run, per list (none when read from the cache). */
const modelWork: Record<string, number> = {};

/** The model's files' hash (read once: they are ~28 MB). */
const salt = await modelHash('bench-quality');

/** Unit vectors of `texts` by the model, from the cache when it holds this list. */
async function embedded(name: string, texts: readonly string[]): Promise<Float32Array[]> {
  const key = createHash('sha256').update(salt).update(JSON.stringify(texts)).digest('hex').slice(0, 24);
  const path = join(EMBEDDING_CACHE, `quality-${name}-${key}.bin`);
  let flat = await readFile(path).then(
    (b) => new Float32Array(new Uint8Array(b).buffer),
    () => undefined,
  );
  if (!flat) {
    log(`the model over ${texts.length} ${name}…`);
    model ??= await loadSentenceModel();
    const started = performance.now();
    flat = new Float32Array(texts.length * MODEL_DIMS);
    for (let i = 0; i < texts.length; i += 64) {
      const vectors = await model.embed(texts.slice(i, i + 64) as string[]);
      for (const [k, v] of vectors.entries()) flat.set(v, (i + k) * MODEL_DIMS);
    }
    modelWork[name] = (performance.now() - started) / 1000;
    await mkdir(EMBEDDING_CACHE, { recursive: true });
    await writeFile(path, new Uint8Array(flat.buffer));
  }
  return texts.map((_, i) => {
    const v = flat.subarray(i * MODEL_DIMS, (i + 1) * MODEL_DIMS);
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, d) => s + x * b[d]!, 0);

const rows = rowsOf(devQuestions());
const answerable = rows.filter((r) => !r.absent);
// The sections as the build embeds them (heading and first characters of the text; each written question).
const content = createContentFiles(join(ROOT, 'build'));
const texts = sectionTexts(index.data, (slug) => content.page(slug)?.markdown ?? '', ASK_WRITTEN);
const sectionVectors = await embedded(
  'sections',
  texts.map((t) => t.text),
);
const allQuestions = await embedded(
  'questions',
  texts.flatMap((t) => t.questions),
);
const questionsOf: Float32Array[][] = [];
let at = 0;
for (const t of texts) questionsOf.push(allQuestions.slice(at, (at += t.questions.length)));
const queries = await embedded(
  'dev-questions',
  rows.map((r) => r.read),
);

/** The rows with the sentence-model features from other vectors (the rest as the product has them). */
const [SEMANTIC, NEAREST] = [FEATURES.indexOf('semantic'), FEATURES.indexOf('semanticQuestion')];
const rowsBy = (query: readonly Float32Array[], sections: readonly Float32Array[], questions: Float32Array[][]) =>
  rows.map((r, i) => ({
    ...r,
    X: r.X.map((x, k) => {
      const section = r.candidates[k]!;
      const out = [...x];
      out[SEMANTIC] = dot(query[i]!, sections[section]!);
      out[NEAREST] = Math.max(0, ...questions[section]!.map((v) => dot(query[i]!, v)));
      return out;
    }),
  }));
const byModel: Row[] = rowsBy(queries, sectionVectors, questionsOf);
// The distilled table before the build fits it to the written questions.
const distilled = vectorTable(await cachedPieceTable(EMBEDDING_CACHE));
const byDistilled: Row[] = rowsBy(
  rows.map((r) => textVector(distilled, r.read)),
  texts.map((t) => textVector(distilled, t.text)),
  texts.map((t) => t.questions.map((q) => textVector(distilled, q))),
);

const shipped = models.rerank.features as Feature[];
const figures = (rs: readonly Row[], features: readonly Feature[]) => {
  const ranked = rankedOutOfFold(rs, features);
  return { features, answerAt1: answerAt(rs, ranked, 1), answerAt3: answerAt(rs, ranked, 3) };
};
const without = shipped.filter((f) => f !== 'semanticQuestion' && f !== 'semantic');
const report = {
  questions: { rows: rows.length, answerable: answerable.length },
  sections: texts.length,
  writtenQuestions: texts.reduce((a, t) => a + t.questions.length, 0),
  runTime: { shipped: figures(byModel, shipped), alone: figures(byModel, ['semanticQuestion']) },
  distilled: { shipped: figures(byDistilled, shipped), alone: figures(byDistilled, ['semanticQuestion']) },
  table: { shipped: figures(rows, shipped), alone: figures(rows, ['semanticQuestion']) },
  none: figures(rows, without),
  modelWorkSeconds: modelWork,
};
const f3 = (x: number) => x.toFixed(3);
const line = (name: string, f: { answerAt1: number; answerAt3: number }) =>
  `${name.padEnd(58)} ${f3(f.answerAt1)}     ${f3(f.answerAt3)}`;
console.log(
  [
    `dev split: ${answerable.length} answerable parts, cross-validated set by set; ${texts.length} sections, ` +
      `${report.writtenQuestions} written questions`,
    `${''.padEnd(58)} answer@1  answer@3`,
    line(`run time (the model), reranker over ${shipped.join(', ')}`, report.runTime.shipped),
    line('table distilled, not fitted, the same features', report.distilled.shipped),
    line('table fitted to the written questions (shipped), the same', report.table.shipped),
    line(`no sentence model (${without.join(', ')})`, report.none),
    line('run time, semanticQuestion alone', report.runTime.alone),
    line('table distilled, semanticQuestion alone', report.distilled.alone),
    line('table fitted, semanticQuestion alone', report.table.alone),
  ].join('\n'),
);
console.log(JSON.stringify(report));
