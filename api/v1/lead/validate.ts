// POST /api/v1/lead/validate (validateLead): the sandbox; metered as a read, writes nothing.
import { readEndpoint } from '../../../src/adapters/handler.ts';
import { headerText } from '../../../src/adapters/header-text.ts';
import { json, readJson } from '../../../src/adapters/http.ts';
import { LIMITS } from '../../../src/contract/limits.ts';
import { sandboxLead } from '../../../src/core/leads.ts';

export const POST = readEndpoint('none', async (request, { headers }) => {
  const body = await readJson(request, LIMITS.leadBodyBytes, headers);
  if (!body.ok) return body.response;
  const answer = sandboxLead(body.value, headerText(request.headers.get('idempotency-key')));
  return json(answer.body, answer.status, headers);
});
