// POST /api/lead (submitLead)
import { waitUntil } from '@vercel/functions';
import { deps } from '../src/adapters/deps.ts';
import { crossSiteRefusal, formAnswer, isFormPost, readForm } from '../src/adapters/form-post.ts';
import { guarded } from '../src/adapters/handler.ts';
import { headerText } from '../src/adapters/header-text.ts';
import { json, readHeaders, readJson } from '../src/adapters/http.ts';
import { LIMITS } from '../src/contract/limits.ts';
import { clientOf } from '../src/core/client.ts';
import { formIdempotencyKey, submitLead } from '../src/core/leads.ts';

/**
 * A refused body (400, 413) spends one unit of the client's read budget, and past that budget the answer
 * is the read budget's 429: invalid bodies cost what a read costs (parse, validate, write nothing), as the
 * sandbox does. The lead budget is left alone, so a flood of invalid bodies from an address never takes
 * a real person's valid lead from it (a valid lead spends only the lead budget), and a typo costs a person
 * a read, not one of their five leads an hour.
 */
async function metered(request: Request, response: Response, asPage?: Record<string, string>): Promise<Response> {
  if (response.status !== 400 && response.status !== 413) return response;
  const m = await deps().meter(request);
  if (!m.response) return response;
  if (!asPage) return m.response;
  const body = { error: 'Rate limit exceeded', status: 429 };
  return formAnswer(request, { status: 429, body, headers: m.headers }, asPage);
}

export const POST = (request: Request): Promise<Response> =>
  guarded(async () => {
    const source = request.headers.get('referer')?.slice(0, 500) || undefined;
    const refused = crossSiteRefusal(request, deps().content().data.origin);
    if (refused) return refused;
    // The site's form with JavaScript off posts the form itself: the same submission, answered as a page.
    if (isFormPost(request)) {
      const form = await readForm(request, LIMITS.leadBodyBytes);
      if (form.kind === 'answer') return metered(request, form.response, {});
      if (form.kind === 'form') {
        // A double submit of the same form makes one lead: the key comes from what the form carries.
        const idempotencyKey = await formIdempotencyKey(form.lead);
        const answer = await submitLead({ body: form.lead, client: clientOf(request), idempotencyKey, source }, deps());
        if (answer.after) waitUntil(answer.after);
        return metered(request, formAnswer(request, answer, form.lead), form.lead);
      }
      request = form.request; // JSON under a form Content-Type (curl -d): the JSON path, as before
    }
    const headers = readHeaders('none');
    const body = await readJson(request, LIMITS.leadBodyBytes, headers);
    if (!body.ok) return metered(request, body.response);
    const answer = await submitLead(
      {
        body: body.value,
        client: clientOf(request),
        idempotencyKey: headerText(request.headers.get('idempotency-key')),
        source,
      },
      deps(),
    );
    if (answer.after) waitUntil(answer.after); // the sales notification may finish after the answer
    return metered(request, json(answer.body, answer.status, { ...headers, ...answer.headers }));
  });
