/** @module validateLead: POST /api/v1/lead/validate, the sandbox; metered as a read, writes nothing. */
import { z } from 'zod';
import { LIMITS } from '../contract/limits.ts';
import { LeadSchema, LeadValidationSchema } from '../contract/schemas.ts';
import { headerText } from '../http/header-text.ts';
import { badEmailCheck, notAnObjectError } from '../core/lead-examples.ts';
import { sandboxLead } from '../core/leads.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { errorDoc, READ_429, tooLargeDoc } from './docs.ts';

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
    return sandboxLead(body, headerText(request.headers.get('idempotency-key')));
  },
});
