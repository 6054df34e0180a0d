/**
 * The sandbox's answers (src/operations/validate-lead.ts `sandboxAnswer`): which status each outcome of the
 * domain's check gets, the body it carries, and which note goes with which outcome.
 */
import { describe, expect, it } from 'vitest';
import { LeadValidationSchema } from '../../src/contract/schemas.ts';
import { sandboxAnswer } from '../../src/operations/validate-lead.ts';

const LEAD = { name: 'A', email: 'a@b.co' };
const noteOf = (a: ReturnType<typeof sandboxAnswer>) => (a.body as { note: string }).note;

describe('the sandbox answer', () => {
  it('is 400 with the Error body for a body that is not a JSON object', () => {
    for (const body of [null, 'text', 42, [LEAD]]) {
      const a = sandboxAnswer(body, null);
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(a.body).toEqual({ error: expect.stringMatching(/JSON object/), status: 400 });
    }
  });

  it('is 200 with no problem for a clean payload, and tells how to submit it for real', () => {
    const a = sandboxAnswer(LEAD, 'key-1');
    expect(a).toMatchObject({ status: 200, body: { sandbox: true, wouldSubmit: true, problems: [] } });
    expect(LeadValidationSchema.parse(a.body)).toEqual(a.body);
    expect(noteOf(a)).toMatch(/POST the same JSON to \/api\/lead.*Idempotency-Key header/);
  });

  it('is 422, would submit, when a field would only be ignored, and says the changes are listed', () => {
    const a = sandboxAnswer({ ...LEAD, colour: 'red' }, null);
    expect(a).toMatchObject({ status: 422, body: { sandbox: true, wouldSubmit: true } });
    expect((a.body as { problems: object[] }).problems).toEqual([{ field: 'colour', error: expect.any(String) }]);
    expect(noteOf(a)).toMatch(/would accept this payload, but with the changes listed/);
  });

  it('is 422, would refuse, for a bad Idempotency-Key, naming the key and the 400 submission would answer', () => {
    const a = sandboxAnswer(LEAD, ' ');
    expect(a).toMatchObject({ status: 422, body: { sandbox: true, wouldSubmit: false } });
    expect((a.body as { problems: object[] }).problems).toEqual([
      {
        field: 'Idempotency-Key',
        error: expect.stringMatching(/^Idempotency-Key is empty.*\(submission would answer 400\)$/),
      },
    ]);
    expect(noteOf(a)).toMatch(/would refuse this payload with 400/);
  });

  it('is 422, would refuse, for a payload without an email', () => {
    const a = sandboxAnswer({ name: 'A' }, null);
    expect(a).toMatchObject({ status: 422, body: { wouldSubmit: false, problems: [{ field: 'email' }] } });
    expect(noteOf(a)).toMatch(/would refuse/);
  });
});
