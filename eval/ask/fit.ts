/**
 * `npm run ask:fit`: fits the chat's two models on the development questions and writes src/core/ask/ranker.json.
 * - rerank: a logistic regression on pairs of a question's candidate sections, one judged to answer it and one not
 *   (RankNet), over features of src/core/ask/rerank.ts (FEATURES) chosen by forward selection: from BM25F alone, add
 *   the feature that most lifts answer@1 (+ a quarter of answer@3) cross-validated set by set (each dev set ranked by
 *   a model fitted on the others) while it lifts that by MIN_GAIN: fewer features, less to overfit the dev phrasing;
 * - decide: a logistic regression over each question's features (src/core/ask/decide.ts DECISION_FEATURES) with its
 *   sections as a reranker fitted on the other sets ranks them, positive when the best answers it; and the highest
 *   threshold on its score that keeps the no-answer rate of the development questions within NO_ANSWER_MAX (the
 *   risk-coverage curve is printed). Its features are chosen the same way, by the share of questions answered right
 *   or, when the site does not answer them, declined.
 * Only the development split is read (eval/ask/sets.ts setsOf('dev')); the test split never is.
 * `--rerank f,g` or `--decide f,g` fits that model over the features named instead of selecting them.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureBuild } from '../../server/build-check.ts';
import { analyse, modelText } from '../../src/core/ask/analyse.ts';
import { DECISION_FEATURES, decisionFeatures } from '../../src/core/ask/decide.ts';
import {
  FEATURES,
  type Feature,
  featuresOf,
  type LogisticModel,
  logitOf,
  predictOf,
  type Ranked,
} from '../../src/core/ask/rerank.ts';
import { CANDIDATES } from '../../src/core/ask/answer.ts';
import { retrieve } from '../../src/core/ask/retrieve.ts';
import { fitLogistic } from './logistic.ts';
import { type DevQuestion, devQuestions, productIndex, sectionsOf } from './data.ts';

/** The no-answer rate the threshold may cost on the development questions (the bar). */
const NO_ANSWER_MAX = 0.08;
// Fitted over the checkout's build brought up to date first (as `npm run eval:ask` scores it).
ensureBuild();
export const index = productIndex();

/** A part of a dev question with its candidate sections, their features (X) and which answer it (y). */
export interface Row {
  q: DevQuestion;
  set: string;
  groups: ReturnType<typeof analyse>['parts'][number]['groups'];
  text: string;
  /** The text the reranker's sentence-model features read (a follow-up after its earlier turn). */
  read: string;
  candidates: number[];
  X: number[][];
  y: number[];
  /** The question asks nothing the site answers. */
  absent: boolean;
}

/** One row per part the site should answer (fact, follow-up, each two-part part) and per absent question. */
export function rowsOf(questions: readonly DevQuestion[]): Row[] {
  const rows: Row[] = [];
  for (const q of questions) {
    const plan = analyse(q.question, q.conversation ?? [], index, index.lexicon);
    const wanted =
      q.kind === 'two-part' && q.parts?.length === plan.parts.length
        ? q.parts.map((p) => sectionsOf(index, p))
        : q.kind === 'fact' || q.kind === 'follow-up'
          ? [sectionsOf(index, q.answers ?? [])]
          : q.kind === 'absent'
            ? [new Set<number>()]
            : [];
    wanted.forEach((want, i) => {
      if (q.kind !== 'absent' && !want.size) return;
      const part = plan.parts[q.kind === 'two-part' ? i : 0]!;
      const groups = q.kind === 'two-part' ? part.groups : plan.parts.flatMap((p) => p.groups);
      const context = q.kind === 'two-part' ? [...part.lean, ...plan.context] : plan.context;
      const found = retrieve(index, [...groups, ...context], CANDIDATES);
      const text = plan.followUp || q.kind === 'two-part' ? modelText(plan, part) : q.question;
      const X = featuresOf(index, found, { text, groups, cited: plan.cited });
      rows.push({
        q,
        set: q.set,
        groups,
        text: q.kind === 'two-part' ? part.text : q.question,
        read: text,
        candidates: found.map((c) => c.section),
        X,
        y: found.map((c) => (want.has(c.section) ? 1 : 0)),
        absent: q.kind === 'absent',
      });
    });
  }
  return rows;
}

/** How much a feature must lift the cross-validated answer@1 (+ a quarter of answer@3) to be added. */
const MIN_GAIN = 0.003;

