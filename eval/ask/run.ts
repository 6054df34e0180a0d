/**
 * @module `npm run eval:ask`: the chat's figures on the dev split, the test split and the fresh sets, for the
 * product engine (engine.ts, no judged set learned), the MiniSearch and BM25 baselines (baselines.ts) and today's
 * engine as recorded before its rebuild (today.json). Test and fresh print figures only; failures are printed for
 * dev alone, on request.
 *
 *   npm run eval:ask [-- --json] [--dev-failures] [--dev] [--build <dataDir>] [--record]
 *
 * --dev: the dev split only (while working on the engine: the test split is scored once per change that lands).
 * --json: one JSON object (EvalReport) instead of the tables. --dev-failures: every dev question the engine gets
 * wrong, with what is wrong, and the dev split only (a run to read failures scores no test figure). --build: the
 * data folder of a build (default build/, brought up to date first as `node server/build-check.ts` does; with --json
 * a stale build/ is refused instead, as the build would print).
 * --record: add the engine's figures on the sets not recorded yet to today.json (set by set, with the commit measured
 * and the date): the record of today's engine before its rebuild, refused once src/ or content/ differ from the
 * commit it was first recorded at.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildReason, ensureBuild } from '../../server/build-check.ts';
import { bm25Asker, miniSearchAsker } from './baselines.ts';
import { createAsker, ENGINE_NAME, PRICING } from './engine.ts';
import {
  type AskFigures,
  type Asker,
  figuresOf,
  type Ratio,
  type Scored,
  scoreAsk,
  share,
  sumFigures,
} from './metrics.ts';
import { siteSections, unknownRefs } from './sections.ts';
import { questionsOf, type Split, setsOf } from './sets.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TODAY_FILE = new URL('./today.json', import.meta.url);

export const ENGINES = ['ours', 'minisearch', 'bm25'] as const;
export type EngineName = (typeof ENGINES)[number];
const GROUPS: readonly Split[] = ['dev', 'test', 'fresh'];

/** One group's figures for each engine. */
export interface GroupReport {
  group: Split;
  sets: string[];
  questions: number;
  /** Judged references (answers, parts) that name no section of the build: the set needs fixing. */
  unknownRefs: number;
  engines: Record<EngineName, AskFigures>;
  /** Today's engine as recorded, on the group's sets it was recorded on (`of` of the group's `sets`). */
  today?: { sets: number; figures: AskFigures };
}

/** One set's figures for today's engine, and where they were measured. */
export interface RecordedSet {
  commit: string;
  /** Whether src/ or content/ had changes not committed when measured. */
  dirty: boolean;
  date: string;
  figures: AskFigures;
}

/** Today's engine as recorded before its rebuild (today.json), set by set. */
export interface TodayRecord {
  engine: string;
  sets: Record<string, RecordedSet>;
}

export interface EvalReport {
  engine: string;
  buildDir: string;
  commit: string;
  date: string;
  groups: GroupReport[];
  /** Today's engine as recorded, when today.json exists. */
  today?: { engine: string; commits: string[]; dates: string[] };
}

