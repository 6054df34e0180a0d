// GET /api/v1/pages (listPages)
import { readEndpoint } from '../../../src/adapters/handler.ts';
import { json } from '../../../src/adapters/http.ts';
import { parseWith, queryOf } from '../../../src/adapters/query.ts';
import { ListPagesQuerySchema } from '../../../src/contract/schemas.ts';
import { listPages } from '../../../src/core/pages.ts';

export const GET = readEndpoint('metered', (request, { d, headers }) => {
  const q = parseWith(ListPagesQuerySchema, queryOf(request), headers);
  if (!q.ok) return q.response;
  return json(listPages(d.content(), q.value), 200, headers);
});
