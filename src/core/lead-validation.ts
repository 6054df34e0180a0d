/**
 * @module The one lead validation, used by the sandbox and by submission (DESIGN.md section 2). Every
 * problem is reported with its outcome: *reject* (submission answers 400), *truncate* (stored cut to its
 * maximum) or *drop* (ignored; the default applies). Values are trimmed; the email's domain is lower-cased.
 * Text-direction controls and zero-width characters are removed from every text field (a *truncate*: the
 * value is accepted and stored changed), so what sales reads is what the visitor saw.
 */
import { z } from 'zod';
import { LIMITS } from '../contract/limits.ts';
import { DIALCODE_PATTERN, INTENTS, MOVES, SEGMENTS, WAREHOUSES, type Lead } from '../contract/schemas.ts';
import { CONTROL_PATTERN, EMAIL_PATTERN, invisibleIn, withoutInvisible } from '../contract/lead-values.ts';

export type Outcome = 'reject' | 'truncate' | 'drop';
export interface LeadProblem {
  field: string;
  error: string;
  outcome: Outcome;
}

export interface LeadCheck {
  /** False when some problem is a reject. */
  wouldSubmit: boolean;
  problems: LeadProblem[];
  /** The lead submission would record (present when `wouldSubmit`). */
  lead?: Lead;
}

const MAX = LIMITS.lead_fields;
const TEXT_FIELDS = ['company', 'phone', 'country', 'message'] as const;
const ENUMS = { intent: INTENTS, segment: SEGMENTS, warehouses: WAREHOUSES, moves: MOVES } as const;
const KNOWN = new Set(['name', 'email', 'dialcode', ...TEXT_FIELDS, ...Object.keys(ENUMS)]);
/** At most this many unknown fields are listed one by one; the rest are summed up in one problem. */
const UNKNOWN_LISTED = 10;
// C0 and C1 controls, DEL, and the Unicode line/paragraph separators: none belongs in a one-line value.
const CONTROL = CONTROL_PATTERN;
const email = z.string().regex(EMAIL_PATTERN);

