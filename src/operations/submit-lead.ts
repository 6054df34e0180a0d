/**
 * @module submitLead: POST /api/lead records a lead in the CRM and notifies sales (src/core/leads.ts).
 * The site's form with JavaScript off posts the same fields as a form and gets the same status with a
 * small HTML page when it asks for HTML (src/adapters/form-post.ts).
 */
import { z } from 'zod';
import { LIMITS, policyOf } from '../contract/limits.ts';
import { LeadAcceptedSchema, LeadSchema } from '../contract/schemas.ts';
import { formAnswer } from '../adapters/form-post.ts';
import { headerText } from '../adapters/header-text.ts';
import { badEmailError } from '../core/lead-examples.ts';
import { formIdempotencyKey, submitLead as submit } from '../core/leads.ts';
import { LEAD_POLICY } from '../core/rate-limit.ts';
import { defineOperation, RATE_HEADERS, type ResponseSpec } from '../http/operation.ts';
import { errorDoc, tooLargeDoc, tooManyDoc } from './docs.ts';

/** Also answered as a small HTML page (the form with JavaScript off). */
const orPage = (r: ResponseSpec): ResponseSpec => ({ ...r, also: ['text/html'] });

/**
 * The page a lead was sent from, for the sales team (the CRM's page field, the sales message): the `Referer`
 * only when it is an http(s) URL on the site (its configured origin, or the host that answered) and at most
 * 500 characters; anything else (`javascript:`, another site, garbage) is left out (issue 25, point 7).
 */
export function siteReferer(request: Request, siteOrigin: string): string | undefined {
  const referer = request.headers.get('referer');
  if (!referer || referer.length > 500) return undefined;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === siteOrigin || url.origin === new URL(request.url).origin ? url.href : undefined;
}

export const submitLead = defineOperation({
  id: 'submitLead',
  method: 'POST',
  path: '/api/lead',
  summary: 'Create a lead.',
  description:
    'Records a lead in the sales CRM and notifies the sales team. Use it only on behalf of a person who asked ' +
    "for it. The site's own form, with JavaScript off, posts the same fields as " +
    '`application/x-www-form-urlencoded` and gets the same status with a small HTML page instead of JSON.',
  tag: 'Leads',
  serve: { function: 'lead', maxDuration: 60 },
  // Any JSON: the domain checks the lead and says what is wrong (400 naming the field).
  body: { schema: z.unknown(), doc: LeadSchema, maxBytes: LIMITS.leadBodyBytes, form: true },
  headerParams: [
    {
      name: 'Idempotency-Key',
      description:
        `Unique key for the submission. A retry with the same key within ${LIMITS.idempotencyWindowSeconds / 3600} ` +
        'hours replays the first response, creates no second lead and spends no budget.',
      schema: { type: 'string', maxLength: LIMITS.idempotencyKeyMax },
    },
  ],
  responses: {
    200: orPage({
      description: 'The lead was accepted.',
      schema: LeadAcceptedSchema,
      example: { ok: true },
      headers: [...RATE_HEADERS, 'Idempotency-Replayed'],
    }),
    400: orPage(
      errorDoc(
        'name is missing or email is invalid, the body is not JSON, or Idempotency-Key is too long.',
        badEmailError,
        400,
      ),
    ),
    409: errorDoc(
      'A request with the same Idempotency-Key is still being processed.',
      'A request with this Idempotency-Key is still being processed. Retry in a few seconds to get its answer.',
      409,
    ),
    413: orPage(tooLargeDoc(LIMITS.leadBodyBytes)),
    422: errorDoc(
      'The Idempotency-Key was already used with a different payload.',
      'This Idempotency-Key was already used with a different payload. Use a new key for a new submission, ' +
        'or resend the same payload to get the first answer.',
      422,
    ),
    429: orPage(tooManyDoc(LEAD_POLICY, `This client exceeded its budget (${policyOf(LIMITS.lead)}).`)),
    502: orPage(
      errorDoc(
        'The lead could not be recorded anywhere.',
        'We could not record your enquiry. Please use the chat on the website.',
        502,
      ),
    ),
  },
  meter: 'lead',
  cache: 'none',
  // No CORS: another website's script cannot post a lead from its visitors' browsers (issue 25).
  cors: false,
  sameOrigin: true,
  data: [],
  public: true,
  async handler({ request, deps, client, body, form }) {
    const source = siteReferer(request, deps.config.origin);
    // A double submit of the no-JavaScript form makes one lead: its key comes from what the form carries.
    const idempotencyKey = form ? await formIdempotencyKey(form) : headerText(request.headers.get('idempotency-key'));
    const answer = await submit({ body, client, idempotencyKey, source }, deps);
    if (answer.after) deps.defer(answer.after); // the sales notification may finish after the answer
    if (form) return { response: formAnswer(request, answer, form) };
    return { status: answer.status, body: answer.body, headers: answer.headers };
  },
});
