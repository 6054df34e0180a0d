/**
 * @module The sentence-model table fitted to the site, at build time. The distilled table (./ask-embedding.ts) reads
 * a visitor's words as Universal Sentence Encoder lite does, and the model knows nothing of removals software: to it
 * "does the app work with no reception" is far from "offline mode without signal" (cosine 0.24; 0.52 once fitted,
 * against 0.06 for "invoices sync to xero"). Fitting moves the pieces' rows so that the questions written for one
 * section (src/build/ask-questions.json) and that section's opening text come nearer one another than to other
 * sections': a contrastive loss (InfoNCE) over batches of one question from each of many sections, each against
 * another of its own section's, minimised with Adam. Its only data are the written questions and the pages, never a
 * judged question. The settings were chosen on the development split (eval/ask): cross-validated, the reranker's
 * answer@1 rose from 0.840 to 0.857 and answer@3 from 0.937 to 0.942 (0.855 to 0.857 and 0.942 to 0.947 over three
 * seeds), best after two to four passes (more overfit the written questions' wording).
 */
import { PieceTokenizer } from '../core/piece-tokenizer.ts';

/** How the table is fitted. */
export interface TuneSettings {
  /** Passes over every question. */
  epochs: number;
  /** Adam's step, in the int8 units of a piece's row. */
  rate: number;
  /** The softmax temperature of the similarities. */
  temperature: number;
  /** Questions in a batch (at most one per section). */
  batch: number;
  /** The seed of the shuffles and of the pairing. */
  seed: number;
}

/** The settings chosen on the development questions. */
export const TUNE: TuneSettings = { epochs: 3, rate: 2, temperature: 0.05, batch: 128, seed: 7 };

/** The dot product of two vectors of the same length. */
function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

/**
 * The piece table (./ask-embedding.ts distils it and re-exports this type): int8 rows, each row's scale with its SIF
 * weight folded in, and the tokenizer's data. Defined here, where the fit reads it, so neither module imports the
 * other both ways.
 */
export interface PieceTable {
  dims: number;
  pieces: string[];
  scores: Float64Array;
  rows: Int8Array;
  scale: Float32Array;
}

/** A text as its distinct pieces and their weights (the row's scale times the count), as textVector sums them. */
type Encoded = { ids: number[]; weights: number[] };
/** A text's vector of length 1 (`v`) and its length before (`norm`). */
type Unit = { v: Float32Array; norm: number };

/**
 * The piece table's rows fitted so that the texts of one group (a section's written questions and its opening text)
 * are nearer one another, as float vectors with the rows' scales in them (to quantise again); groups of fewer than
 * two texts teach nothing. Deterministic for the same table, groups and settings. Rows no text holds keep their
 * values.
 */
export function tunedRows(table: PieceTable, groups: readonly (readonly string[])[], s = TUNE): Float32Array {
  const { dims, rows, scale } = table;
  const tokenizer = new PieceTokenizer(table.pieces, table.scores);
  const encode = (text: string): Encoded => {
    const w = new Map<number, number>();
    for (const id of tokenizer.encode(text.toLowerCase())) w.set(id, (w.get(id) ?? 0) + scale[id]!);
    const ids = [...w.keys()].filter((id) => w.get(id));
    return { ids, weights: ids.map((id) => w.get(id)!) };
  };
  const sets = groups.filter((g) => g.length >= 2).map((g) => g.map(encode));
  // The change to each row, and Adam's moments (updated for the rows a batch touches).
  const delta = new Float32Array(rows.length);
  const [m1, m2] = [new Float32Array(rows.length), new Float32Array(rows.length)];
  // A 32-bit linear congruential generator (Numerical Recipes' constants), exact in integer arithmetic.
  let seed = s.seed >>> 0;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const unit = (e: Encoded): Unit => {
    const u = new Float32Array(dims);
    e.ids.forEach((id, k) => {
      for (let d = 0, b = id * dims; d < dims; d++) u[d]! += e.weights[k]! * (rows[b + d]! + delta[b + d]!);
    });
    const norm = Math.sqrt(dot(u, u)) || 1;
    return { v: u.map((x) => x / norm), norm };
  };
  const anchors = sets.flatMap((texts, set) => texts.map((_, i) => [set, i] as const));
  let step = 0;
  const learn = (batch: (readonly [number, number])[]) => {
    const texts = batch.map(([set, i]) => sets[set]![i]!);
    const pairs = batch.map(([set, i]) => {
      const own = sets[set]!;
      const j = Math.floor(random() * (own.length - 1));
      return own[j >= i ? j + 1 : j]!;
    });
    const [a, p] = [texts.map(unit), pairs.map(unit)];
    const n = batch.length;
    const [ga, gp] = [a.map(() => new Float32Array(dims)), p.map(() => new Float32Array(dims))];
    for (let i = 0; i < n; i++) {
      const [ai, gi] = [a[i]!.v, ga[i]!];
      const sim = p.map((q) => dot(ai, q.v) / s.temperature);
      const top = Math.max(...sim);
      const e = sim.map((x) => Math.exp(x - top));
      const z = e.reduce((x, y) => x + y, 0);
      for (let j = 0; j < n; j++) {
        const g = (e[j]! / z - (i === j ? 1 : 0)) / s.temperature / n;
        const [pj, gj] = [p[j]!.v, gp[j]!];
        for (let d = 0; d < dims; d++) {
          gi[d]! += g * pj[d]!;
          gj[d]! += g * ai[d]!;
        }
      }
    }
    // Back through the length-1 scaling into each piece's row.
    const grad = new Map<number, Float32Array>();
    const back = (x: Unit, g: Float32Array, e: Encoded) => {
      const along = dot(g, x.v);
      e.ids.forEach((id, k) => {
        const row = grad.get(id) ?? grad.set(id, new Float32Array(dims)).get(id)!;
        for (let d = 0; d < dims; d++) row[d]! += (e.weights[k]! * (g[d]! - along * x.v[d]!)) / x.norm;
      });
    };
    batch.forEach((_, i) => {
      back(a[i]!, ga[i]!, texts[i]!);
      back(p[i]!, gp[i]!, pairs[i]!);
    });
    step++;
    const [b1, b2] = [0.9, 0.999];
    for (const [id, g] of grad)
      for (let d = 0, k = id * dims; d < dims; d++, k++) {
        m1[k] = b1 * m1[k]! + (1 - b1) * g[d]!;
        m2[k] = b2 * m2[k]! + (1 - b2) * g[d]! * g[d]!;
        delta[k]! -= (s.rate * (m1[k]! / (1 - b1 ** step))) / (Math.sqrt(m2[k]! / (1 - b2 ** step)) + 1e-8);
      }
  };
  for (let epoch = 0; epoch < s.epochs; epoch++) {
    for (let i = anchors.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [anchors[i], anchors[j]] = [anchors[j]!, anchors[i]!];
    }
    for (let i = 0; i < anchors.length; i += s.batch) {
      // One question a section: another of its section in the batch would be counted as a wrong pair.
      const first = new Map<number, readonly [number, number]>();
      for (const x of anchors.slice(i, i + s.batch)) if (!first.has(x[0])) first.set(x[0], x);
      learn([...first.values()]);
    }
  }
  const fitted = new Float32Array(rows.length);
  for (let k = 0; k < rows.length; k++) fitted[k] = scale[Math.floor(k / dims)]! * (rows[k]! + delta[k]!);
  return fitted;
}
