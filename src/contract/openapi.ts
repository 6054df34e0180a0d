/**
 * @module Builds the OpenAPI 3.1 document from the route table and the zod schemas. Written at build time
 * to /openapi.json and /openapi.yaml. zod's JSON Schema output is draft 2020-12, which OpenAPI 3.1 uses.
 */
import { z } from 'zod';
import { LIMITS, policyOf } from './limits.ts';
import { routes, type RouteSpec } from './routes.ts';
import { MCP_TOOLS } from './mcp.ts';
import {
  BatchRequestSchema, BatchResponseSchema, ErrorSchema, LeadAcceptedSchema, LeadSchema, LeadValidationSchema,
  ListPagesQuerySchema, ListPagesResponseSchema, PageSchema, PageSummarySchema, SearchQuerySchema,
  SearchResponseSchema, SearchResultSchema,
} from './schemas.ts';
// Build-time only: the examples' error texts come from the real validation.
import { sandboxLead } from '../core/leads.ts';
import { rejectMessage, validateLead } from '../core/lead-validation.ts';

export const API_VERSION = '1.0.0';

const registry = z.registry<{ id: string }>();
for (const s of [ErrorSchema, PageSummarySchema, PageSchema, SearchResultSchema, LeadSchema, LeadValidationSchema,
  LeadAcceptedSchema, ListPagesResponseSchema, SearchResponseSchema, BatchRequestSchema, BatchResponseSchema]) {
  registry.add(s, { id: (s.meta() as { id: string }).id });
}

type Json = Record<string, unknown>;
const ref = (s: z.ZodType) => ({ $ref: `#/components/schemas/${(s.meta() as { id: string }).id}` });
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });
const json = (schema: Json, example?: unknown) => ({ 'application/json': { schema, ...(example ? { example } : {}) } });

const RATE = { 'RateLimit-Limit': hdr('RateLimit-Limit'), 'RateLimit-Remaining': hdr('RateLimit-Remaining'), 'RateLimit-Reset': hdr('RateLimit-Reset'), 'RateLimit-Policy': hdr('RateLimit-Policy') };
const err = (description: string, example: string, status: number, extraHeaders: Json = {}) => ({
  description,
  headers: extraHeaders,
  content: json(ref(ErrorSchema), { error: example, status }),
});
/** A body limit in KB and in bytes, as the 413 texts say it. */
const KB = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const tooLarge = (bytes: number) => `Request body is larger than ${bytes} bytes`;
const { listLimit, searchLimit } = LIMITS;
const perWindow = (l: { limit: number; windowSeconds: number }, unit: string) => {
  const window = l.windowSeconds === 60 ? 'minute' : l.windowSeconds === 3600 ? 'hour' : `${l.windowSeconds} seconds`;
  return `${l.limit} ${unit} per ${window}`;
};

const tooMany = (policy: string) => ({
  ...err(`Rate limit exceeded (${policy}). Wait Retry-After seconds.`, 'Too many requests: wait 12 seconds and try again.', 429, { ...RATE, 'Retry-After': hdr('Retry-After') }),
});

/** zod's bounds of a safe integer (+-(2^53 - 1)): true of every JSON number a client sends, so noise. */
const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * A zod JSON Schema made fit to publish, in place: no `$schema` and no `$id` (the `uri` option names each
 * component `#/components/schemas/X` for its `$ref`s; as an `$id` that is illegal, a URI with a fragment),
 * and no safe-integer bounds.
 */
function publishable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(publishable);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  delete o.$schema;
  delete o.$id;
  if (o.minimum === -SAFE_BOUND) delete o.minimum;
  if (o.maximum === SAFE_BOUND) delete o.maximum;
  for (const v of Object.values(o)) publishable(v);
}

/** Query parameters from a zod object, one OpenAPI parameter per key. */
function queryParams(schema: z.ZodObject): Json[] {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties).map(([name, s]) => {
    const { description, example, ...rest } = s as Json;
    if (rest.type === 'integer') delete rest.pattern; // the string pattern is how a query integer is parsed, not part of its type
    publishable(rest);
    const dflt = (schema.shape[name] as z.ZodType).safeParse(undefined);
    if (dflt.success && dflt.data !== undefined) rest.default = dflt.data;
    return { name, in: 'query', required: js.required?.includes(name) ?? false, description, schema: rest, ...(example ? { example } : {}) };
  });
}

