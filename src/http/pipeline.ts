/**
 * @module The one request pipeline every operation runs through, on Vercel (a function, or the
 * middleware for getPage) and in the local server alike:
 *
 * 1. method: OPTIONS is the CORS preflight, HEAD is GET, anything else the operation does not take is 405;
 * 2. metering: a `read` operation spends one unit of the client's read budget before anything else (429
 *    past it), so invalid requests are metered too;
 * 3. inputs: the query and the JSON (or form) body are read within their limits and checked against the
 *    operation's schemas (400 or 413 with the contract's Error body);
 * 4. the handler, which returns an `Answer`;
 * 5. the headers every answer of the operation carries: RateLimit-*, cache class, CORS with the exposed
 *    headers, `Vary`, deprecation (RFC 9745, RFC 8594) and the API's `Link`s.
 *
 * A refused body of a `lead` operation spends a read unit instead (never a lead unit), and its 400 or 413
 * carries that read's RateLimit-* headers. An unexpected throw is logged and answered 500 with the request
 * id as its reference; unknown API paths get `notFound`.
 */
import type { Deps } from '../adapters/deps.ts';
import { errorResponse, json, readJson } from '../adapters/http.ts';
import { describeIssue, queryOf } from '../adapters/query.ts';
import { crossSiteRefusal, formAnswer, isFormPost, readForm } from '../adapters/form-post.ts';
import { createLog } from '../adapters/log.ts';
import { API_LINKS } from '../contract/links.ts';
import { CACHE_CONTROL, CORS_READ } from '../contract/routes.ts';
import { wantsMarkdown } from '../core/accept.ts';
import { clientOf } from '../core/client.ts';
import { errorStack } from '../core/error-text.ts';
import { deprecationHeaders } from '../core/deprecation.ts';
import { notFoundMarkdown } from '../core/not-found.ts';
import type { Log } from '../core/ports.ts';
import type { Answer, Operation } from './operation.ts';

/** getPage's answer in the middleware: serve this static file with these headers. */
export interface Rewrite {
  rewrite: string;
  headers: Record<string, string>;
}

const ALLOW_HEADERS = [
  'Content-Type, Accept, Authorization, Idempotency-Key, If-None-Match',
  'Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
].join(', ');

/** A refusal is never cached, whatever the operation's cache class. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** The methods an operation answers, as `Allow` lists them. */
const allowOf = (op: Operation) => (op.method === 'GET' ? 'GET, HEAD, OPTIONS' : `${op.method}, OPTIONS`);

/** The 405's text for a method `op` does not take. */
export const notAllowedText = (op: Operation) => `Method not allowed: ${op.path} takes ${op.method} only`;

/** The request's id: Vercel's, or the one the local server stamped on it. */
export function requestIdOf(request: Request): string {
  return request.headers.get('x-vercel-id') ?? request.headers.get('x-request-id') ?? crypto.randomUUID();
}

/** The 500 answer for an unexpected throw: logged with the request's id (`requestIdOf`), which the body quotes. */
export function internalError(id: string, error: unknown, log: Log = createLog()): Response {
  log('unhandled_error', { level: 'error', id, error: errorStack(error) });
  return errorResponse(500, `Internal error (reference ${id}); please retry, or tell us at /contact`);
}

/**
 * The real 404 of a path no operation or file answers: the Error body, or a markdown page of where to
 * look when markdown was asked for. Public and cacheable: it says nothing about the client.
 */
export function notFound(request: Request, path: string, origin: string, error?: string): Response {
  const headers = { 'Cache-Control': 'public, max-age=60', Vary: 'Accept', 'Access-Control-Allow-Origin': '*' };
  if (wantsMarkdown(request.headers.get('accept'))) {
    return new Response(notFoundMarkdown(path, origin), {
      status: 404,
      headers: { 'Content-Type': 'text/markdown; charset=utf-8', ...headers },
    });
  }
  const where = path.slice(0, 200);
  return errorResponse(404, error ?? `No API endpoint at ${where}. See /openapi.json.`, headers);
}

function preflight(op: Operation): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...(op.cors ? { 'Access-Control-Allow-Origin': '*' } : {}),
      'Access-Control-Allow-Methods': allowOf(op).replace(', OPTIONS', '').concat(', OPTIONS'),
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': '86400',
    },
  });
}

type Inputs =
  | { ok: true; query: unknown; body: unknown; form?: Record<string, string> }
  | { ok: false; response: Response };

