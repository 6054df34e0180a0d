/**
 * @module leadsFlush: GET /api/cron/leads-flush, Vercel cron replaying the lead outbox to the CRM. Vercel
 * sends `Authorization: Bearer $CRON_SECRET`; anything else gets the same 404 as an unknown path (the
 * public service never answers 401/403, SPEC.md "Authentication"). The same flush as `npm run leads:flush`
 * (src/core/leads.ts): a failure for now is retried after a backoff, a lead the CRM refuses for good (or still
 * failing past the bound) goes to the dead letters and the sales notifier says so (an alert that fails is tried
 * again at every later run, after a backoff, until it lands).
 */
import { DELIVERY_BOUND_MS, flushAll } from '../core/leads.ts';
import { defineOperation } from '../http/operation.ts';
import { meteredNotFound } from '../http/answers.ts';

/**
 * The function runs at most 60 s (`maxDuration`). The flush takes entries only while the time left of this
 * budget covers one more delivery at the sink's bound, and cuts each delivery off at that bound, so it ends
 * within the budget (plus one store round trip) whatever the CRM does; unsent claims go back at once. The
 * notifications of its dead letters get at most one more bound after that (30 + 5 + 5 s < 60 s).
 */
export const FLUSH_BUDGET_MS = 30_000;

const sha256 = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/**
 * Whether `sent` equals `secret`, in time that does not depend on where they differ: the SHA-256 digests
 * (equal lengths whatever was sent) are compared byte by byte without stopping early. Web Crypto, so the
 * check runs wherever the operation does.
 */
export async function sameSecret(sent: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(sent), sha256(secret)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export const leadsFlush = defineOperation({
  id: 'leadsFlush',
  method: 'GET',
  path: '/api/cron/leads-flush',
  summary: 'Internal: replays the lead outbox to the CRM (Vercel cron; 404 without the cron secret).',
  description:
    'Replays the lead outbox to the CRM; leads it refuses for good go to the dead letters, sales notified. ' +
    'Called by Vercel cron every ten minutes.',
  tag: 'Internal',
  serve: { function: 'cron/leads-flush', maxDuration: 60 },
  responses: {
    200: {
      description:
        'What was delivered, is retrying, went to the dead letters and is left; how many dead letters sales were ' +
        'told of, and how many alerts failed (tried again at a later run).',
    },
  },
  meter: 'none',
  cache: 'none',
  cors: false,
  data: [],
  public: false,
  cron: '*/10 * * * *',
  async handler({ request, deps }) {
    const secret = deps.config.cronSecret;
    if (!secret || !(await sameSecret(request.headers.get('authorization') ?? '', `Bearer ${secret}`))) {
      // The same answer, and the same cost (a read unit), as any unknown API path.
      return { response: await meteredNotFound(request, new URL(request.url).pathname, deps) };
    }
    const sink = deps.config.sink;
    const bound = Math.min(('timeoutMs' in sink ? sink.timeoutMs : undefined) ?? DELIVERY_BOUND_MS, FLUSH_BUDGET_MS);
    return { status: 200, body: await flushAll(deps, FLUSH_BUDGET_MS, bound) };
  },
});
