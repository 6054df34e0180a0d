import { describe, expect, it } from 'vitest';
import { validateLead, rejectMessage } from '../../src/core/lead-validation.ts';
import { sandboxLead } from '../../src/core/leads.ts';
import { LeadSchema } from '../../src/contract/schemas.ts';
import { LEAD_CASES } from '../helpers/lead-cases.ts';

describe('lead validation: the decision table', () => {
  for (const c of LEAD_CASES.filter((c) => !c.idempotencyKey)) {
    it(c.name, () => {
      const check = validateLead(c.payload as Record<string, unknown>);
      expect(check.problems.map((p) => [p.field, p.outcome])).toEqual(c.problems);
      expect(check.wouldSubmit).toBe(c.stored !== undefined);
      expect(check.lead).toEqual(c.stored);
      if (check.lead) expect(LeadSchema.parse(check.lead)).toEqual(check.lead); // what is stored is a contract Lead
      for (const p of check.problems) expect(p.error).toMatch(new RegExp(p.field.replace(/[-]/g, '\\-')));
    });
  }

  it('the sandbox reports an over-long Idempotency-Key as a reason submission would refuse', () => {
    expect(sandboxLead({ name: 'A', email: 'a@b.co' }, 'k'.repeat(201))).toEqual({
      kind: 'checked',
      wouldSubmit: false,
      problems: [],
      keyProblem: 'Idempotency-Key is 201 characters; at most 200 are allowed',
    });
  });

  it('lists at most ten unknown fields one by one', () => {
    const payload = Object.fromEntries([
      ['name', 'A'],
      ['email', 'a@b.co'],
      ...Array.from({ length: 500 }, (_, i) => [`f${i}`, i]),
    ]);
    const check = validateLead(payload);
    expect(check.problems).toHaveLength(11);
    expect(check.problems.at(-1)).toMatchObject({
      field: '(other fields)',
      error: expect.stringContaining('490 more'),
    });
  });
});

describe('one email rule for the API and the form script', () => {
  it("EMAIL_PATTERN is still zod's own email rule, and the validation applies it", async () => {
    const { z } = await import('zod');
    const { EMAIL_PATTERN } = await import('../../src/contract/lead-values.ts');
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(validateLead({ name: 'Sam', email: 'sam@harbourline' }).wouldSubmit).toBe(false);
    expect(validateLead({ name: 'Sam', email: 'sam@harbourline.com.au' }).wouldSubmit).toBe(true);
  });
});

describe('reject message', () => {
  it('joins the reject problems in order and leaves out the dropped fields', () => {
    expect(
      rejectMessage([
        { field: 'email', error: 'email is not an address', outcome: 'reject' },
        { field: 'x', error: 'x is not a lead field', outcome: 'drop' },
        { field: 'name', error: 'name is required', outcome: 'reject' },
      ]),
    ).toBe('email is not an address; name is required');
  });
});
