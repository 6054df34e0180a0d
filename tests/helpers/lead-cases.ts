/** The lead decision table (DESIGN.md section 2), case by case: payload -> problems -> what is stored. */
import type { Outcome } from '../../src/core/lead-validation.ts';

export interface LeadCase {
  name: string;
  payload: unknown;
  /** Problems by field and outcome, in order. */
  problems: [field: string, outcome: Outcome][];
  /** The lead submission records, when it accepts (undefined: it answers 400). */
  stored?: Record<string, string>;
  idempotencyKey?: string;
}

const base = { name: 'Sam Taylor', email: 'sam@harbourline.example' };
const dflt = { dialcode: '+61', intent: 'enquiry' };
const x = (n: number, c = 'a') => c.repeat(n);
const email200 = `${x(185)}@example.com.au`; // 200 characters

/** A lead with every field, each value already clean. */
const FULL = {
  ...base,
  company: 'Harbourline Removals',
  phone: '0412 345 678',
  dialcode: '+61',
  country: 'Australia',
  message: 'We run 38 trucks.\nCan we see quoting?',
  intent: 'demo',
  segment: 'Local & interstate',
  warehouses: '1',
  moves: '2,000-10,000',
};

export const LEAD_CASES: LeadCase[] = [
  {
    name: 'every field, clean',
    payload: FULL,
    problems: [],
    // A clean lead is stored as it was sent.
    stored: FULL,
  },
  { name: 'name and email only: defaults apply', payload: base, problems: [], stored: { ...base, ...dflt } },
  {
    name: 'whitespace is trimmed, the email domain lower-cased',
    payload: { name: '  Sam Taylor ', email: ' Sam.Taylor@Harbourline.EXAMPLE ', company: ' ' },
    problems: [],
    stored: { name: 'Sam Taylor', email: 'Sam.Taylor@harbourline.example', ...dflt },
  },
  {
    name: 'null optional fields count as absent',
    payload: { ...base, company: null, segment: null, dialcode: null },
    problems: [],
    stored: { ...base, ...dflt },
  },
  { name: 'name missing', payload: { email: base.email }, problems: [['name', 'reject']] },
  { name: 'name blank', payload: { ...base, name: '   ' }, problems: [['name', 'reject']] },
  { name: 'name not a string', payload: { ...base, name: 42 }, problems: [['name', 'reject']] },
  { name: 'name with a line break', payload: { ...base, name: 'Sam\nTaylor' }, problems: [['name', 'reject']] },
  {
    name: 'name of 121 characters is cut, not refused',
    payload: { ...base, name: x(121) },
    problems: [['name', 'truncate']],
    stored: { ...base, name: x(120), ...dflt },
  },
  {
    name: 'name of 121 emoji is cut by characters, not code units',
    payload: { ...base, name: x(121, '🚚') },
    problems: [['name', 'truncate']],
    stored: { ...base, name: x(120, '🚚'), ...dflt },
  },
  { name: 'email missing', payload: { name: base.name }, problems: [['email', 'reject']] },
  { name: 'email invalid', payload: { ...base, email: 'sam@' }, problems: [['email', 'reject']] },
  { name: 'email not a string', payload: { ...base, email: ['sam@x.com'] }, problems: [['email', 'reject']] },
  {
    name: 'email of 200 characters is fine',
    payload: { ...base, email: email200 },
    problems: [],
    stored: { ...base, email: email200, ...dflt },
  },
  {
    name: 'email of 201 characters is invalid, never cut',
    payload: { ...base, email: `b${email200}` },
    problems: [['email', 'reject']],
  },
  {
    name: 'name missing and email invalid: both reported',
    payload: { email: 'nope', company: x(201) },
    problems: [
      ['name', 'reject'],
      ['email', 'reject'],
      ['company', 'truncate'],
    ],
  },
  {
    name: 'over-long optional fields are cut',
    payload: { ...base, company: x(201), phone: x(41, '1'), country: x(61), message: x(4001) },
    problems: [
      ['company', 'truncate'],
      ['phone', 'truncate'],
      ['country', 'truncate'],
      ['message', 'truncate'],
    ],
    stored: { ...base, company: x(200), phone: x(40, '1'), country: x(60), message: x(4000), ...dflt },
  },
  {
    name: 'optional field of a wrong type is dropped',
    payload: { ...base, company: 42, phone: { n: 1 } },
    problems: [
      ['company', 'drop'],
      ['phone', 'drop'],
    ],
    stored: { ...base, ...dflt },
  },
  {
    name: 'control characters in a one-line field drop it',
    payload: { ...base, country: 'Australia\u0000' },
    problems: [['country', 'drop']],
    stored: { ...base, ...dflt },
  },
  {
    name: 'text-direction controls and zero-width characters are removed from every text field',
    payload: {
      name: '\u202eSam Taylor',
      email: 'sam\u200b@harbourline.example',
      company: 'Harbour\u200dline\u200c',
      phone: '0412\u2060345\ufeff678',
      country: '\u2066Australia\u2069\u061c',
      message: 'Hi\u200e there\u200f,\u202a\u202b\u202c\u202d \u2067\u2068we run 38 trucks.\u2061\u2064',
    },
    problems: [
      ['name', 'truncate'],
      ['email', 'truncate'],
      ['company', 'truncate'],
      ['phone', 'truncate'],
      ['country', 'truncate'],
      ['message', 'truncate'],
    ],
    stored: {
      ...base,
      company: 'Harbourline',
      phone: '0412345678',
      country: 'Australia',
      message: 'Hi there, we run 38 trucks.',
      ...dflt,
    },
  },
  {
    name: 'a name of invisible characters only is blank',
    payload: { ...base, name: ' \u200b\u202e ' },
    problems: [
      ['name', 'truncate'],
      ['name', 'reject'],
    ],
  },
  {
    name: 'dialcode without + is dropped, +61 applies',
    payload: { ...base, dialcode: '61' },
    problems: [['dialcode', 'drop']],
    stored: { ...base, ...dflt },
  },
  {
    name: 'dialcode of 5 digits is dropped',
    payload: { ...base, dialcode: '+12345' },
    problems: [['dialcode', 'drop']],
    stored: { ...base, ...dflt },
  },
  {
    name: 'dialcode +64 is kept',
    payload: { ...base, dialcode: '+64', phone: '21 123 4567' },
    problems: [],
    stored: { ...base, phone: '21 123 4567', dialcode: '+64', intent: 'enquiry' },
  },
  {
    name: 'intent outside the list is dropped, enquiry applies',
    payload: { ...base, intent: 'call me' },
    problems: [['intent', 'drop']],
    stored: { ...base, ...dflt },
  },
  {
    name: 'segment, warehouses and moves outside their lists are dropped',
    payload: { ...base, segment: 'Other', warehouses: 3, moves: 'lots' },
    problems: [
      ['segment', 'drop'],
      ['warehouses', 'drop'],
      ['moves', 'drop'],
    ],
    stored: { ...base, ...dflt },
  },
  {
    name: 'enumerations are exact (case matters)',
    payload: { ...base, intent: 'Demo', warehouses: '6+' },
    problems: [['intent', 'drop']],
    stored: { ...base, ...dflt, warehouses: '6+' },
  },
  {
    name: 'unknown fields are dropped',
    payload: { ...base, website: 'https://x.example', utm: 'ads' },
    problems: [
      ['website', 'drop'],
      ['utm', 'drop'],
    ],
    stored: { ...base, ...dflt },
  },
  {
    name: 'an Idempotency-Key over 200 characters is refused',
    payload: base,
    problems: [['Idempotency-Key', 'reject']],
    idempotencyKey: x(201, 'k'),
  },
];
