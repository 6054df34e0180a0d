/**
 * @module What the assistant could not answer reaches the content team (DESIGN.md section 5): the question is
 * scrubbed of personal data and counted in the store, off the answer's path. Nothing but the scrubbed text is
 * kept: no address, no conversation, nothing else about the visitor.
 *
 * - `scrubQuestion` removes what a pattern can find of personal data (src/core/unanswered/scrub.ts: links with a
 *   query string, emails, dates, phone numbers, long numbers; names and street addresses only after a cue),
 *   each replaced by a placeholder, collapses whitespace, lower-cases and caps the text at 200 characters.
 * - `reportable` keeps out of the report a question with a link, one that is not language, and one with a
 *   cue that it names a person or gives an address (no pattern removes those reliably).
 * - `questionKey` is the normalised text the count is kept under (punctuation and accents dropped), so "How
 *   much is it?" and "how much is it" are one counter; the store keeps the first scrubbed form as the text.
 * - `createUnansweredRecorder` gives the operation a `(question, client) => void` that returns at once: the
 *   store write starts on a later turn of the event loop, is handed to `defer` (Vercel's `waitUntil`), is cut off
 *   after `timeoutMs` and never rejects; failures go to the log port (the first of a run of failures, then
 *   one line with how many were dropped when counting works again). A question counts once per client and day:
 *   the store gets the day's anonymous name of the client (`askerId`, a hash of the day and the address, which
 *   expires with the day), never the address.
 */
import { errorText } from '../error-text.ts';
import type { Log, Store } from '../ports.ts';
import { hasLink, hasPersonalCue, isLanguage, normalise, PLACEHOLDER, scrubPersonalData } from './scrub.ts';

/**
 * The most distinct questions a store keeps. Past it a new question takes the place of a stale one
 * (`QUESTION_STALE_MS`), else of a flood-shaped one; a table full of questions visitors asked lately is kept.
 */
export const UNANSWERED_LIMIT = 5_000;
/**
 * Distinct unanswered questions one client counts in a day. One that asks more is a flood: none of its questions
 * of that day count (those it counted are withdrawn), so one address cannot fill the report or empty it.
 */
export const ASKER_DAILY_QUESTIONS = 20;
/**
 * A client's first questions of a day count as a visitor's. A question first asked as a later one is
 * flood-shaped (`suspect`), the first to make room for another, until a client asks it among its first.
 */
export const ASKER_TRUSTED_QUESTIONS = 2;
/** A question not asked for this long is stale: the first to make room for a new one. */
export const QUESTION_STALE_MS = 30 * 86_400_000;
/** A day, the span an asker is counted over (UTC days). */
export const DAY_MS = 86_400_000;
/** The longest scrubbed question kept, in characters (code points). */
export const QUESTION_MAX_CHARS = 200;
/** How long the store write may take before it is given up (it is never awaited by the answer). */
export const UNANSWERED_TIMEOUT_MS = 300;
/** Input past this many characters (after normalising) is not read: the cap above keeps less. */
const SCRUB_INPUT_CHARS = 2_000;
/** Words dropped before a cut: any number, date, address or email written over several words cut in two. */
const CUT_WORDS = 12;

/** The first `SCRUB_INPUT_CHARS` of the text at a word, less the last `CUT_WORDS` words (no part of one cut). */
function cut(text: string): string {
  let end = Math.max(text.lastIndexOf(' ', SCRUB_INPUT_CHARS), 0);
  for (let i = 0; i < CUT_WORDS; i++) end = Math.max(text.lastIndexOf(' ', end - 1), 0);
  return text.slice(0, end);
}

/**
 * The question with personal data removed (src/core/unanswered/scrub.ts): normalised as a question is (invisible
 * characters removed, NFKC, one space per run), links with a query string, emails, full dates, phone numbers
 * (digits, letter o for zero, spelled out), long numbers, street addresses and a name after "my name is" or
 * "I'm" replaced by `[link]`, `[email]`, `[date]`, `[phone]`, `[number]`, `[address]`, `[name]`; lower case;
 * at most `QUESTION_MAX_CHARS` characters. Names and addresses are found only where a cue shows them, so
 * `reportable` keeps questions with such a cue out of the report. Never throws on a string.
 */
export function scrubQuestion(question: string): string {
  // The raw text is bounded before normalising (NFKC may lengthen it); the cut below is at a word.
  let text = normalise(String(question).slice(0, SCRUB_INPUT_CHARS * 4));
  if (text.length > SCRUB_INPUT_CHARS) text = cut(text);
  text = scrubPersonalData(text).toLowerCase();
  return Array.from(text).slice(0, QUESTION_MAX_CHARS).join('').trimEnd();
}

