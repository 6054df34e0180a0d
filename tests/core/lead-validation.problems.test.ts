/**
 * What each lead problem tells the client, and the exact edges of the lead's limits: the decision table
 * (lead-validation.test.ts) pins which field gets which outcome; these pin the wording a client acts on (what
 * was wrong, what applies instead) and the values at, just over and around each bound. Written against the
 * mutants `npm run mutate` found surviving (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.ts';
import { validateLead } from '../../src/core/lead-validation.ts';

const base = { name: 'Sam Lee', email: 'sam@harbourline.com.au' };
const check = (extra: Record<string, unknown>) => validateLead({ ...base, ...extra });
const only = (extra: Record<string, unknown>) => {
  const { problems } = check(extra);
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe('a missing, blank or mistyped name or email says which', () => {
  it('a missing or null name is "required", not a wrong type', () => {
    for (const name of [undefined, null]) {
      const p = validateLead({ email: base.email, name }).problems;
      expect(p).toEqual([{ field: 'name', outcome: 'reject', error: expect.stringMatching(/^name is required/) }]);
    }
  });

  it('a missing or null email is "required", not a wrong type', () => {
    for (const email of [undefined, null]) {
      const p = validateLead({ name: base.name, email }).problems;
      expect(p).toEqual([{ field: 'email', outcome: 'reject', error: expect.stringMatching(/^email is required/) }]);
    }
  });

  it('a blank email is "blank", not an invalid address', () => {
    const p = only({ email: '   ' });
    expect(p).toMatchObject({ field: 'email', outcome: 'reject' });
    expect(p.error).toMatch(/^email is blank/);
  });

  it('a wrong type is named in plain words: an array, an object, a number, a boolean', () => {
    const cases: [unknown, string][] = [
      [['Sam'], 'an array'],
      [{ first: 'Sam' }, 'an object'],
      [7, 'a number'],
      [true, 'a boolean'],
    ];
    for (const [value, words] of cases) {
      expect(only({ name: value }).error).toBe(`name must be a string, not ${words}`);
      expect(only({ email: value }).error).toBe(`email must be a string, not ${words}`);
      expect(only({ company: value }).error).toBe(`company must be a string, not ${words}; it was ignored`);
    }
  });

  it("an email's domain is lower-cased and its mailbox kept as sent", () => {
    expect(check({ email: 'Sam.Lee@HarbourLine.COM.au' }).lead?.email).toBe('Sam.Lee@harbourline.com.au');
  });
});

describe('every bounded field: at its maximum kept whole, one over cut and reported', () => {
  const bounded = ['name', 'company', 'phone', 'country', 'message'] as const;
  for (const field of bounded) {
    const max = LIMITS.lead_fields[field];
    it(`${field}: ${max} characters are kept with no problem; ${max + 1} are cut to ${max}`, () => {
      const atMax = check({ [field]: 'x'.repeat(max) });
      expect(atMax.problems).toEqual([]);
      expect(atMax.lead?.[field]).toHaveLength(max);

      const over = check({ [field]: 'y'.repeat(max + 1) });
      expect(over.problems).toEqual([
        { field, outcome: 'truncate', error: `${field} is ${max + 1} characters; at most ${max} are kept` },
      ]);
      expect(over.lead?.[field]).toBe('y'.repeat(max));
    });
  }

  it('a value cut at a space keeps no trailing space', () => {
    const max = LIMITS.lead_fields.name;
    const lead = check({ name: `${'a'.repeat(max - 1)} bcd` }).lead;
    expect(lead?.name).toBe('a'.repeat(max - 1));
  });

  it('an email of exactly the maximum length is accepted; one over is refused, never cut', () => {
    const max = LIMITS.lead_fields.email;
    const domain = '@harbourline.com.au';
    const atMax = check({ email: `${'m'.repeat(max - domain.length)}${domain}` });
    expect(atMax.problems).toEqual([]);
    expect(atMax.lead?.email).toHaveLength(max);
    const over = check({ email: `${'m'.repeat(max + 1 - domain.length)}${domain}` });
    expect(over.wouldSubmit).toBe(false);
    expect(over.problems[0]?.error).toMatch(new RegExp(`^email is ${max + 1} characters`));
  });
});

describe('dialcode: default +61, a valid one kept, anything else dropped with the reason', () => {
  it('an empty dialcode is the same as none: +61 and no problem', () => {
    const c = check({ dialcode: '' });
    expect(c.problems).toEqual([]);
    expect(c.lead?.dialcode).toBe('+61');
  });

  it('a valid dialcode with spaces around it is kept trimmed', () => {
    const c = check({ dialcode: ' +64 ' });
    expect(c.problems).toEqual([]);
    expect(c.lead?.dialcode).toBe('+64');
  });

  it('a number is dropped and named as a number; a malformed string is dropped without a type', () => {
    const asNumber = only({ dialcode: 64 });
    expect(asNumber).toMatchObject({ field: 'dialcode', outcome: 'drop' });
    expect(asNumber.error).toBe(
      'dialcode must be "+" and 1 to 4 digits, such as "+61" or "+64", not a number; it was ignored and "+61" applies',
    );
    expect(check({ dialcode: 64 }).lead?.dialcode).toBe('+61');
    expect(only({ dialcode: '0064' }).error).toBe(
      'dialcode must be "+" and 1 to 4 digits, such as "+61" or "+64"; it was ignored and "+61" applies',
    );
  });
});

describe('the choice fields: listed values only, the list given when dropped', () => {
  it('an empty choice is the same as none: no problem, intent is enquiry', () => {
    const c = check({ intent: '', segment: '' });
    expect(c.problems).toEqual([]);
    expect(c.lead).toMatchObject({ intent: 'enquiry' });
    expect(c.lead).not.toHaveProperty('segment');
  });

  it('a listed value with spaces around it is kept trimmed', () => {
    const c = check({ intent: ' demo ', warehouses: ' 2-5 ' });
    expect(c.problems).toEqual([]);
    expect(c.lead).toMatchObject({ intent: 'demo', warehouses: '2-5' });
  });

  it('an unlisted intent names every allowed value and says enquiry applies', () => {
    expect(only({ intent: 'buy' }).error).toBe(
      'intent must be one of "demo", "enquiry"; it was ignored and "enquiry" applies',
    );
  });

  it('an unlisted segment names the values and nothing about a default (it has none)', () => {
    expect(only({ segment: 'Removals' }).error).toBe(
      'segment must be one of "Local & interstate", "International", "Military & government", "Mixed"; it was ignored',
    );
  });

  it('a choice of the wrong type says which type it was', () => {
    expect(only({ moves: 500 }).error).toBe(
      'moves must be one of "Under 500", "500-2,000", "2,000-10,000", "10,000+", not a number; it was ignored',
    );
  });
});

describe('unknown fields: named (cut to 100 characters), with the fields that exist', () => {
  it('names an unknown field and lists every lead field', () => {
    expect(only({ website: 'x' })).toEqual({
      field: 'website',
      outcome: 'drop',
      error:
        'website is not a lead field; it was ignored. Lead fields: ' +
        'name, email, dialcode, company, phone, country, message, intent, segment, warehouses, moves',
    });
  });

  it('a very long unknown field name is cut to 100 characters in the field and the message', () => {
    const long = 'k'.repeat(150);
    const p = only({ [long]: 1 });
    expect(p.field).toBe('k'.repeat(100));
    expect(p.error.startsWith(`${'k'.repeat(100)} is not a lead field`)).toBe(true);
  });

  it('exactly ten unknown fields are all listed one by one; eleven add a summary that drops them too', () => {
    const unknown = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));
    const ten = check(unknown(10)).problems;
    expect(ten.map((p) => p.field)).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}`));
    const eleven = check(unknown(11)).problems;
    expect(eleven).toHaveLength(11);
    expect(eleven.at(-1)).toEqual({
      field: '(other fields)',
      outcome: 'drop',
      error: '1 more fields are not lead fields; they were ignored',
    });
    expect(check(unknown(11)).wouldSubmit).toBe(true);
  });
});

describe('invisible characters: removed, each kind named', () => {
  it('names the characters found (three at most), says they are removed, and keeps what shows', () => {
    const p = only({ name: 'Sam\u202e \u200bLee\u200b' });
    expect(p).toEqual({
      field: 'name',
      outcome: 'truncate',
      error:
        'name contains invisible characters that change how text shows (U+202E, U+200B: text-direction ' +
        'controls or zero-width characters); they are removed',
    });
    expect(check({ company: '\u2066\u2067\u2068\u2069Acme' }).problems[0]!.error).toContain(
      '(U+2066, U+2067, U+2068: ',
    );
    expect(check({ name: 'Sam\u202e \u200bLee' }).lead?.name).toBe('Sam Lee');
    // The Arabic letter mark, named in four hex digits as the others are.
    expect(check({ name: 'رضا\u061c Ali' }).problems[0]!.error).toContain('(U+061C: ');
  });

  it('a value of invisible characters only is absent, as a blank one is', () => {
    const c = check({ country: '\ufeff', message: '\u200b \u200d' });
    expect(c.problems.map((p) => [p.field, p.outcome])).toEqual([
      ['country', 'truncate'],
      ['message', 'truncate'],
    ]);
    expect(c.lead).toEqual({ ...base, dialcode: '+61', intent: 'enquiry' });
  });

  it('what the removal leaves is checked: an email valid without them passes, the length counts after', () => {
    expect(check({ email: '\u200bsam@harbourline.com.au\u200b' }).lead?.email).toBe('sam@harbourline.com.au');
    const max = LIMITS.lead_fields.name;
    expect(only({ name: `${'n'.repeat(max)}\u200b` }).outcome).toBe('truncate');
    expect(check({ name: `${'n'.repeat(max)}\u200b` }).lead?.name).toHaveLength(max);
  });

  it('other format and letter-like characters stay: an emoji, a combining mark, a non-breaking space', () => {
    for (const name of ['Zoë Ng 🚚', 'Zoe\u0308 Ng', 'Zoë\u00a0Ng', 'رضا', 'Ari\ufe0f'])
      expect(check({ name }).problems, name).toEqual([]);
  });
});
