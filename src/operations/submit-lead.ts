/**
 * @module submitLead: POST /api/lead records a lead in the CRM and notifies sales (src/core/leads.ts).
 * The site's form with JavaScript off posts the same fields as a form and gets the same status with a
 * small HTML page when it asks for HTML (src/http/form-post.ts). `respondLead` is the one place that
 * turns what happened (the domain's outcome, or what the pipeline refused) into the answer.
 */
import { z } from 'zod';
import { COMPANY } from '../contract/company.ts';
import { LIMITS, policyOf } from '../contract/limits.ts';
import { LeadAcceptedSchema, LeadSchema } from '../contract/schemas.ts';
import { type FormPage, leadAnswerPage, wantsHtml } from '../http/form-post.ts';
import { headerText } from '../http/header-text.ts';
import { readHeaders, tooManyRequests } from '../http/responses.ts';
import { badEmailError } from '../core/lead-examples.ts';
import { formIdempotencyKey, type LeadOutcome, submitLead as submit } from '../core/leads.ts';
import { LEAD_POLICY } from '../core/rate-limit.ts';
import {
  type Answer,
  defineOperation,
  RATE_HEADERS,
  type Refusal,
  type RefusalContext,
  type ResponseSpec,
} from '../http/operation.ts';
import { errorDoc, tooLargeDoc, tooManyDoc } from './docs.ts';

/** The 409's text: a request with the same key is still running. */
const KEY_BUSY =
  'A request with this Idempotency-Key is still being processed. Retry in a few seconds to get its answer.';
/** The 422's text: the key was used with another payload. */
const KEY_REUSED =
  'This Idempotency-Key was already used with a different payload. Use a new key for a new submission, ' +
  'or resend the same payload to get the first answer.';
/** The 502's text: where else to go when no durable place took the lead. */
const UNRECORDED =
  'Your details could not be recorded just now. Please use the chat on our website, or email ' +
  `${COMPANY.salesEmail} or call ${COMPANY.phone}, and we will get back to you.`;

const error = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: { error: message, status },
  ...(headers ? { headers } : {}),
});

/** The JSON answer (ok or Error) to what happened, and what the form's page says about it. */
function answerOf(o: LeadOutcome | Refusal, maxBytes: number): { json: Answer; page: FormPage } {
  switch (o.kind) {
    case 'accepted':
      return { json: { status: 200, body: { ok: true }, rate: o.limit }, page: { kind: 'accepted' } };
    case 'replayed': {
      const replayed = { 'Idempotency-Replayed': 'true' };
      const first = o.first;
      const json: Answer =
        'limit' in first
          ? { status: 200, body: first.body, headers: replayed, rate: first.limit }
          : { status: 200, body: first.body, headers: { ...first.headers, ...replayed } };
      return { json, page: { kind: 'accepted' } };
    }
    case 'rejected':
      return { json: error(400, o.message), page: { kind: 'rejected', problems: o.problems, message: o.message } };
    case 'key-invalid':
      return { json: error(400, o.message), page: { kind: 'rejected', problems: [], message: o.message } };
    case 'key-reused':
      return { json: error(422, KEY_REUSED), page: { kind: 'other', status: 422, message: KEY_REUSED } };
    case 'key-busy': {
      const json = error(409, KEY_BUSY, { 'Retry-After': String(o.retryAfter) });
      return { json, page: { kind: 'other', status: 409, message: KEY_BUSY } };
    }
    case 'limited':
      return {
        json: { response: tooManyRequests(o.limit), rate: o.limit },
        page: { kind: 'limited', retryAfter: o.limit.retryAfter },
      };
    case 'unrecorded':
      return { json: error(502, UNRECORDED), page: { kind: 'unrecorded' } };
    case 'refused': {
      const page: FormPage =
        o.failure === 'too-large'
          ? { kind: 'too-large', maxBytes }
          : o.failure === 'unreadable'
            ? { kind: 'unreadable' }
            : { kind: 'rejected', problems: [], message: o.error };
      return { json: error(o.status, o.error), page };
    }
  }
}

/**
 * The headers a form post that does not ask for HTML has always had (a read answer's), but no
 * `Access-Control-Allow-Origin: *`: no other origin's script may read a lead answer.
 */
const FORM_JSON_HEADERS: Record<string, string> = Object.fromEntries(
  Object.entries(readHeaders('none')).filter(([name]) => name !== 'Access-Control-Allow-Origin'),
);

/**
 * The answer to a submission (the domain's outcome, or what the pipeline refused): JSON, or for a form post
 * (JavaScript off) the HTML page when the client asks for HTML (a browser). A form post that does not ask for
 * HTML gets the JSON with `FORM_JSON_HEADERS`. A refused input is answered as a form only when the form itself
 * could not be read (too large, broken off); a cross-site post or bad JSON under a form Content-Type gets the
 * Error body.
 */
export function respondLead(o: LeadOutcome | Refusal, ctx: RefusalContext): Answer {
  const { json, page } = answerOf(o, LIMITS.leadBodyBytes);
  const asForm = o.kind === 'refused' ? o.failure !== undefined && ctx.form !== undefined : ctx.form !== undefined;
  if (!asForm) return json;
  if (wantsHtml(ctx.request)) {
    const own = 'headers' in json ? json.headers : undefined;
    return { response: leadAnswerPage(page, ctx.form, own), ...(json.rate ? { rate: json.rate } : {}) };
  }
  if (o.kind === 'limited') return { response: tooManyRequests(o.limit, FORM_JSON_HEADERS) };
  return 'response' in json ? json : { ...json, headers: { ...FORM_JSON_HEADERS, ...json.headers } };
}

/** Also answered as a small HTML page (the form with JavaScript off). */
const orPage = (r: ResponseSpec): ResponseSpec => ({ ...r, also: ['text/html'] });

/**
 * The page a lead was sent from, for the sales team (the CRM's page field, the sales message): the `Referer`
 * only when it is an http(s) URL on the site (its configured origin, or the host that answered) and at most
 * 500 characters; anything else (`javascript:`, another site, garbage) is left out.
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
    409: errorDoc('A request with the same Idempotency-Key is still being processed.', KEY_BUSY, 409),
    413: orPage(tooLargeDoc(LIMITS.leadBodyBytes)),
    422: errorDoc('The Idempotency-Key was already used with a different payload.', KEY_REUSED, 422),
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
  refusalMeter: 'read',
  refused: respondLead,
  cache: 'none',
  // No CORS: another website's script cannot post a lead from its visitors' browsers.
  cors: false,
  sameOrigin: true,
  data: [],
  public: true,
  async handler({ request, deps, client, body, form }) {
    const source = siteReferer(request, deps.config.origin);
    // A double submit of the no-JavaScript form makes one lead: its key comes from what the form carries.
    const idempotencyKey = form ? await formIdempotencyKey(form) : headerText(request.headers.get('idempotency-key'));
    const outcome = await submit({ body, client, idempotencyKey, source }, deps);
    if (outcome.kind === 'accepted') deps.defer(outcome.after); // the sales notification may finish after the answer
    return respondLead(outcome, { request, form });
  },
});