/** Error texts of the examples, from running the real validation on example payloads (they cannot drift). */
const BAD_EMAIL = { name: 'Sam Taylor', email: 'sam@harbourline' };
const badEmailCheck = sandboxLead(BAD_EMAIL, null).body;
const badEmailError = rejectMessage(validateLead(BAD_EMAIL).problems);
const notAnObjectError = (sandboxLead([], null).body as { error: string }).error;

const samplePage = {
  slug: 'pricing', title: 'Pricing | Kartage', description: 'Plans for removalists and storage operators.',
  url: 'https://kartage.com.au/pricing', markdown_url: 'https://kartage.com.au/pricing.md', updated: '2026-10-01',
};

/** A form post (JavaScript off) is answered with a page instead of JSON. */
const HTML = { 'text/html': { schema: { type: 'string' } } };
const withHtml = (answer: Json) => ({ ...answer, content: { ...(answer.content as Json), ...HTML } });

/** What each operation takes and answers; paths, methods and summaries come from the route table. */
const operations: Record<string, (route: RouteSpec) => Json> = {
  listPages: () => ({
    description: 'Page index without bodies, in ascending slug order. Continue with `cursor` = `nextCursor` until it is absent.',
    parameters: queryParams(ListPagesQuerySchema),
    responses: {
      200: { description: 'A page of the index.', headers: { ...RATE, Vary: hdr('Vary'), 'Cache-Control': hdr('Cache-Control') }, content: json(ref(ListPagesResponseSchema), { count: 1, pages: [samplePage], nextCursor: 'pricing' }) },
      400: err(`\`limit\` is not a whole number from ${listLimit.min} to ${listLimit.max}.`, `limit must be a whole number from ${listLimit.min} to ${listLimit.max}`, 400, RATE),
      429: tooMany(policyOf(LIMITS.read)),
    },
  }),
  getPage: () => ({
    description: 'One page as JSON, or as a standalone markdown document when the request sends `Accept: text/markdown`.',
    parameters: [{ name: 'slug', in: 'path', required: true, description: '`index` is the home page; a blog post is `blog/<post>`. Slugs come from listPages.', schema: { type: 'string', pattern: '^[a-z0-9/-]+$' }, example: 'product/storage' }],
    responses: {
      200: {
        description: 'The page.',
        headers: { ...RATE, Vary: hdr('Vary'), ETag: hdr('ETag'), 'Cache-Control': hdr('Cache-Control') },
        content: { ...json(ref(PageSchema), { ...samplePage, markdown: '# Pricing\n\nPlans for every size of moving business.\n' }), 'text/markdown': { schema: { type: 'string' }, example: '# Pricing\n\nPlans for every size of moving business.\n' } },
      },
      304: { description: 'Not modified (the `If-None-Match` ETag matches).', headers: { ETag: hdr('ETag') } },
      404: { description: 'No such page. With `Accept: text/markdown` the body is markdown.', headers: { Vary: hdr('Vary') }, content: { ...json(ref(ErrorSchema), { error: 'No page with slug "nope". List slugs at /api/v1/pages.', status: 404 }), 'text/markdown': { schema: { type: 'string' } } } },
      429: tooMany(policyOf(LIMITS.read)),
    },
  }),
  searchSite: () => ({
    description: 'Ranked full-text search. Every term must appear in a result (as a word or the start of one); case and accents are ignored.',
    parameters: queryParams(SearchQuerySchema),
    responses: {
      200: { description: 'Ranked results, best first.', headers: { ...RATE, Vary: hdr('Vary'), 'Cache-Control': hdr('Cache-Control') }, content: json(ref(SearchResponseSchema), { query: 'storage billing', count: 1, results: [{ slug: 'product/storage', title: 'Storage | Kartage', url: 'https://kartage.com.au/product/storage', markdown_url: 'https://kartage.com.au/product/storage.md', snippet: '… run storage billing for every unit and vault in minutes …', score: 412 }] }) },
      400: err(`\`q\` is missing or shorter than ${LIMITS.searchMinLength} characters, or \`limit\` is not from ${searchLimit.min} to ${searchLimit.max}.`, `q must be at least ${LIMITS.searchMinLength} characters after trimming`, 400, RATE),
      429: tooMany(policyOf(LIMITS.read)),
    },
  }),
  getPagesBatch: () => ({
    description: `Up to ${LIMITS.batchMax} pages in one request: one result per requested slug, in request order. A missing slug is marked in its result, not an HTTP error.`,
    requestBody: { required: true, content: json(ref(BatchRequestSchema), { slugs: ['pricing', 'nope'] }) },
    responses: {
      200: { description: 'One result per slug.', headers: RATE, content: json(ref(BatchResponseSchema), { count: 2, results: [{ slug: 'pricing', found: true, page: { ...samplePage, markdown: '# Pricing\n' } }, { slug: 'nope', found: false, error: 'No page with slug "nope".' }] }) },
      400: err(`\`slugs\` is missing, empty, not an array, or has more than ${LIMITS.batchMax} items; or the body is not JSON.`, `slugs must have at most ${LIMITS.batchMax} items`, 400, RATE),
      413: err(`The body is larger than ${KB(LIMITS.readBodyBytes)}.`, tooLarge(LIMITS.readBodyBytes), 413),
      429: tooMany(policyOf(LIMITS.read)),
    },
  }),
  validateLead: () => ({
    description: 'Runs the same validation as submitLead, including payloads that would be rejected or silently truncated. Writes nothing, sends nothing and spends no lead budget.',
    requestBody: { required: true, content: json(ref(LeadSchema)) },
    responses: {
      200: { description: 'The payload is good.', headers: RATE, content: json(ref(LeadValidationSchema), { sandbox: true, wouldSubmit: true, problems: [], note: 'POST the same JSON to /api/lead to submit it, only on behalf of the person it describes.' }) },
      400: err('The body is not a JSON object.', notAnObjectError, 400, RATE),
      413: err(`The body is larger than ${KB(LIMITS.leadBodyBytes)}.`, tooLarge(LIMITS.leadBodyBytes), 413),
      422: { description: 'The payload would be rejected or changed; nothing was created.', headers: RATE, content: json(ref(LeadValidationSchema), badEmailCheck) },
      429: tooMany(policyOf(LIMITS.read)),
    },
  }),
  submitLead: () => ({
    description: 'Records a lead in the sales CRM and notifies the sales team. Use it only on behalf of a person who asked for it. The site\'s own form, with JavaScript off, posts the same fields as `application/x-www-form-urlencoded` and gets the same status with a small HTML page instead of JSON.',
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, description: `Unique key for the submission. A retry with the same key within ${LIMITS.idempotencyWindowSeconds / 3600} hours replays the first response, creates no second lead and spends no budget.`, schema: { type: 'string', maxLength: LIMITS.idempotencyKeyMax } }],
    requestBody: { required: true, content: { ...json(ref(LeadSchema)), 'application/x-www-form-urlencoded': { schema: ref(LeadSchema) } } },
    responses: {
      200: { description: 'The lead was accepted.', headers: { ...RATE, 'Idempotency-Replayed': hdr('Idempotency-Replayed') }, content: { ...json(ref(LeadAcceptedSchema), { ok: true }), ...HTML } },
      400: withHtml(err('name is missing or email is invalid, the body is not JSON, or Idempotency-Key is too long.', badEmailError, 400)),
      409: err('A request with the same Idempotency-Key is still being processed.', 'A request with this Idempotency-Key is in progress; retry in a moment', 409),
      413: withHtml(err(`The body is larger than ${KB(LIMITS.leadBodyBytes)}.`, tooLarge(LIMITS.leadBodyBytes), 413)),
      422: err('The Idempotency-Key was already used with a different payload.', 'This Idempotency-Key was used with a different payload', 422),
      429: withHtml({ ...tooMany(policyOf(LIMITS.lead)), description: `This client exceeded its budget (${policyOf(LIMITS.lead)}).` }),
      502: withHtml(err('The lead could not be recorded anywhere.', 'We could not record your enquiry. Please use the chat on the website.', 502)),
    },
  }),
  mcp: () => ({}),
};

