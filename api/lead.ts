// POST /api/lead (submitLead)
import { waitUntil } from '@vercel/functions';
import { deps } from '../src/adapters/deps.ts';
import { crossSiteRefusal, formAnswer, isFormPost, readForm } from '../src/adapters/form-post.ts';
import { guarded } from '../src/adapters/handler.ts';
import { json, readHeaders, readJson } from '../src/adapters/http.ts';
import { LIMITS } from '../src/contract/limits.ts';
import { clientOf } from '../src/core/client.ts';
import { submitLead } from '../src/core/leads.ts';

export const POST = (request: Request): Promise<Response> =>
  guarded(async () => {
    const source = request.headers.get('referer')?.slice(0, 500) || undefined;
    const refused = crossSiteRefusal(request, deps().content().data.origin);
    if (refused) return refused;
    // The site's form with JavaScript off posts the form itself: the same submission, answered as a page.
    if (isFormPost(request)) {
      const form = await readForm(request, LIMITS.leadBodyBytes);
      if (form.kind === 'answer') return form.response;
      if (form.kind === 'form') {
        const answer = await submitLead({ body: form.lead, client: clientOf(request), idempotencyKey: null, source }, deps());
        if (answer.after) waitUntil(answer.after);
        return formAnswer(request, answer, form.lead);
      }
      request = form.request; // JSON under a form Content-Type (curl -d): the JSON path, as before
    }
    const headers = readHeaders('none');
    const body = await readJson(request, LIMITS.leadBodyBytes, headers);
    if (!body.ok) return body.response;
    const answer = await submitLead(
      { body: body.value, client: clientOf(request), idempotencyKey: request.headers.get('idempotency-key'), source },
      deps(),
    );
    if (answer.after) waitUntil(answer.after); // the sales notification may finish after the answer
    return json(answer.body, answer.status, { ...headers, ...answer.headers });
  });
