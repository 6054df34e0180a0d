/**
 * @module The one request pipeline every operation runs through, on Vercel (a function, or the
 * middleware for getPage) and in the local server alike:
 *
 * 1. method: OPTIONS is the CORS preflight, HEAD is GET, anything else the operation does not take is 405; both
 *    spend a read unit first (429 past it), whatever the operation's own metering;
 * 2. metering: a `read` operation spends one unit of the client's read budget before anything else (429
 *    past it), so invalid requests are metered too;
 * 3. inputs: the query and the JSON (or form) body are read within their limits and checked against the
 *    operation's schemas (400 or 413 with the contract's Error body, or the operation's `refused` answer);
 * 4. the handler, which returns an `Answer` (or, served by the middleware, a `Rewrite`); a refused input
 *    (400 or 413) of an operation with a `refusalMeter` then spends a unit of that budget;
 * 5. the headers, decided here for every answer: RateLimit-*, cache class (every 4xx and 5xx but the
 *    not-found is `no-store`), CORS with the exposed headers, `Vary`, deprecation (RFC 9745, RFC 8594) and
 *    the API's `Link`s.
 *
 * An unexpected throw is logged and answered 500 with the request id as its reference; unknown API paths
 * get `notFound`.
 */
import type { Deps } from '../adapters/composition-root.ts';
import { errorResponse, json, preflight, rateLimitHeaders, tooManyRequests } from './responses.ts';
import { type BodyFailure, bodyFailureStatus, bodyFailureText, readJson } from './request-body.ts';
import { describeIssue, queryOf } from './inputs.ts';
import { crossSiteRefusal, isFormPost, readForm } from './form-post.ts';
import { API_LINKS } from '../contract/links.ts';
import { CACHE_CONTROL, CORS_READ } from '../contract/routes.ts';
import { clientOf } from './client-address.ts';
import { deprecationHeaders } from './deprecation.ts';
import type { RateLimitState } from '../core/rate-limit.ts';
import type { Answer, FunctionOperation, Operation, Refusal, RefusalContext, Rewrite } from './operation.ts';
import { internalError, notAllowedText, requestIdOf } from './answers.ts';

/** A refusal is never cached, whatever the operation's cache class. */
const NO_STORE = 'no-store';

/** The methods an operation answers besides OPTIONS (HEAD with GET). */
const methodsOf = (op: Operation) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]);

/** The methods an operation answers, as `Allow` lists them. */
const allowOf = (op: Operation) => [...methodsOf(op), 'OPTIONS'].join(', ');

type Inputs =
  | { ok: true; query: unknown; body: unknown; form?: Record<string, string> }
  | { ok: false; refusal: Extract<Refusal, { kind: 'refused' }> };

const refused = (status: 400 | 413, error: string, failure?: BodyFailure): Inputs => ({
  ok: false,
  refusal: { kind: 'refused', status, error, ...(failure ? { failure } : {}) },
});

/** Reads and checks the query and the body of `op` (a refusal: 400 or 413 with the Error text). */
async function readInputs(op: Operation, request: Request, origin: string): Promise<Inputs> {
  let query: unknown;
  if (op.query) {
    const parsed = op.query.safeParse(queryOf(request));
    if (!parsed.success) return refused(400, describeIssue(parsed.error));
    query = parsed.data;
  }
  if (!op.body) return { ok: true, query, body: undefined };
  const { maxBytes } = op.body;
  // A body a browser may send to any origin without asking (a form, text/plain) from another site; for an
  // operation only the site's own pages may call from a browser, any body from another site.
  const crossSite = crossSiteRefusal(request, origin, op.sameOrigin === true);
  if (crossSite) return refused(400, crossSite);
  let source = request;
  if (op.body.form && isFormPost(request)) {
    const form = await readForm(request, maxBytes);
    if (form.kind === 'failed') {
      return refused(bodyFailureStatus(form.failure), bodyFailureText(form.failure, maxBytes), form.failure);
    }
    if (form.kind === 'form') return { ok: true, query, body: form.lead, form: form.lead };
    source = form.request; // JSON under a form Content-Type (`curl -d`): read as JSON
  }
  const read = await readJson(source, maxBytes);
  if (!read.ok) {
    const failure = read.failure === 'too-large' || read.failure === 'unreadable' ? read.failure : undefined;
    return refused(read.status, read.error, failure);
  }
  const parsed = op.body.schema.safeParse(read.value);
  if (!parsed.success) return refused(400, describeIssue(parsed.error));
  return { ok: true, query, body: parsed.data };
}

/** The answer to a refusal when the operation has no `refused` of its own: the Error body, or the 429. */
function defaultRefused(refusal: Refusal): Answer {
  if (refusal.kind === 'limited') return { response: tooManyRequests(refusal.limit) };
  return { status: refusal.status, body: { error: refusal.error, status: refusal.status } };
}

/** Sets `headers` on `response` where it has not set them itself. */
function setMissing(response: Response, headers: Record<string, string>): void {
  for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
}

/** The status an answer goes out with (a rewrite serves its file: 200). */
const statusOf = (answer: Answer | Rewrite) =>
  'response' in answer ? answer.response.status : 'status' in answer ? answer.status : 200;