/**
 * The normalised text a scrubbed question is counted under: accents and punctuation dropped (apostrophes
 * without a trace), placeholders kept, single spaces. Empty when nothing is left to count.
 */
export function questionKey(scrubbed: string): string {
  return scrubbed
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/['’‘`]/gu, '')
    .replace(/[^\p{L}\p{N}[\]]+/gu, ' ')
    .trim();
}

/** Why a counted question is left out of the report's list, if it is. */
export type Reportable = { ok: true } | { ok: false; reason: 'link' | 'not language' | 'personal' };

/**
 * Whether a counted (scrubbed) question may be listed for the content team: not when it carries a link or a
 * host name (spam's payload), when it is not language (symbols, digits, one word repeated, no vowels), or
 * when a cue shows it may name a person or give a street address (which no pattern removes reliably).
 */
export function reportable(text: string): Reportable {
  if (hasLink(text)) return { ok: false, reason: 'link' };
  if (hasPersonalCue(text)) return { ok: false, reason: 'personal' };
  if (!isLanguage(text)) return { ok: false, reason: 'not language' };
  return { ok: true };
}

/** Whether a key holds words beyond placeholders (a message that is only a phone number is not a question). */
function isQuestion(key: string): boolean {
  return /\p{L}/u.test(key.replace(PLACEHOLDER, ''));
}

/**
 * The anonymous name of `client` on the UTC day of `at`: the first 128 bits of SHA-256 over the day and the
 * address, in hex. It changes every day, and the store keeps it only until that day ends.
 */
export async function askerId(client: string, at: number): Promise<string> {
  const day = Math.floor(at / DAY_MS);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`unanswered\n${day}\n${client}`));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface UnansweredRecorderDeps {
  store: Pick<Store, 'countQuestion'>;
  log: Log;
  now(): number;
  /** Keeps the write alive after the answer is sent (Vercel's `waitUntil`). */
  defer(work: Promise<unknown>): void;
  /** @default UNANSWERED_TIMEOUT_MS */
  timeoutMs?: number;
}

/**
 * The function the assistant calls when the site has no answer: scrubs the question and counts it, once per
 * `client` and day (without a client, every asking counts), without ever throwing or waiting. The returned promise
 * handed to `defer` always resolves (within `timeoutMs` of the call, give or take a turn of the event loop).
 */
export function createUnansweredRecorder(deps: UnansweredRecorderDeps): (question: string, client?: string) => void {
  const timeoutMs = deps.timeoutMs ?? UNANSWERED_TIMEOUT_MS;
  const log: Log = (event, fields) => {
    try {
      deps.log(event, fields);
    } catch {
      // A log port that throws must not reach the answer either.
    }
  };
  /** Failures since counting last worked; only the first of a run is logged. */
  let dropped = 0;
  const failed = (reason: string, e?: unknown) => {
    dropped++;
    if (dropped > 1) return;
    const error = e === undefined ? undefined : errorText(e).slice(0, 300);
    log('unanswered_not_counted', {
      level: 'warn',
      reason,
      ...(error ? { error } : {}),
      note: 'further failures are counted until a question is counted again',
    });
  };
  const succeeded = () => {
    if (!dropped) return;
    log('unanswered_counting_resumed', { level: 'info', dropped });
    dropped = 0;
  };

  const count = (key: string, text: string, at: number, client: string | undefined): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A later turn: a store that works synchronously (SQLite) does not do it inside the caller's turn.
    const write = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        (client === undefined ? Promise.resolve(undefined) : askerId(client, at))
          .then((asker) => deps.store.countQuestion(key, text, at, asker))
          .then(resolve, reject);
      }, 0),
    );
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    return Promise.race([write.then(() => 'counted' as const), timeout])
      .then(
        (outcome) => (outcome === 'counted' ? succeeded() : failed(`no answer from the store in ${timeoutMs} ms`)),
        (e) => failed('store error', e),
      )
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  };

  return (question, client) => {
    try {
      const text = scrubQuestion(question);
      const key = questionKey(text);
      if (!isQuestion(key)) return;
      const work = count(key, text, deps.now(), client);
      try {
        deps.defer(work);
      } catch (e) {
        // No request context to extend: the write still runs while the process lives.
        log('unanswered_defer_failed', { level: 'warn', error: errorText(e).slice(0, 300) });
      }
    } catch (e) {
      failed('error', e);
    }
  };
}