/** Reads and checks the query and the body of `op` (400 or 413 with the Error body). */
async function readInputs(op: Operation, request: Request, origin: string): Promise<Inputs> {
  let query: unknown;
  if (op.query) {
    const parsed = op.query.safeParse(queryOf(request));
    if (!parsed.success) return { ok: false, response: errorResponse(400, describeIssue(parsed.error)) };
    query = parsed.data;
  }
  if (!op.body) return { ok: true, query, body: undefined };
  // A body a browser may send to any origin without asking (a form, text/plain) from another site; for an
  // operation only the site's own pages may call from a browser, any body from another site.
  const refused = crossSiteRefusal(request, origin, {}, op.sameOrigin === true);
  if (refused) return { ok: false, response: refused };
  let source = request;
  if (op.body.form && isFormPost(request)) {
    const form = await readForm(request, op.body.maxBytes);
    if (form.kind === 'answer') return { ok: false, response: form.response };
    if (form.kind === 'form') return { ok: true, query, body: form.lead, form: form.lead };
    source = form.request; // JSON under a form Content-Type (`curl -d`): read as JSON
  }
  const read = await readJson(source, op.body.maxBytes);
  if (!read.ok) return { ok: false, response: read.response };
  const parsed = op.body.schema.safeParse(read.value);
  if (!parsed.success) return { ok: false, response: errorResponse(400, describeIssue(parsed.error)) };
  return { ok: true, query, body: parsed.data };
}

/** Sets `headers` on `response` where it has not set them itself. */
function setMissing(response: Response, headers: Record<string, string>): void {
  for (const [k, v] of Object.entries(headers)) if (!response.headers.has(k)) response.headers.set(k, v);
}

/** Runs `op` for `request`: the whole pipeline (see the module comment). */
export async function runOperation(
  op: Operation,
  request: Request,
  deps: Deps,
  params: Record<string, string> = {},
): Promise<Response | Rewrite> {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (method === 'OPTIONS') return preflight(op);
  const common: Record<string, string> = {
    'Cache-Control': CACHE_CONTROL[op.cache],
    Vary: 'Accept',
    ...(op.cors ? CORS_READ : {}),
  };
  const deprecation = op.deprecated ? deprecationHeaders(op.deprecated) : undefined;
  const links = [...(deprecation ? [deprecation.Link] : []), ...API_LINKS];

  /** The headers every answer of the operation carries, added to `answer`. */
  const finish = (answer: Answer, rate: Record<string, string>): Response | Rewrite => {
    const own = 'response' in answer ? undefined : (answer.headers ?? {});
    const link = [...links, ...(own?.Link ? [own.Link] : [])].join(', ');
    const extra = { ...(deprecation ?? {}), Link: link };
    if ('rewrite' in answer) return { rewrite: answer.rewrite, headers: { ...common, ...rate, ...own, ...extra } };
    const response = 'response' in answer ? answer.response : json(answer.body, answer.status, own);
    if ('response' in answer && response.headers.has('link')) extra.Link = `${link}, ${response.headers.get('link')}`;
    setMissing(response, { ...rate, ...common });
    // A metered answer carries this client's counters: no shared cache may keep it, whatever built it (the
    // not-found page is public elsewhere).
    if (op.cache === 'metered' && /\bpublic\b/.test(response.headers.get('cache-control') ?? '')) {
      response.headers.set('Cache-Control', CACHE_CONTROL.metered);
    }
    for (const [k, v] of Object.entries(extra)) response.headers.set(k, v);
    return response;
  };

  if (method !== op.method) {
    const allow = allowOf(op);
    return finish({ response: errorResponse(405, notAllowedText(op), { Allow: allow }) }, {});
  }
  try {
    const client = clientOf(request);
    let rate: Record<string, string> = {};
    if (op.meter === 'read') {
      const outcome = await deps.meter(client);
      rate = outcome.headers;
      if (!outcome.ok)
        return finish({ status: 429, body: { error: outcome.error, status: 429 }, headers: NO_STORE }, rate);
    }
    const inputs = await readInputs(op, request, deps.config.origin);
    let answer: Answer;
    if (!inputs.ok) answer = { response: inputs.response };
    else {
      answer = await op.handler({
        request,
        deps,
        client,
        params,
        query: inputs.query,
        body: inputs.body,
        form: inputs.form,
        headers: rate,
      } as Parameters<Operation['handler']>[0]);
    }
    // A refused lead body costs what a read costs (parse, check, write nothing), from the read budget; its
    // 400 or 413 carries the RateLimit-* headers of that read (contract, Limits rule 1).
    const status = 'response' in answer ? answer.response.status : 'status' in answer ? answer.status : 200;
    if (op.meter === 'lead' && (status === 400 || status === 413)) {
      const outcome = await deps.meter(client);
      rate = outcome.headers;
      if (!outcome.ok) {
        const body = { error: outcome.error, status: 429 };
        const page = inputs.ok ? inputs.form : isFormPost(request) ? {} : undefined;
        if (page)
          return finish({ response: formAnswer(request, { status: 429, body, headers: outcome.headers }, page) }, {});
        return finish({ status: 429, body, headers: NO_STORE }, outcome.headers);
      }
    }
    return finish(answer, rate);
  } catch (e) {
    return finish({ response: internalError(requestIdOf(request), e, deps.log) }, {});
  }
}