/** The askers measured, over one build. */
export function askers(buildDir: string): Record<EngineName, Asker> {
  const sections = siteSections(buildDir);
  return { ours: createAsker(buildDir), minisearch: miniSearchAsker(sections), bm25: bm25Asker(sections) };
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

export const readToday = (): TodayRecord | undefined =>
  existsSync(TODAY_FILE) ? (JSON.parse(readFileSync(TODAY_FILE, 'utf8')) as TodayRecord) : undefined;

/**
 * Every figure of every engine on every group present (fresh only when a fresh set exists), and the engine's
 * figures set by set (what `--record` keeps). Each set is scored once per engine; a group's figures are its sets'
 * added up.
 */
export function evaluate(
  buildDir: string,
  only: readonly Split[] = GROUPS,
): {
  report: EvalReport;
  bySet: Map<string, AskFigures>;
  devFailures: Scored[];
} {
  const sections = siteSections(buildDir);
  const run = askers(buildDir);
  const today = readToday();
  const devFailures: Scored[] = [];
  const bySet = new Map<string, AskFigures>();
  const scored = new Map<string, Record<EngineName, AskFigures>>();
  const groups: GroupReport[] = [];
  for (const group of GROUPS.filter((g) => only.includes(g))) {
    const sets = setsOf(group);
    if (!sets.length) continue;
    for (const x of sets.filter((x) => !scored.has(x.set))) {
      const questions = questionsOf([x]);
      const engines = {} as Record<EngineName, AskFigures>;
      for (const name of ENGINES) {
        const scores = scoreAsk(questions, run[name], PRICING);
        if (x.split === 'dev' && name === 'ours') devFailures.push(...scores.failures);
        engines[name] = figuresOf(scores);
      }
      scored.set(x.set, engines);
      bySet.set(x.set, engines.ours);
    }
    const of = (name: EngineName) => sumFigures(sets.map((x) => scored.get(x.set)![name]));
    const refs = questionsOf(sets).flatMap((q) => [...(q.answers ?? []), ...(q.parts ?? []).flat()]);
    const recorded = sets.flatMap((x) => today?.sets[x.set]?.figures ?? []);
    groups.push({
      group,
      sets: sets.map((x) => x.set),
      questions: of('ours').questions,
      unknownRefs: unknownRefs(sections, refs).length,
      engines: { ours: of('ours'), minisearch: of('minisearch'), bm25: of('bm25') },
      ...(recorded.length ? { today: { sets: recorded.length, figures: sumFigures(recorded) } } : {}),
    });
  }
  const entries = Object.values(today?.sets ?? {});
  const report: EvalReport = {
    engine: ENGINE_NAME,
    buildDir,
    commit: git('rev-parse', 'HEAD'),
    date: new Date().toISOString(),
    groups,
    ...(today
      ? {
          today: {
            engine: today.engine,
            commits: [...new Set(entries.map((e) => e.commit))],
            dates: [...new Set(entries.map((e) => e.date.slice(0, 10)))],
          },
        }
      : {}),
  };
  return { report, bySet, devFailures };
}

/**
 * today.json after recording the engine measured now: the sets not recorded yet are added, those recorded kept (to
 * measure one again, remove its entry).
 */
export function recordOf(r: EvalReport, bySet: ReadonlyMap<string, AskFigures>, before?: TodayRecord): TodayRecord {
  const dirty = git('status', '--porcelain', '--', 'src', 'content') !== '';
  const now = Object.fromEntries(
    [...bySet].map(([set, figures]) => [set, { commit: r.commit, dirty, date: r.date, figures }]),
  );
  return { engine: before?.engine ?? r.engine, sets: { ...now, ...before?.sets } };
}

/** Why the engine measured now may not be recorded as today's: its code or content differ from the record's. */
export function recordRefusal(before: TodayRecord | undefined): string | undefined {
  const base = Object.values(before?.sets ?? {})[0]?.commit;
  if (!base) return undefined;
  try {
    git('diff', '--quiet', base, '--', 'src', 'content');
    return undefined;
  } catch {
    return `src/ or content/ differ from ${base.slice(0, 12)}, where today's engine was recorded: record it there`;
  }
}

type Row = [label: string, target: string, value: (f: AskFigures) => Ratio | number | undefined, all?: true];

/** The printed figures: label, the target, the figure (`all`: applies to the baselines too). */
const ROWS = (intents: string[]): Row[] => [
  ['answer@1 (fact, follow-up: a judged section first)', '>= 0.85', (f) => f.answerAt1, true],
  ['answer@3 (a judged section in the top 3)', '>= 0.95', (f) => f.answerAt3, true],
  ["two-part (each part's section in the top 3)", '>= 0.80', (f) => f.twoPart, true],
  ['absent-correct (not answered)', '>= 0.90', (f) => f.absentCorrect, true],
  ['handoff-correct (the intent asked for)', '1.00', (f) => f.handoffCorrect],
  ...intents.map((i): Row => [`  handoff-correct, ${i}`, '1.00', (f) => f.handoffByIntent[i]]),
  ['false handoffs (asks no person, handed off)', '<= 0.02', (f) => f.falseHandoffs, true],
  ['no-answer (answerable, not answered)', '<= 0.08', (f) => f.noAnswer, true],
  ['answered-wrong (quoted from a non-judged section)', '<= 0.08', (f) => f.answeredWrong, true],
  ['pricing-correct (the monthly or annual figure)', '', (f) => f.pricingCorrect],
  ['invented sentences', '0', (f) => f.invented, true],
  ['responses failing AskResponseSchema', '0', (f) => f.schemaFailures, true],
];

const cell = (v: Ratio | number | undefined) => {
  if (v === undefined) return 'n/a';
  if (typeof v === 'number') return String(v);
  const s = share(v);
  return s === null ? 'n/a' : `${s.toFixed(3)} (${v.ok}/${v.of})`;
};

/** The report as tables, one per group. */
export function printReport(r: EvalReport): string {
  const out = [`engine: ${r.engine}; build ${r.buildDir}; commit ${r.commit.slice(0, 12)}; ${r.date}`];
  if (r.today) {
    const at = r.today.commits.map((c) => c.slice(0, 12)).join(', ');
    out.push(`today (recorded): ${r.today.engine} at ${at} on ${r.today.dates.join(', ')}`);
  }
  for (const g of r.groups) {
    const recorded = g.today?.figures;
    const counts = Object.entries(g.engines.ours.counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    out.push(
      '',
      `${g.group}: ${g.sets.length} sets, ${g.questions} questions (${counts}); judged references naming no section: ${g.unknownRefs}`,
    );
    if (g.today?.sets !== g.sets.length)
      out.push(`  today (recorded): on ${g.today?.sets ?? 0} of these ${g.sets.length} sets`);
    const intents = Object.keys(g.engines.ours.handoffByIntent).sort();
    const head = ['figure', 'target', 'today (recorded)', ...ENGINES];
    const rows = ROWS(intents).map(([label, target, value, all]) => [
      label,
      target,
      recorded ? cell(value(recorded)) : '-',
      ...ENGINES.map((e) => (e === 'ours' || all ? cell(value(g.engines[e])) : 'n/a')),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    out.push(line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line));
  }
  return out.join('\n');
}

/** Dev failures, one line each (never called for test or fresh). */
export function printFailures(failures: readonly Scored[]): string {
  return failures
    .filter((f) => f.q.split === 'dev')
    .map(({ q, r, problems }) => {
      const top = r.sources
        .slice(0, 3)
        .map((s) => `${s.slug}#${s.heading ?? ''}${s.role === 'related' ? ' (related)' : ''}`)
        .join(' | ');
      return `${q.set}/${q.id} [${q.kind}] ${q.question}\n    -> ${r.answered ? 'answered' : 'not answered'}: ${top || 'no source'}\n    ${problems.join('; ')}`;
    })
    .join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      'dev-failures': { type: 'boolean', default: false },
      build: { type: 'string', default: join(ROOT, 'build') },
      record: { type: 'boolean', default: false },
      dev: { type: 'boolean', default: false },
    },
  });
  // The checkout's own build is brought up to date first, as `npm start` and `npm test` do: over a build older than
  // src/ or content/ the figures are another engine's (a build without the sentence model's table scores ~0.06 lower).
  if (values.build === join(ROOT, 'build')) {
    const stale = buildReason(ROOT);
    if (stale && values.json) {
      // The build's output would go into the JSON.
      console.error(`build/ is out of date (${stale}): run \`node server/build-check.ts\` first`);
      process.exit(2);
    }
    if (stale) ensureBuild(ROOT);
  } else if (!existsSync(join(values.build, 'meta.json'))) {
    console.error(`no build in ${values.build}: run \`node server/build-check.ts\` first`);
    process.exit(2);
  }
  const devOnly = values.dev || values['dev-failures'];
  if (devOnly && values.record) {
    console.error('--record scores every split: leave out --dev and --dev-failures');
    process.exit(2);
  }
  const { report, bySet, devFailures } = evaluate(values.build, devOnly ? ['dev'] : GROUPS);
  if (values.record) {
    const before = readToday();
    const refused = recordRefusal(before);
    if (refused) {
      console.error(`not recorded: ${refused}`);
      process.exit(2);
    }
    // One line for each count ({"ok": 3, "of": 4}), so that a set's figures read at a glance.
    const text = JSON.stringify(recordOf(report, bySet, before), null, 1).replace(
      /\{\n\s*"ok": (\d+),\n\s*"of": (\d+)\n\s*\}/g,
      '{ "ok": $1, "of": $2 }',
    );
    writeFileSync(TODAY_FILE, `${text}\n`);
    console.error(`wrote ${fileURLToPath(TODAY_FILE)}`);
  }
  if (values.json) {
    const failures = values['dev-failures']
      ? devFailures.map((f) => ({ set: f.q.set, id: f.q.id, problems: f.problems }))
      : undefined;
    console.log(JSON.stringify(failures ? { ...report, devFailures: failures } : report));
  } else {
    console.log(printReport(report));
    if (values['dev-failures'])
      console.log(`\ndev failures (ours, ${devFailures.length}):\n${printFailures(devFailures)}`);
  }
}
