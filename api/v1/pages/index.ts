// GET /api/v1/pages (listPages)
import { deps } from '../../../src/adapters/deps.ts';
import { json, readHeaders } from '../../../src/adapters/http.ts';
import { parseWith, queryOf } from '../../../src/adapters/query.ts';
import { ListPagesQuerySchema } from '../../../src/contract/schemas.ts';
import { listPages } from '../../../src/core/pages.ts';

export async function GET(request: Request): Promise<Response> {
  const d = deps();
  const metered = d.meterRead ? await d.meterRead(request) : { headers: {} };
  if (metered.response) return metered.response;
  const headers = { ...readHeaders('metered'), ...metered.headers };
  const q = parseWith(ListPagesQuerySchema, queryOf(request), headers);
  if (!q.ok) return q.response;
  return json(listPages(d.content(), q.value), 200, headers);
}
