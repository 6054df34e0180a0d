/**
 * @module Stage 5, rerank: one logistic scoring function over named features of each candidate section, its weights
 * fitted on the development questions by `npm run ask:fit` (./ranker.json).
 */
import { analyze } from '../search/analyze.ts';
import { K1 } from '../search/bm25f.ts';
import type { TermGroup } from './analyse.ts';
import { sectionSimilarity, textVector } from './embedding.ts';
import { kept } from '../kept.ts';
import { ASK_FIELDS, type AskIndex, bodyOf } from './index.ts';
import type { Candidate } from './retrieve.ts';

const BM25 = ['bm25', 'text', 'heading', 'title', 'expansions'] as const;
const WORDS = ['coverage', 'coverageAll', 'headingCoverage', 'topic', 'nearest'] as const;
const PLACE = ['semantic', 'semanticQuestion', 'post', 'listing', 'intro', 'cited', 'semanticAsk'] as const;
/** The features a model may use (BM25F, the question's words, the sentence model and the section's place). */
export const FEATURES = [...BM25, ...WORDS, ...PLACE] as const;
export type Feature = (typeof FEATURES)[number];

/** A fitted logistic model over named features (standardised by `mean` and `scale`), in the order it names them. */
type Vector = readonly number[];
export type LogisticModel = { features: readonly string[]; mean: Vector; scale: Vector; weights: Vector; bias: number };

/** The model's log-odds for a vector `x` holding the features `names` (the model reads those it names). */
export function logitOf(model: LogisticModel, names: readonly string[], x: readonly number[]): number {
  let z = model.bias;
  for (const [i, f] of model.features.entries())
    z += (model.weights[i]! * (x[names.indexOf(f)]! - model.mean[i]!)) / (model.scale[i]! || 1);
  return z;
}
/** The model's probability for a vector `x` holding the features `names`. */
export const predictOf = (model: LogisticModel, names: readonly string[], x: readonly number[]) =>
  1 / (1 + Math.exp(-logitOf(model, names, x)));

/** A candidate with its features and score (log-odds; fitted on pairs, so only differences mean something). */
export type Ranked = Candidate & { features: number[]; score: number };
/** The text the sentence model reads, the words, the earlier turn's pages; `need`: the features to work out (all). */
type Words = { text: string; groups: readonly TermGroup[] };
export type RerankInput = Words & { cited: ReadonlySet<string>; need?: ReadonlySet<string> };

/** A list's counts. */
const count = (ts: readonly string[]) => ts.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());

/** Terms of one field of a section, counted (analysed on first use; a few sections per question; bounded). */
const fieldCache = new Map<string, Map<string, number>>();
function fieldOf(index: AskIndex, section: number, field: number): Map<string, number> {
  const heading = index.heading(section);
  const analysed = [
    () => analyze(bodyOf(index.text(section), heading !== null)),
    () => (heading === null ? [] : analyze(heading)),
    () => analyze(index.pageOf(section).title),
    () => (index.data.expansions[section] ? index.data.expansions[section].split(' ') : []),
  ][field]!;
  return kept(fieldCache, `${index.data.terms.offsets.length}:${section}:${field}`, () => count(analysed()), 2048);
}

const [SPECS, ALL_FIELDS, OWN_FIELDS] = [Object.values(ASK_FIELDS), [0, 1, 2, 3], [0, 1, 2]];
/** Whether a section holds a term in any field (text, heading, title, expansions). */
export const holdsTerm = (index: AskIndex, section: number, term: string) => index.terms.holds(term, section);
/** A set of terms, and the sum of their idf (worked out on first use). */
type Terms = { terms: ReadonlySet<string>; weight?: number };
/** The best idf-weighted Jaccard of `terms` and any of `sets` (a set sharing no term is not weighed). */
export function nearestOf(index: AskIndex, terms: ReadonlySet<string>, sets: readonly Terms[]): number {
  const idf = [...terms].map((t) => [t, index.idf(t)] as const);
  const own = idf.reduce((a, [, w]) => a + w, 0);
  let best = 0;
  for (const s of sets) {
    const both = idf.reduce((a, [t, w]) => a + (s.terms.has(t) ? w : 0), 0);
    if (!both) continue;
    s.weight ??= [...s.terms].reduce((a, t) => a + index.idf(t), 0);
    best = Math.max(best, both / (own + s.weight - both));
  }
  return best;
}

