// POST /api/v1/pages/batch (getPagesBatch)
import { readEndpoint } from '../../../src/adapters/handler.ts';
import { json, readJson } from '../../../src/adapters/http.ts';
import { parseWith } from '../../../src/adapters/query.ts';
import { BatchRequestSchema } from '../../../src/contract/schemas.ts';
import { LIMITS } from '../../../src/contract/limits.ts';
import { getPagesBatch } from '../../../src/core/pages.ts';

export const POST = readEndpoint('none', async (request, { d, headers }) => {
  const body = await readJson(request, LIMITS.readBodyBytes, headers);
  if (!body.ok) return body.response;
  const req = parseWith(BatchRequestSchema, body.value, headers);
  if (!req.ok) return req.response;
  return json(getPagesBatch(d.content(), req.value.slugs), 200, headers);
});
