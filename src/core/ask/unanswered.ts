/**
 * @module What the assistant could not answer reaches the content team (DESIGN.md section 5): the question is
 * scrubbed of personal data and counted in the store, off the answer's path. Nothing but the scrubbed text is
 * kept: no address, no conversation, nothing else about the visitor.
 *
 * - `scrubQuestion` removes links with a query string, email addresses, phone numbers (Australian and
 *   international forms) and long digit runs, each replaced by a placeholder (`[link]`, `[email]`, `[phone]`,
 *   `[number]`), collapses whitespace, lower-cases and caps the text at 200 characters.
 * - `questionKey` is the normalised text the count is kept under (punctuation and accents dropped), so "How
 *   much is it?" and "how much is it" are one counter; the store keeps the first scrubbed form as the text.
 * - `createUnansweredRecorder` gives the operation a `(question) => void` that returns at once: the store
 *   write starts on a later turn of the event loop, is handed to `defer` (Vercel's `waitUntil`), is cut off
 *   after `timeoutMs` and never rejects; failures go to the log port (the first of a run of failures, then
 *   one line with how many were dropped when counting works again).
 */
import { errorText } from '../error-text.ts';
import type { Log, Store } from '../ports.ts';

/** The most distinct questions a store keeps; past it the least asked go. */
export const UNANSWERED_LIMIT = 5_000;
/** The longest scrubbed question kept, in characters (code points). */
export const QUESTION_MAX_CHARS = 200;
/** How long the store write may take before it is given up (it is never awaited by the answer). */
export const UNANSWERED_TIMEOUT_MS = 300;
/** Input past this many characters (after whitespace is collapsed) is not read: the cap above keeps less. */
const SCRUB_INPUT_CHARS = 2_000;

/** Every kind of white space, control character and invisible separator: one space each run. */
const SPACE = /[\s\p{Cc}\p{Z}\u180e\u200b-\u200d\u2060\ufeff]+/gu;

/**
 * A link with a query string: a scheme (`https://…`) or a host name (`www.x.com`, `x.com.au/path`) followed
 * by `?` and something. A link without a query stays (it names a page, not a person). A host name is not
 * read out of the middle of an email address.
 */
const LINK_WITH_QUERY =
  /(?:\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s?]*|(?<![\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~.@-])(?:[\p{L}\p{N}-]{1,63}\.){1,10}[a-z]{2,24}(?::\d{1,5})?(?:\/[^\s?]*)?)\?\S+/giu;

/** `@`, or `(at)` / `[at]`, optionally spaced. */
const AT = String.raw`(?:@|\s?[([]at[)\]]\s?)`;
/** `.`, or `(dot)` / `[dot]`, optionally spaced. */
const DOT = String.raw`(?:\.|\s?[([]dot[)\]]\s?)`;
/** An email address, plain or written out (`jo (at) example (dot) com`); quantifiers bounded (linear time). */
const EMAIL = new RegExp(
  String.raw`[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~.-]{1,64}${AT}[\p{L}\p{N}-]{1,63}(?:${DOT}[\p{L}\p{N}-]{1,63}){1,8}`,
  'giu',
);

/**
 * A phone number: eight or more digits with at most three separators (space, `-`, `.`, brackets) between
 * any two, optionally after `+` or `(`: 0412 345 678, +61 412 345 678, +61 (0)412 345 678, (03) 9123 4567,
 * 1300 527 824, +1 (555) 123-4567, +44 20 7946 0958.
 */
const PHONE = /(?<![\p{L}\p{N}])(?:\+ ?|\(\+?)?\p{Nd}(?:[ ().-]{0,3}\p{Nd}){7,}(?!\p{N})/gu;
/** Eight digits that are a date (2026-11-23, 23.11.2026) or two years (2025-2026): not a phone number. */
const NOT_A_PHONE = /^(?:\d{4}-\d{2}-\d{2}|\d{1,2}[.-]\d{1,2}[.-]\d{4}|(?:19|20)\d{2}[ -]{1,3}(?:19|20)\d{2})$/;
/** Six or more digits in a row (an account, order or card number). */
const LONG_DIGITS = /\p{Nd}{6,}/gu;

/**
 * The question with personal data removed: links with a query string, emails, phone numbers and long digit
 * runs replaced by `[link]`, `[email]`, `[phone]`, `[number]`; whitespace collapsed; lower case; at most
 * `QUESTION_MAX_CHARS` characters. Never throws on a string.
 */
export function scrubQuestion(question: string): string {
  let text = String(question).normalize('NFKC').replace(SPACE, ' ').trim();
  if (text.length > SCRUB_INPUT_CHARS) {
    // Cut at a word, and drop the digits before the cut too: no piece of a number cut in two survives.
    text = text
      .slice(0, SCRUB_INPUT_CHARS)
      .replace(/\S*$/u, '')
      .replace(/[\s\p{Nd}().+-]*$/u, '');
  }
  text = text
    .replace(LINK_WITH_QUERY, '[link]')
    .replace(EMAIL, '[email]')
    .replace(PHONE, (m) => (NOT_A_PHONE.test(m) ? m : '[phone]'))
    .replace(LONG_DIGITS, '[number]')
    .replace(/ {2,}/g, ' ')
    .trim()
    .toLowerCase();
  const chars = Array.from(text);
  return chars.length > QUESTION_MAX_CHARS ? chars.slice(0, QUESTION_MAX_CHARS).join('').trimEnd() : text;
}

/**
 * The normalised text a scrubbed question is counted under: accents and punctuation dropped (apostrophes
 * without a trace), placeholders kept, single spaces. Empty when nothing is left to count.
 */
export function questionKey(scrubbed: string): string {
  return scrubbed
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’‘`]/gu, '')
    .replace(/[^\p{L}\p{N}[\]]+/gu, ' ')
    .trim();
}

/** Whether a key holds words beyond placeholders (a message that is only a phone number is not a question). */
const isQuestion = (key: string) => /\p{L}/u.test(key.replace(/\[(?:link|email|phone|number)\]/g, ''));

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
 * The function the assistant calls when the site has no answer: scrubs the question and counts it, without
 * ever throwing or waiting. The returned promise handed to `defer` always resolves (within `timeoutMs` of
 * the call, give or take a turn of the event loop).
 */
export function createUnansweredRecorder(deps: UnansweredRecorderDeps): (question: string) => void {
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

  const count = (key: string, text: string, at: number): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A later turn: a store that works synchronously (SQLite) does not do it inside the caller's turn.
    const write = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        try {
          Promise.resolve(deps.store.countQuestion(key, text, at)).then(resolve, reject);
        } catch (e) {
          reject(e);
        }
      }, 0),
    );
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    return Promise.race([write.then(() => 'counted' as const), timeout])
      .then(
        (outcome) => (outcome === 'counted' ? succeeded() : failed(`no answer from the store in ${timeoutMs} ms`)),
        (e) => failed('store error', e),
      )
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  };

  return (question) => {
    try {
      const text = scrubQuestion(question);
      const key = questionKey(text);
      if (!isQuestion(key)) return;
      const work = count(key, text, deps.now());
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
