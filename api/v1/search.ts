// GET /api/v1/search (searchSite)
import { readEndpoint } from '../../src/adapters/handler.ts';
import { json } from '../../src/adapters/http.ts';
import { parseWith, queryOf } from '../../src/adapters/query.ts';
import { SearchQuerySchema } from '../../src/contract/schemas.ts';
import { searchSite } from '../../src/core/search.ts';

export const GET = readEndpoint('metered', (request, { d, headers }) => {
  const q = parseWith(SearchQuerySchema, queryOf(request), headers);
  if (!q.ok) return q.response;
  return json(searchSite({ content: d.content(), index: d.searchIndex() }, q.value.q, q.value.limit), 200, headers);
});
