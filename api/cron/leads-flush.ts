// GET /api/cron/leads-flush: Vercel cron replays the lead outbox to the CRM. Vercel sends
// `Authorization: Bearer $CRON_SECRET`; anything else gets the same 404 as an unknown path (the public
// service never answers 401/403, SPEC.md "Authentication").
import { deps } from '../../src/adapters/deps.ts';
import { guarded } from '../../src/adapters/handler.ts';
import { errorResponse, json } from '../../src/adapters/http.ts';
import { flushAll } from '../../src/core/leads.ts';

/** The function runs at most 60 s; batches stop being claimed after this, so the last one can finish. */
const FLUSH_BUDGET_MS = 30_000;

export const GET = (request: Request): Promise<Response> =>
  guarded(async () => {
    const secret = process.env.CRON_SECRET;
    if (!secret || request.headers.get('authorization') !== `Bearer ${secret}`) {
      return errorResponse(404, `No API endpoint at ${new URL(request.url).pathname}. See /openapi.json.`);
    }
    return json(await flushAll(deps(), FLUSH_BUDGET_MS), 200, { 'Cache-Control': 'no-store' });
  });