/** Runs `op` for `request`: the whole pipeline (see the module comment). A function operation answers itself. */
/** The headers every answer of `op` carries, added to `answer`; `metered` is the read spent. */
function finish(op: Operation, answer: Answer | Rewrite, metered?: RateLimitState): Response | Rewrite {
  const common: Record<string, string> = {
    'Cache-Control': CACHE_CONTROL[op.cache],
    Vary: 'Accept',
    ...(op.cors ? CORS_READ : {}),
  };
  const deprecation = op.deprecated ? deprecationHeaders(op.deprecated) : undefined;
  const links = [...(deprecation ? [deprecation.Link] : []), ...API_LINKS];
  const spent = ('rate' in answer ? answer.rate : undefined) ?? metered;
  const rate = spent ? rateLimitHeaders(spent) : {};
  const own = 'response' in answer ? undefined : (answer.headers ?? {});
  const link = [...links, ...(own?.Link ? [own.Link] : [])].join(', ');
  const extra = { ...(deprecation ?? {}), Link: link };
  if ('type' in answer) return { ...answer, headers: { ...common, ...rate, ...own, ...extra } };
  const response = 'response' in answer ? answer.response : json(answer.body, answer.status, own);
  if ('response' in answer && response.headers.has('link')) extra.Link = `${link}, ${response.headers.get('link')}`;
  setMissing(response, { ...rate, ...common });
  const cache = response.headers.get('cache-control') ?? '';
  // A refusal or a failure is never cached; the not-found (404) is the one error a cache may keep.
  if (response.status >= 400 && response.status !== 404) response.headers.set('Cache-Control', NO_STORE);
  // A metered answer carries this client's counters: no shared cache may keep it, whatever built it (the
  // not-found page is public elsewhere).
  else if (op.cache === 'metered' && /\bpublic\b/.test(cache))
    response.headers.set('Cache-Control', CACHE_CONTROL.metered);
  for (const [k, v] of Object.entries(extra)) response.headers.set(k, v);
  return response;
}

/**
 * A preflight or a method the operation does not take still costs a read unit (a 429 past it), so a flood of
 * them is capped like any read; nothing else is looked up for it.
 */
async function otherMethod(op: Operation, method: string, client: string, deps: Deps): Promise<Response | Rewrite> {
  const spent = await deps.meter(client);
  if (!spent.ok) return finish(op, defaultRefused({ kind: 'limited', limit: spent }), spent);
  if (method === 'OPTIONS') return preflight(methodsOf(op), op.cors);
  return finish(op, { response: errorResponse(405, notAllowedText(op), { Allow: allowOf(op) }) }, spent);
}

/** The request as the operation sees it: who asks, with which path parameters, under which read spent. */
interface Call {
  request: Request;
  deps: Deps;
  client: string;
  params: Record<string, string>;
  metered: RateLimitState | undefined;
}

/** The handler's answer to the checked inputs, or the operation's refusal of them; `refuse` answers later ones. */
async function answerOf(op: Operation, call: Call) {
  const { request, deps, client, params, metered } = call;
  const inputs = await readInputs(op, request, deps.config.origin);
  // A form post whose fields could not be read still answers as a form (`{}`: nothing the visitor typed).
  const context: RefusalContext = {
    request,
    form: inputs.ok ? inputs.form : op.body?.form && isFormPost(request) ? {} : undefined,
  };
  const refuse = (refusal: Refusal) => (op.refused ?? defaultRefused)(refusal, context);
  if (!inputs.ok) return { answer: refuse(inputs.refusal), refuse };
  const answer: Answer | Rewrite = await op.handler({
    request,
    deps,
    client,
    params,
    query: inputs.query,
    body: inputs.body,
    form: inputs.form,
    headers: metered ? rateLimitHeaders(metered) : {},
  } as Parameters<Operation['handler']>[0]);
  return { answer, refuse };
}

/** Runs `op` for `request`: the whole pipeline (see the module comment). A function operation answers itself. */
export function runOperation(
  op: FunctionOperation,
  request: Request,
  deps: Deps,
  params?: Record<string, string>,
): Promise<Response>;
export function runOperation(
  op: Operation,
  request: Request,
  deps: Deps,
  params?: Record<string, string>,
): Promise<Response | Rewrite>;
export async function runOperation(
  op: Operation,
  request: Request,
  deps: Deps,
  params: Record<string, string> = {},
): Promise<Response | Rewrite> {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  try {
    const client = clientOf(request);
    if (method !== op.method) return await otherMethod(op, method, client, deps);
    let metered: RateLimitState | undefined;
    if (op.meter === 'read') {
      const spent = await deps.meter(client);
      if (!spent.ok) return finish(op, defaultRefused({ kind: 'limited', limit: spent }), spent);
      metered = spent;
    }
    const { answer, refuse } = await answerOf(op, { request, deps, client, params, metered });
    const status = statusOf(answer);
    if (op.refusalMeter === 'read' && (status === 400 || status === 413)) {
      const spent = await deps.meter(client); // the read budget
      if (!spent.ok) return finish(op, refuse({ kind: 'limited', limit: spent }), spent);
      metered = spent;
    }
    return finish(op, answer, metered);
  } catch (e) {
    return finish(op, { response: internalError(requestIdOf(request), e, deps.log) });
  }
}
