// GET /api/v1/search (searchSite)
import { deps } from '../../src/adapters/deps.ts';
import { json, readHeaders } from '../../src/adapters/http.ts';
import { parseWith, queryOf } from '../../src/adapters/query.ts';
import { SearchQuerySchema } from '../../src/contract/schemas.ts';
import { searchSite } from '../../src/core/search.ts';

export async function GET(request: Request): Promise<Response> {
  const d = deps();
  const metered = d.meterRead ? await d.meterRead(request) : { headers: {} };
  if (metered.response) return metered.response;
  const headers = { ...readHeaders('metered'), ...metered.headers };
  const q = parseWith(SearchQuerySchema, queryOf(request), headers);
  if (!q.ok) return q.response;
  return json(searchSite({ content: d.content(), index: d.searchIndex() }, q.value.q, q.value.limit), 200, headers);
}
