// The lead endpoint lets no other origin's script read its answers: over real HTTP on the local
// server, every kind of /api/lead answer (JSON, the no-JavaScript form's HTML page, and a form post that does not
// ask for HTML; success and each refusal) carries no `Access-Control-Allow-Origin: *`. At most the site's own
// origin may be named. The sandbox (/api/v1/lead/validate), which writes nothing, stays open to every origin.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.ts';
import { send, type HttpAnswer } from '../helpers/http.ts';
import { useLeadServer } from '../helpers/lead-server.ts';

const lead = useLeadServer(Date.parse('2026-11-25T02:00:20Z'));

/** A fresh source address for each case: every case has its own budgets. */
let clientN = 0;
const nextClient = () => `127.25.${1 + Math.floor(++clientN / 250)}.${(clientN % 250) + 2}`;

type Call = { method?: string; body?: string; headers?: Record<string, string> };
const call = (c: Call, from: string, path = '/api/lead') => send(`${lead.server.url}${path}`, { ...c, from });

/** The three ways a lead arrives: JSON, the form asking for its HTML page, the form not asking for HTML. */
const KINDS = {
  json: { type: 'application/json', accept: 'application/json' },
  'form (HTML page)': { type: 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' },
  'form (JSON answer)': { type: 'application/x-www-form-urlencoded', accept: '*/*' },
} as const;
type Kind = keyof typeof KINDS;

function post(kind: Kind, fields: Record<string, string>, extra: Record<string, string> = {}): Call {
  const { type, accept } = KINDS[kind];
  const body = kind === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  return { method: 'POST', body, headers: { 'Content-Type': type, Accept: accept, ...extra } };
}

const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example', intent: 'demo' };

/**
 * Sends `c(i)` from one client until the answer is `status` (at most `times` tries): a budget spent to its end.
 * Each try differs (a form's key comes from its fields, so the same form twice is a replay, not a second lead).
 */
async function until(c: (i: number) => Call, status: number, times: number): Promise<HttpAnswer> {
  const from = nextClient();
  let last: HttpAnswer | undefined;
  for (let i = 0; i < times && last?.status !== status; i++) last = await call(c(i), from);
  return last!;
}

/** How to make /api/lead answer each status for one kind of post, by name. */
function cases(kind: Kind): Record<string, [status: number, answer: () => Promise<HttpAnswer>]> {
  const once = (c: Call) => () => call(c, nextClient());
  return {
    accepted: [200, once(post(kind, LEAD))],
    'replayed (same key or same form)': [
      200,
      async () => {
        const from = nextClient();
        const c = post(kind, LEAD, { 'Idempotency-Key': `replay-${kind}` });
        expect((await call(c, from)).status).toBe(200);
        return call(c, from);
      },
    ],
    'rejected (no name)': [400, once(post(kind, { email: 'sam@harbourline.example' }))],
    'cross-site': [400, once(post(kind, LEAD, { Origin: 'https://elsewhere.example' }))],
    'too large': [413, once(post(kind, { ...LEAD, message: 'x'.repeat(LIMITS.leadBodyBytes) }))],
    'over the lead budget': [
      429,
      () => until((i) => post(kind, { ...LEAD, message: `try ${i}` }), 429, LIMITS.lead.limit + 1),
    ],
    'over the read budget (refused bodies)': [
      429,
      () => until((i) => post(kind, { email: `sam${i}@harbourline.example` }), 429, LIMITS.read.limit + 1),
    ],
    unrecorded: [502, once(post(kind, { ...LEAD, name: 'Unrecorded Sam' }))],
  };
}

/** The Access-Control-Allow-Origin of `ans`, checked: none, or only the site's own origin. */
function expectNoOtherOrigin(ans: HttpAnswer, what: string) {
  const allowed = ans.headers['access-control-allow-origin'];
  expect(allowed, what).not.toBe('*');
  if (allowed !== undefined) expect(allowed, what).toBe(lead.deps.config.origin);
}

describe('/api/lead answers name no other origin', () => {
  for (const kind of Object.keys(KINDS) as Kind[]) {
    it(`${kind}: success and every refusal`, { timeout: 30_000 }, async () => {
      for (const [name, [status, answer]] of Object.entries(cases(kind))) {
        const ans = await answer();
        expect(ans.status, `${kind}, ${name}`).toBe(status);
        expect(ans.headers['content-type'], `${kind}, ${name}`).toMatch(
          kind === 'form (HTML page)' && name !== 'cross-site' ? /^text\/html/ : /^application\/json/,
        );
        expectNoOtherOrigin(ans, `${kind}, ${name}`);
      }
    });
  }

  it('JSON: the key-busy 409 and the key-reused 422', async () => {
    const from = nextClient();
    const slow = post('json', { ...LEAD, name: 'Slow Sam' }, { 'Idempotency-Key': 'held-key' });
    const first = call(slow, from);
    await new Promise((r) => setTimeout(r, 200)); // the first has claimed the key
    lead.ticking = true;
    const busy = await call(slow, from).finally(() => {
      lead.ticking = false;
    });
    lead.release();
    expect((await first).status).toBe(200);
    expect(busy.status).toBe(409);
    expectNoOtherOrigin(busy, '409');

    const key = { 'Idempotency-Key': 'reused-key' };
    expect((await call(post('json', LEAD, key), from)).status).toBe(200);
    const reused = await call(post('json', { ...LEAD, company: 'Other' }, key), from);
    expect(reused.status).toBe(422);
    expectNoOtherOrigin(reused, '422');
  });

  it('the preflight and a 405: no origin named either', async () => {
    const preflight = await call(
      {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
      },
      nextClient(),
    );
    expect(preflight.status).toBe(204);
    expectNoOtherOrigin(preflight, 'OPTIONS');
    for (const method of ['GET', 'PUT']) {
      const refused = await call({ method }, nextClient());
      expect(refused.status, method).toBe(405);
      expectNoOtherOrigin(refused, method);
    }
  });

  it('the sandbox, which writes nothing, stays open to every origin', async () => {
    const ans = await call(post('json', LEAD), nextClient(), '/api/v1/lead/validate');
    expect(ans.status).toBe(200);
    expect(ans.headers['access-control-allow-origin']).toBe('*');
  });
});