/** The JSON-RPC error the MCP SDK answers protocol-level refusals with. */
const JSONRPC_ERROR = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
};
const rpcErr = (description: string, code: number, message: string) => ({
  description,
  content: { 'application/json': { schema: JSONRPC_ERROR, example: { jsonrpc: '2.0', error: { code, message }, id: null } } },
});

const mcpPath = {
  post: {
    operationId: 'mcp', summary: 'MCP over Streamable HTTP', tags: ['MCP'],
    description: `Model Context Protocol (Streamable HTTP, stateless). Public, read-only: tools ${MCP_TOOLS.join(', ')}, plus resources. Send \`Accept: application/json, text/event-stream\` and a JSON-RPC 2.0 message. Every other method answers 405 (no server-initiated stream, no sessions); JSON-RPC batches only for protocols before 2025-06-18, each call a read.`,
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request or notification.', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } } }, example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } } },
    responses: {
      200: { description: 'A JSON-RPC response (JSON or an SSE stream); an array for a batch (protocols before 2025-06-18).', headers: RATE, content: { 'application/json': { schema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] } }, 'text/event-stream': { schema: { type: 'string' } } } },
      202: { description: 'Accepted (notifications and responses).' },
      400: {
        description: 'Not a valid JSON-RPC message (a JSON-RPC error from the MCP SDK), or a Host or Origin that is not allowed (the Error body).',
        content: { 'application/json': { schema: { oneOf: [JSONRPC_ERROR, ref(ErrorSchema)] }, example: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null } } },
      },
      406: rpcErr('The Accept header lacks application/json or text/event-stream.', -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'),
      413: err('The body is larger than 64 KB.', 'Request body is larger than 65536 bytes', 413),
      415: rpcErr('The body is not `application/json`.', -32000, 'Unsupported Media Type: Content-Type must be application/json'),
      429: tooMany(policyOf(LIMITS.read)),
    },
  },
  get: {
    operationId: 'mcpGet', summary: 'No server-initiated stream', tags: ['MCP'],
    description: 'Always 405: a stateless Streamable HTTP server opens no stream of its own (MCP transport spec).',
    responses: { 405: err('There is no server-initiated stream.', 'Method not allowed: use POST', 405) },
  },
  delete: {
    operationId: 'mcpDelete', summary: 'No sessions to end', tags: ['MCP'],
    description: 'Always 405: the server is stateless and hands out no session to end (MCP transport spec).',
    responses: { 405: err('The server is stateless: there is no session to delete.', 'Method not allowed: use POST', 405) },
  },
};