/** A ranking model over `features` from pairs: each judged section against each other candidate (RankNet). */
function fitPairwise(rs: readonly Row[], features: readonly Feature[]): LogisticModel {
  const at = features.map((f) => FEATURES.indexOf(f));
  const X: number[][] = [];
  const y: number[] = [];
  for (const r of rs)
    for (const [i, label] of r.y.entries())
      for (const [j, other] of r.y.entries()) {
        if (!label || other) continue;
        const d = at.map((k) => r.X[i]![k]! - r.X[j]![k]!);
        X.push(
          d,
          d.map((v) => -v),
        );
        y.push(1, 0);
      }
  return fitLogistic(X, y, features, { center: false });
}

function rankedBy(model: LogisticModel, r: Row): Ranked[] {
  return r.candidates
    .map((section, k) => ({ section, bm25: 0, features: r.X[k]!, score: logitOf(model, FEATURES, r.X[k]!) }))
    .sort((a, b) => b.score - a.score || a.section - b.section);
}

/** Each row ranked by a model over `features` fitted on the other sets' answerable rows. */
export const rankedOutOfFold = (rows: readonly Row[], features: readonly Feature[]) =>
  outOfFold(rows, (train) => {
    const model = fitPairwise(
      train.filter((r) => !r.absent),
      features,
    );
    return (r) => rankedBy(model, r);
  });

/** The share of answerable rows with a judged section in the top `k` of their ranking. */
export function answerAt(rows: readonly Row[], ranked: readonly Ranked[][], k: number): number {
  const answerable = rows.filter((r) => !r.absent);
  const hit = (r: Row) => ranked[rows.indexOf(r)]!.slice(0, k).some((x) => r.y[r.candidates.indexOf(x.section)]);
  return answerable.filter(hit).length / answerable.length;
}

/** Whether a row's best section, as ranked, answers it. */
const topRight = (r: Row, ranked: readonly Ranked[]) =>
  !r.absent && ranked[0] !== undefined && r.y[r.candidates.indexOf(ranked[0].section)] === 1 ? 1 : 0;

/** Each set's rows scored by a model fitted on the other sets' rows (out of fold). */
function outOfFold<T>(rows: readonly Row[], learn: (train: Row[]) => (r: Row, i: number) => T): T[] {
  const out = new Array<T>(rows.length);
  for (const set of new Set(rows.map((r) => r.set))) {
    const score = learn(rows.filter((r) => r.set !== set));
    rows.forEach((r, i) => {
      if (r.set === set) out[i] = score(r, i);
    });
  }
  return out;
}

/** The features, from `start`, that forward selection adds while one lifts `measure`'s objective by MIN_GAIN. */
function forwardSelect<F extends string, M extends { objective: number }>(
  all: readonly F[],
  start: readonly F[],
  measure: (features: readonly F[]) => M,
  say: (features: readonly F[], m: M) => void,
): F[] {
  let chosen = [...start];
  let best = chosen.length ? measure(chosen) : undefined;
  for (;;) {
    if (best) say(chosen, best);
    const tried = all.filter((f) => !chosen.includes(f)).map((f) => ({ f, m: measure([...chosen, f]) }));
    const next = tried.sort((a, b) => b.m.objective - a.m.objective)[0];
    if (!next || next.m.objective < (best?.objective ?? -Infinity) + MIN_GAIN) return chosen;
    chosen = [...chosen, next.f];
    best = next.m;
  }
}

/** The reranker's features (see the module comment), printing each step's cross-validated figures. */
function selectRerank(rows: readonly Row[], given?: readonly Feature[]): Feature[] {
  const measure = (features: readonly Feature[]) => {
    const ranked = rankedOutOfFold(rows, features);
    const [at1, at3] = [answerAt(rows, ranked, 1), answerAt(rows, ranked, 3)];
    return { at1, at3, objective: at1 + at3 / 4 };
  };
  const say = (f: readonly Feature[], m: ReturnType<typeof measure>) =>
    console.log(`rerank over ${f.join(', ')}: answer@1 ${m.at1.toFixed(3)}, answer@3 ${m.at3.toFixed(3)}`);
  if (given) say(given, measure(given));
  return given ? [...given] : forwardSelect(FEATURES, ['bm25'], measure, say);
}

type DecisionFeature = (typeof DECISION_FEATURES)[number];

/**
 * The decision over `features`, cross-validated set by set: each row's confidence from a model fitted on the other
 * sets, the risk-coverage curve, the threshold chosen on it, and the objective: the share of answerable rows answered
 * right plus the share of absent ones declined, at that threshold.
 */
