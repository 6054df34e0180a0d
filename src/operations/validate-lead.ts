/**
 * @module validateLead: POST /api/v1/lead/validate, the sandbox; metered as a read, writes nothing.
 * `sandboxAnswer` is the one place that turns the domain's `SandboxOutcome` into the answer.
 */
import { z } from 'zod';
import { LIMITS } from '../contract/limits.ts';
import { type LeadValidation, LeadSchema, LeadValidationSchema } from '../contract/schemas.ts';
import { headerText } from '../http/header-text.ts';
import { BAD_EMAIL } from '../core/lead-examples.ts';
import { sandboxLead } from '../core/leads.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { errorDoc, READ_429, tooLargeDoc } from './docs.ts';

/** What the sandbox tells a caller, by what submission would do. */
const NOTES = {
  clean:
    'Nothing was written. To submit for real, POST the same JSON to /api/lead, only on behalf of the person it ' +
    'describes, with an Idempotency-Key header so a retry cannot create a second lead.',
  changed:
    'Nothing was written. Submission would accept this payload, but with the changes listed: values cut to their ' +
    'maximum length or ignored. Fix them to send exactly what you mean.',
  refused:
    'Nothing was written. Submission would refuse this payload with 400 until the problems about name, email or ' +
    'Idempotency-Key are fixed.',
};

/** The sandbox's answer: 200 for a payload taken unchanged, 422 with its problems, 400 for no JSON object. */
export function sandboxAnswer(
  body: unknown,
  idempotencyKey: string | null,
): { status: 200 | 422; body: LeadValidation } | { status: 400; body: { error: string; status: 400 } } {
  const outcome = sandboxLead(body, idempotencyKey);
  if (outcome.kind === 'not-an-object') return { status: 400, body: { error: outcome.message, status: 400 } };
  const problems = outcome.problems.map(({ field, error }) => ({ field, error }));
  if (outcome.keyProblem)
    problems.push({ field: 'Idempotency-Key', error: `${outcome.keyProblem} (submission would answer 400)` });
  const note = !problems.length ? NOTES.clean : outcome.wouldSubmit ? NOTES.changed : NOTES.refused;
  return {
    status: problems.length ? 422 : 200,
    body: { sandbox: true, wouldSubmit: outcome.wouldSubmit, problems, note },
  };
}

/** The sandbox's 422 answer to BAD_EMAIL, the document's example. */
const badEmailCheck = sandboxAnswer(BAD_EMAIL, null).body;
/** The 400 text for a body that is not a JSON object. */
const notAnObjectError = (sandboxAnswer([], null).body as { error: string }).error;

export const validateLead = defineOperation({
  id: 'validateLead',
  method: 'POST',
  path: '/api/v1/lead/validate',
  summary: 'Sandbox validation of a lead.',
  description:
    'Runs the same validation as submitLead, including payloads that would be rejected or silently ' +
    'truncated. Writes nothing, sends nothing and spends no lead budget.',
  tag: 'Leads',
  serve: { function: 'v1/lead/validate' },
  // Any JSON: what is wrong with it is the answer (422 with every problem), not a 400.
  body: { schema: z.unknown(), doc: LeadSchema, maxBytes: LIMITS.leadBodyBytes },
  responses: {
    200: {
      description: 'The payload is good.',
      schema: LeadValidationSchema,
      example: {
        sandbox: true,
        wouldSubmit: true,
        problems: [],
        note: 'POST the same JSON to /api/lead to submit it, only on behalf of the person it describes.',
      },
      headers: RATE_HEADERS,
    },
    400: errorDoc('The body is not a JSON object.', notAnObjectError, 400, RATE_HEADERS),
    413: tooLargeDoc(LIMITS.leadBodyBytes),
    422: {
      description: 'The payload would be rejected or changed; nothing was created.',
      schema: LeadValidationSchema,
      example: badEmailCheck,
      headers: RATE_HEADERS,
    },
    429: READ_429,
  },
  meter: 'read',
  cache: 'none',
  cors: true,
  data: [],
  public: true,
  handler: ({ request, body }) => {
    return sandboxAnswer(body, headerText(request.headers.get('idempotency-key')));
  },
});