const TAGS: Record<string, string> = { listPages: 'Content', getPage: 'Content', searchSite: 'Content', getPagesBatch: 'Content', validateLead: 'Leads', submitLead: 'Leads' };

/** The OpenAPI 3.1 document for the site at `origin` (`table`: the route table, replaceable in tests). */
export function buildOpenApi(origin: string, table: readonly RouteSpec[] = routes): Json {
  const paths: Record<string, Json> = {};
  for (const route of table) {
    if (route.id === 'mcp') { paths[route.path] = mcpPath; continue; }
    const build = operations[route.like ?? route.id];
    if (!build) continue;
    for (const method of route.methods) {
      (paths[route.path] ??= {})[method.toLowerCase()] = {
        operationId: route.id, summary: route.summary, tags: [TAGS[route.like ?? route.id]], security: [],
        ...(route.deprecated ? { deprecated: true } : {}),
        ...build(route),
      };
    }
  }
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'input', unrepresentable: 'any' }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) publishable(s);
  const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kartage public site content and lead API',
      version: API_VERSION,
      summary: 'Read-only content of kartage.com.au, lead submission, a lead sandbox and an MCP server.',
      description: `Public and unauthenticated: no signup, key or token; an Authorization header is ignored. Reads: ${perWindow(LIMITS.read, 'requests')} per IP. Lead submission: ${perWindow(LIMITS.lead, 'leads')} per IP. Every page is also markdown (append \`.md\`, or send \`Accept: text/markdown\`). The authenticated tenant API on api.kartage.com.au is a separate system.`,
      contact: { name: 'Kartage', email: 'support@kartage.com.au', url: `${origin}/developers` },
      // The content is Kartage's own, usable under the site's terms (no open licence).
      license: { name: 'Kartage website terms of use', url: `${origin}/terms` },
    },
    servers: [{ url: origin }],
    externalDocs: { description: 'Developer guide', url: `${origin}/developers` },
    tags: [{ name: 'Content', description: 'Read-only site content.' }, { name: 'Leads', description: 'Enquiries and demo bookings.' }, { name: 'MCP', description: 'Model Context Protocol endpoint.' }],
    security: [],
    paths,
    components: {
      schemas,
      headers: {
        'RateLimit-Limit': { ...int('Requests allowed in the window.'), required: true },
        'RateLimit-Remaining': { ...int('Requests left in the window.'), required: true },
        'RateLimit-Reset': { ...int('Seconds until the window resets (for leads: until a slot frees).'), required: true },
        'RateLimit-Policy': { description: 'Quota and window in seconds, e.g. `120;w=60` or `5;w=3600`.', required: true, schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 1 } },
        'Idempotency-Replayed': { description: '`true` when this response replays an earlier one with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
        Vary: { description: 'Responses vary by `Accept`.', schema: { type: 'string' } },
        ETag: { description: 'Strong validator of the representation.', schema: { type: 'string' } },
        'Cache-Control': { description: `Reads may be cached for ${LIMITS.cacheSeconds / 60} minutes, by the client only (private).`, schema: { type: 'string' } },
      },
    },
  };
}