function measureDecision(rows: readonly Row[], D: number[][], right: readonly number[], features: readonly string[]) {
  const at = features.map((f) => DECISION_FEATURES.indexOf(f as DecisionFeature));
  const X = D.map((x) => at.map((k) => x[k]!));
  const confidence = outOfFold(rows, (train) => {
    const i = train.map((r) => rows.indexOf(r));
    const model = fitLogistic(
      i.map((k) => X[k]!),
      i.map((k) => right[k]!),
      features,
    );
    return (_, k) => predictOf(model, model.features, X[k]!);
  });
  const curve = curveOf(rows, confidence, right);
  // The highest threshold that still answers all but NO_ANSWER_MAX of the answerable questions: the fewest wrong and
  // absent answers at that coverage.
  const chosen = curve.filter((c) => c.noAnswer <= NO_ANSWER_MAX).at(-1) ?? curve[0]!;
  const objective = 1 - chosen.noAnswer - chosen.wrong + (1 - chosen.absentAnswered);
  return { curve, chosen, objective, X };
}

/** The decision's risk-coverage curve: at each threshold, what is not answered, answered wrong, absent answered. */
function curveOf(rows: readonly Row[], confidence: readonly number[], right: readonly number[]) {
  const answerable = rows.filter((r) => !r.absent).length;
  const absent = rows.length - answerable;
  const curve: { threshold: number; noAnswer: number; wrong: number; absentAnswered: number }[] = [];
  for (let t = 5; t <= 95; t++) {
    const threshold = t / 100;
    let [unanswered, wrong, absentAnswered] = [0, 0, 0];
    rows.forEach((r, i) => {
      const yes = confidence[i]! >= threshold;
      if (r.absent) absentAnswered += yes ? 1 : 0;
      else if (!yes) unanswered++;
      else if (!right[i]) wrong++;
    });
    curve.push({
      threshold,
      noAnswer: unanswered / answerable,
      wrong: wrong / answerable,
      absentAnswered: absentAnswered / absent,
    });
  }
  return curve;
}

/** The features a `--rerank` or `--decide` option names, each checked against those the model offers. */
function givenFeatures<F extends string>(option: string | undefined, all: readonly F[]): F[] | undefined {
  if (option === undefined) return undefined;
  const names = option.split(',').map((f) => f.trim());
  const unknown = names.filter((f) => !all.includes(f as F));
  if (unknown.length) throw new Error(`no such feature: ${unknown.join(', ')} (offered: ${all.join(', ')})`);
  return names as F[];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { rerank: { type: 'string' }, decide: { type: 'string' } } });
  const rows = rowsOf(devQuestions());
  const answerable = rows.filter((r) => !r.absent);
  console.log(`rerank: ${answerable.length} answerable parts of the dev split, cross-validated set by set`);
  const features = selectRerank(rows, givenFeatures(values.rerank, FEATURES));
  const ranked = rankedOutOfFold(rows, features);
  const rerank = fitPairwise(answerable, features);
  // The decision learns from each row's out-of-fold ranking whether its best section answers it.
  const D = rows.map((r, i) => decisionFeatures(index, ranked[i]!, r.groups, r.text));
  const right = rows.map((r, i) => topRight(r, ranked[i]!));
  const measure = (f: readonly DecisionFeature[]) => measureDecision(rows, D, right, f);
  const sayDecision = (f: readonly DecisionFeature[], m: ReturnType<typeof measure>) =>
    console.log(`decide over ${f.join(', ')}: right or declined ${(m.objective / 2).toFixed(3)}`);
  const givenDecision = givenFeatures(values.decide, DECISION_FEATURES);
  if (givenDecision) sayDecision(givenDecision, measure(givenDecision));
  const chosen = givenDecision ?? forwardSelect(DECISION_FEATURES, [], measure, sayDecision);
  const { curve, chosen: best, X } = measure(chosen);
  for (const c of curve.filter((c, i) => i % 5 === 0 || c === best))
    console.log(
      `threshold ${c.threshold.toFixed(2)}: no-answer ${c.noAnswer.toFixed(3)}, answered-wrong ${c.wrong.toFixed(3)}, ` +
        `absent answered ${c.absentAnswered.toFixed(3)}${c === best ? '  <- chosen' : ''}`,
    );
  const decide = { ...fitLogistic(X, right, chosen), threshold: best.threshold };
  const round = (m: LogisticModel) => ({
    ...m,
    mean: m.mean.map((v) => +v.toFixed(6)),
    scale: m.scale.map((v) => +v.toFixed(6)),
    weights: m.weights.map((v) => +v.toFixed(6)),
    bias: +m.bias.toFixed(6),
  });
  const file = new URL('../../src/core/ask/ranker.json', import.meta.url);
  const models = { rerank: round(rerank), decide: { ...round(decide), threshold: decide.threshold } };
  writeFileSync(file, `${JSON.stringify(models, null, 1)}\n`);
  console.log('wrote src/core/ask/ranker.json');
  for (const [name, m] of [['rerank', rerank] as const, ['decide', decide] as const])
    console.log(name, Object.fromEntries(m.features.map((f, i) => [f, +m.weights[i]!.toFixed(3)])));
}
