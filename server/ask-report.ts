/**
 * `npm run ask:report [-- --limit N] [-- --json]`: the questions the site's assistant could not answer, most
 * asked first, with how often and when last (top 50 by default), read from the store the configuration names
 * (Upstash when its settings are present, else the SQLite file in KARTAGE_VAR_DIR), the same as the server.
 * The questions were scrubbed of personal data before they were stored, and are scrubbed again with today's
 * patterns as they are read (src/core/unanswered/index.ts). Only reportable ones are listed: a question with a
 * link or host name, one that is not language, or one that may name a person or give an address is counted
 * but not listed, and the table says how many were left out and why. A store that cannot be read ends it with
 * one line and exit code 1.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config.ts';
import { createStore } from '../src/adapters/composition-root.ts';
import { type Reportable, reportable, scrubQuestion, UNANSWERED_LIMIT } from '../src/core/unanswered/index.ts';
import type { UnansweredQuestion } from '../src/core/ports.ts';

const USAGE = `usage: npm run ask:report [-- --limit N] [-- --json]   (N from 1 to ${UNANSWERED_LIMIT}, default 50)`;

/** One line for an error: its message and, for a failed fetch, the cause's code (ECONNREFUSED, …). */
function oneLine(e: unknown): string {
  const err = e as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const message = String(err?.message ?? e);
  const cause = err?.cause?.code ?? err?.cause?.message;
  return `${message}${cause && !message.includes(String(cause)) ? ` (${cause})` : ''}`
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** An expected failure: its one line, and the exit code (1: the store, 2: the command line). */
class Refusal extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

function options(argv: string[]): { limit: number; json: boolean; help: boolean } {
  let values: { limit?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        limit: { type: 'string', short: 'n' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new Refusal(`${oneLine(e)}; ${USAGE}`, 2);
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!/^\d+$/.test(values.limit ?? '50') || limit < 1 || limit > UNANSWERED_LIMIT)
    throw new Refusal(`--limit must be a whole number from 1 to ${UNANSWERED_LIMIT}; ${USAGE}`, 2);
  return { limit, json: !!values.json, help: !!values.help };
}

/** `2026-11-23 10:05` (UTC). */
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function table(rows: UnansweredQuestion[]): string {
  const width = Math.max(5, ...rows.map((r) => String(r.count).length));
  const head = `${'count'.padStart(width)}  ${'last asked (UTC)'.padEnd(16)}  question`;
  const rule = `${'-'.repeat(width)}  ${'-'.repeat(16)}  ${'-'.repeat(8)}`;
  const lines = rows.map((r) => `${String(r.count).padStart(width)}  ${when(r.lastAsked)}  ${r.text}`);
  return `${[head, rule, ...lines].join('\n')}\n`;
}

type Reason = Extract<Reportable, { ok: false }>['reason'];
const REASONS: Record<Reason, [string, string]> = {
  link: ['carries a link or a host name', 'carry a link or a host name'],
  'not language': ['is not language', 'are not language'],
  personal: ['may name a person or give an address', 'may name a person or give an address'],
};

/** The first `limit` reportable questions (scrubbed again), and how many of all were left out, by reason. */
function listable(rows: UnansweredQuestion[], limit: number) {
  const shown: UnansweredQuestion[] = [];
  const hidden = new Map<Reason, number>();
  for (const row of rows) {
    const text = scrubQuestion(row.text);
    const verdict = reportable(text);
    if (!verdict.ok) hidden.set(verdict.reason, (hidden.get(verdict.reason) ?? 0) + 1);
    else if (shown.length < limit) shown.push({ ...row, text });
  }
  return { shown, hidden };
}

/** "Not listed: 3 counted questions (2 carry a link or a host name, 1 is not language)." */
function notListed(hidden: Map<Reason, number>): string {
  const total = [...hidden.values()].reduce((a, b) => a + b, 0);
  if (!total) return '';
  const parts = [...hidden].map(([reason, n]) => `${n} ${REASONS[reason][n === 1 ? 0 : 1]}`);
  return `\nNot listed: ${total} counted question${total === 1 ? '' : 's'} (${parts.join(', ')}).\n`;
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = parseConfig(process.env);
  if (config.store.kind === 'sqlite' && !existsSync(config.store.file)) {
    if (opts.json) process.stdout.write('[]\n');
    else process.stdout.write(`No unanswered questions counted yet (no database at ${config.store.file}).\n`);
    return;
  }
  let where = config.store.kind === 'upstash' ? 'Upstash Redis' : config.store.file;
  let rows: UnansweredQuestion[];
  try {
    const store = createStore(config.store);
    where = store.describe();
    rows = await store.topQuestions(UNANSWERED_LIMIT);
  } catch (e) {
    throw new Refusal(`cannot read the unanswered questions from ${where}: ${oneLine(e)}`, 1);
  }
  const { shown, hidden } = listable(rows, opts.limit);
  if (opts.json) {
    const out = shown.map((r) => ({ count: r.count, lastAsked: new Date(r.lastAsked).toISOString(), text: r.text }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  if (!rows.length) {
    process.stdout.write(`No unanswered questions counted yet (${where}).\n`);
    return;
  }
  if (!shown.length) {
    process.stdout.write(`No unanswered questions to list (${where}).\n${notListed(hidden)}`);
    return;
  }
  process.stdout.write(
    `The ${shown.length} most asked questions the assistant could not answer (${where}; each counted once per ` +
      `visitor a day; at most ${UNANSWERED_LIMIT.toLocaleString('en-AU')} kept, the stale and flood-shaped ` +
      `make room first):\n\n${table(shown)}` +
      notListed(hidden),
  );
}

try {
  await main();
} catch (e) {
  process.stderr.write(`ask:report: ${e instanceof Refusal ? e.message : oneLine(e)}\n`);
  process.exitCode = e instanceof Refusal ? e.exitCode : 1;
}
