// POST /api/v1/lead/validate (validateLead): the sandbox; metered as a read, writes nothing.
import { deps } from '../../../src/adapters/deps.ts';
import { crossSiteRefusal } from '../../../src/adapters/form-post.ts';
import { readEndpoint } from '../../../src/adapters/handler.ts';
import { headerText } from '../../../src/adapters/header-text.ts';
import { json, readJson } from '../../../src/adapters/http.ts';
import { LIMITS } from '../../../src/contract/limits.ts';
import { sandboxLead } from '../../../src/core/leads.ts';

export const POST = readEndpoint('none', async (request, { headers }) => {
  // A text/plain form from another site is JSON to readJson: refused as for submission (it spends a read).
  const refused = crossSiteRefusal(request, deps().content().data.origin, headers);
  if (refused) return refused;
  const body = await readJson(request, LIMITS.leadBodyBytes, headers);
  if (!body.ok) return body.response;
  const answer = sandboxLead(body.value, headerText(request.headers.get('idempotency-key')));
  return json(answer.body, answer.status, headers);
});