/** Per section, each question it answers (GAPS: each known gap), its terms a set once read (a question reads few). */
export const GAPS = -1;
const askedBySection = new WeakMap<AskIndex, Map<number, Terms[]>>();
function askedOf(index: AskIndex, section: number): Terms[] {
  const { asked, gaps } = index.data;
  const texts = () => (section === GAPS ? gaps : asked.filter(([s]) => s === section).map(([, t]) => t));
  const m = askedBySection.get(index) ?? askedBySection.set(index, new Map()).get(index)!;
  return kept(m, section, () => texts().map((t) => ({ terms: new Set(t.split(' ')) })), Number.POSITIVE_INFINITY);
}

/** How near terms are to the nearest question a section answers, or to a known gap (GAPS): the best idf-Jaccard. */
export const nearestAsked = (index: AskIndex, section: number, terms: ReadonlySet<string>) =>
  nearestOf(index, terms, askedOf(index, section));

/** Each candidate's features (FEATURES order); those not in `input.need` are 0 (not worked out). */
export function featuresOf(index: AskIndex, candidates: readonly Candidate[], input: RerankInput): number[][] {
  const own = input.groups.filter((g) => !g.unknown);
  const weights = own.map((g) => g.weight * Math.max(...g.terms.map((t) => index.idf(t))));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const topic = weights.indexOf(Math.max(...weights));
  const top = candidates[0]?.bm25 || 1;
  const terms = new Set(own.flatMap((g) => g.terms.slice(0, 1)));
  const table = index.embedding;
  const vector = table && textVector(table, input.text);
  const said = input.text.split(/(?<=[.?!])\s+/).filter((s) => s.trim());
  const asks = said.filter((s) => s.trim().endsWith('?'));
  // The sentences that ask, else the last: what a question asks after saying what it is about (see docs/chat.md).
  const askVector = table && textVector(table, (asks.length ? asks : said.slice(-1)).join(' '));
  const near = (s: number) => (table && vector ? sectionSimilarity(table, vector, s) : { text: 0, nearestQuestion: 0 });
  return candidates.map((c) => {
    const field = (f: number) => fieldOf(index, c.section, f);
    const fieldScore = (f: number) => {
      const { b } = SPECS[f]!;
      const norm = 1 - b + (b * [...field(f).values()].reduce((a, n) => a + n, 0)) / index.data.averages[f]!;
      let v = 0;
      own.forEach((g, i) => {
        let best = 0;
        for (const t of g.terms) best = Math.max(best, field(f).get(t) ?? 0);
        if (best) v += (weights[i]! * best) / (best + K1 * norm);
      });
      return v;
    };
    // In any field: the term's postings list the section (no text read); in some fields: those fields' terms.
    const holds = (g: TermGroup, f: readonly number[]) =>
      g.terms.some((t) => (f === ALL_FIELDS ? holdsTerm(index, c.section, t) : f.some((k) => field(k).has(t))));
    const share = (f: readonly number[]) => own.reduce((a, g, i) => a + (holds(g, f) ? weights[i]! : 0), 0) / total;
    const page = index.pageOf(c.section);
    let sim: ReturnType<typeof near> | undefined;
    const x: Record<Feature, () => number> = {
      bm25: () => c.bm25 / top,
      text: () => fieldScore(0),
      heading: () => fieldScore(1),
      title: () => fieldScore(2),
      expansions: () => fieldScore(3),
      coverage: () => share(OWN_FIELDS),
      coverageAll: () => share(ALL_FIELDS),
      headingCoverage: () => share([1]),
      topic: () => (topic >= 0 && holds(own[topic]!, OWN_FIELDS) ? 1 : 0),
      nearest: () => nearestAsked(index, c.section, terms),
      semantic: () => (sim ??= near(c.section)).text,
      semanticQuestion: () => (sim ??= near(c.section)).nearestQuestion,
      semanticAsk: () => (table && askVector ? sectionSimilarity(table, askVector, c.section).nearestQuestion : 0),
      listing: () => (page.listing ? 1 : 0),
      post: () => (page.post ? 1 : 0),
      intro: () => (index.heading(c.section) === null ? 1 : 0),
      cited: () => (input.cited.has(page.slug) ? 1 : 0),
    };
    return FEATURES.map((f) => (!input.need || input.need.has(f) ? x[f]() : 0));
  });
}

/** The candidates scored by the model (over the features it names), best first. */
export function rerank(index: AskIndex, candidates: readonly Candidate[], input: RerankInput, model: LogisticModel) {
  const xs = featuresOf(index, candidates, input);
  const ranked = xs.map((x, i): Ranked => ({ ...candidates[i]!, features: x, score: logitOf(model, FEATURES, x) }));
  return ranked.sort((a, b) => b.score - a.score || a.section - b.section);
}