/** Length in characters (code points), as JSON Schema's maxLength counts. */
const length = (s: string) => [...s].length;
const cut = (s: string, max: number) => [...s].slice(0, max).join('').trimEnd();
const typeOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
const list = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** Lower-cases the domain part (the local part is the mailbox owner's to interpret, RFC 5321 2.4). */
function normaliseEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? address : `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

/** The check in progress: the problems found so far and the lead being built. */
interface Check {
  problems: LeadProblem[];
  lead: Record<string, string>;
}

const problem = (c: Check, field: string, outcome: Outcome, error: string) =>
  c.problems.push({ field, error, outcome });

/**
 * `value` without bidirectional controls and zero-width characters, reported. Removed, not refused: the
 * visitor cannot see them to take them out (a pasted name, a right-to-left keyboard's marks), and what
 * is left is what they saw; so the outcome is the truncate one, accepted and stored changed.
 */
function visible(c: Check, field: string, value: string): string {
  const found = invisibleIn(value);
  if (!found.length) return value;
  const codes = found.slice(0, 3).map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  problem(
    c,
    field,
    'truncate',
    `${field} contains invisible characters that change how text shows (${codes.join(', ')}: ` +
      'text-direction controls or zero-width characters); they are removed',
  );
  return withoutInvisible(value);
}

/** name: required, one line; longer than its maximum is cut, not refused. */
function checkName(c: Check, input: Record<string, unknown>): void {
  const name = typeof input.name === 'string' ? visible(c, 'name', input.name) : input.name;
  if (name === undefined || name === null)
    problem(
      c,
      'name',
      'reject',
      `name is required: the full name of the person enquiring (up to ${MAX.name} characters)`,
    );
  else if (typeof name !== 'string') problem(c, 'name', 'reject', `name must be a string, not ${typeOf(name)}`);
  else if (!name.trim()) problem(c, 'name', 'reject', 'name is blank: give the full name of the person enquiring');
  else if (CONTROL.test(name))
    problem(c, 'name', 'reject', 'name contains control characters (such as a line break); send it on one line');
  else {
    const v = name.trim();
    if (length(v) > MAX.name)
      problem(c, 'name', 'truncate', `name is ${length(v)} characters; at most ${MAX.name} are kept`);
    c.lead.name = length(v) > MAX.name ? cut(v, MAX.name) : v;
  }
}

/** email: required and valid; an over-long address is invalid (a cut address is no address). */
function checkEmail(c: Check, input: Record<string, unknown>): void {
  const mail = typeof input.email === 'string' ? visible(c, 'email', input.email) : input.email;
  if (mail === undefined || mail === null)
    problem(c, 'email', 'reject', 'email is required: a work email address we can reply to');
  else if (typeof mail !== 'string') problem(c, 'email', 'reject', `email must be a string, not ${typeOf(mail)}`);
  else {
    const v = mail.trim();
    if (!v) problem(c, 'email', 'reject', 'email is blank: give a work email address we can reply to');
    else if (length(v) > MAX.email)
      problem(
        c,
        'email',
        'reject',
        `email is ${length(v)} characters; an address may have at most ${MAX.email} (it cannot be shortened)`,
      );
    else if (CONTROL.test(v) || !email.safeParse(v).success)
      problem(c, 'email', 'reject', `email "${cut(v, 80)}" is not a valid address: use the form name@company.com.au`);
    else c.lead.email = normaliseEmail(v);
  }
}

/** Optional free text: wrong types are dropped, over-long values cut. Only message may span lines. */
function checkTexts(c: Check, input: Record<string, unknown>): void {
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      problem(c, field, 'drop', `${field} must be a string, not ${typeOf(value)}; it was ignored`);
      continue;
    }
    const v = visible(c, field, value).trim();
    if (!v) continue;
    if (field !== 'message' && CONTROL.test(v)) {
      problem(
        c,
        field,
        'drop',
        `${field} contains control characters (such as a line break); it was ignored. Send it on one line`,
      );
      continue;
    }
    if (length(v) > MAX[field])
      problem(c, field, 'truncate', `${field} is ${length(v)} characters; at most ${MAX[field]} are kept`);
    c.lead[field] = length(v) > MAX[field] ? cut(v, MAX[field]) : v;
  }
}

/** dialcode: a pattern with a default. */
function checkDialcode(c: Check, input: Record<string, unknown>): void {
  const dial = input.dialcode;
  c.lead.dialcode = '+61';
  if (dial === undefined || dial === null || dial === '') return;
  const v = typeof dial === 'string' ? dial.trim() : undefined;
  if (v !== undefined && DIALCODE_PATTERN.test(v)) c.lead.dialcode = v;
  else
    problem(
      c,
      'dialcode',
      'drop',
      `dialcode must be "+" and 1 to 4 digits, such as "+61" or "+64"${v === undefined ? `, not ${typeOf(dial)}` : ''}; it was ignored and "+61" applies`,
    );
}

/** Enumerations: a value outside the list is dropped (intent then defaults to enquiry). */
function checkEnums(c: Check, input: Record<string, unknown>): void {
  c.lead.intent = 'enquiry';
  for (const [field, allowed] of Object.entries(ENUMS) as [keyof typeof ENUMS, readonly string[]][]) {
    const value = input[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' && allowed.includes(value.trim())) c.lead[field] = value.trim();
    else {
      const fallback = field === 'intent' ? ' and "enquiry" applies' : '';
      problem(
        c,
        field,
        'drop',
        `${field} must be one of ${list(allowed)}${typeof value === 'string' ? '' : `, not ${typeOf(value)}`}; it was ignored${fallback}`,
      );
    }
  }
}

/** Fields the lead does not have: dropped, the first few listed one by one and the rest summed up. */
function checkUnknown(c: Check, input: Record<string, unknown>): void {
  const unknown = Object.keys(input).filter((k) => !KNOWN.has(k));
  for (const field of unknown.slice(0, UNKNOWN_LISTED)) {
    problem(
      c,
      field.slice(0, 100),
      'drop',
      `${field.slice(0, 100)} is not a lead field; it was ignored. Lead fields: ${[...KNOWN].join(', ')}`,
    );
  }
  if (unknown.length > UNKNOWN_LISTED)
    problem(
      c,
      '(other fields)',
      'drop',
      `${unknown.length - UNKNOWN_LISTED} more fields are not lead fields; they were ignored`,
    );
}

/** Checks a lead payload (a parsed JSON object) and builds the lead submission would record. */
export function validateLead(input: Record<string, unknown>): LeadCheck {
  const c: Check = { problems: [], lead: {} };
  // The order is the problems' order and the stored lead's key order.
  for (const step of [checkName, checkEmail, checkTexts, checkDialcode, checkEnums, checkUnknown]) step(c, input);
  const wouldSubmit = !c.problems.some((p) => p.outcome === 'reject');
  return { wouldSubmit, problems: c.problems, lead: wouldSubmit ? (c.lead as unknown as Lead) : undefined };
}

/** The reject problems as one sentence, for a 400 Error. */
export function rejectMessage(problems: LeadProblem[]): string {
  return problems
    .filter((p) => p.outcome === 'reject')
    .map((p) => p.error)
    .join('; ');
}
