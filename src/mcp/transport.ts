/**
 * @module `/mcp` over HTTP: the checks around the SDK's Streamable HTTP transport. POST only (every
 * other method but the OPTIONS preflight is 405: no server-initiated stream, no sessions); the Host must
 * be one of the site's own (DNS-rebinding protection) and an Origin, when sent, https or localhost;
 * metered as a read; CORS open to browser-based agents, since everything here is public and read-only.
 * Refusals here use the contract's Error body and never 401/403 (SPEC.md "Authentication"); protocol
 * errors are the SDK's.
 *
 * One request is one unit of the read budget, so one POST cannot do the work of many: bodies are at most
 * 64 KB (413, like every other endpoint); JSON-RPC batches are refused (400, JSON-RPC -32600) for protocol
 * 2025-06-18 and later, which removed them; for older protocols a batch holds at most `MCP_BATCH_MAX`
 * messages (413 with the Error body past that, before any work) and every message spends a unit. The
 * messages of a batch run one at a time, each after a turn of the event loop (src/mcp/server.ts), so a
 * batch cannot hold the instance for all of them.
 */
// prettier-ignore
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { dirname, join } from 'node:path';
import type { Deps } from '../adapters/composition-root.ts';
import { clientOf } from '../http/client-address.ts';
import { errorResponse, rateLimitHeaders, tooManyRequests } from '../http/responses.ts';
import { bodyFailureStatus, bodyFailureText, readBytes } from '../http/request-body.ts';
import { LIMITS } from '../contract/limits.ts';
import { buildMcpServer } from './server.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Protocol versions that still had JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_PROTOCOLS: ReadonlySet<string> = new Set(['2024-10-07', '2024-11-05', '2025-03-26']);
/** Largest /mcp body, as every other endpoint's. */
export const MCP_BODY_BYTES = LIMITS.readBodyBytes;
/** Most messages of one JSON-RPC batch (older protocols). */
export const MCP_BATCH_MAX = LIMITS.mcpBatchMax;

const rpcError = (status: number, code: number, message: string, headers: Record<string, string>) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/** Why a batch is refused, or undefined when its protocol allows batches. */
function batchRefusal(messages: unknown[], headerVersion: string | null): string | undefined {
  const versions = headerVersion === null ? [] : [headerVersion.trim()];
  for (const m of messages) {
    const p =
      m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize'
        ? (m as { params?: { protocolVersion?: unknown } }).params
        : undefined;
    if (p && typeof p === 'object') versions.push(String(p.protocolVersion));
  }
  const newer = versions.find((v) => !BATCH_PROTOCOLS.has(v));
  if (newer === undefined) return undefined;
  return (
    `Invalid Request: JSON-RPC batches are not supported in protocol ${newer.slice(0, 20)} ` +
    '(removed in 2025-06-18); send one message per POST'
  );
}

const hostnameOf = (host: string) => host.toLowerCase().replace(/:\d+$/, '');

function originAllowed(origin: string): boolean {
  try {
    const u = new URL(origin);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOCAL_HOSTS.has(u.hostname));
  } catch {
    return false;
  }
}

/** The refusal of a request whose Host is not this server's or whose Origin is not allowed; else undefined. */
function callerRefusal(request: Request, d: Deps): Response | undefined {
  const origin = d.content.origin;
  const host = hostnameOf(request.headers.get('host') ?? new URL(request.url).host);
  const allowed = d.config.mcpHosts;
  const own = host === new URL(origin).hostname;
  if (!own && !allowed.hosts.has(host) && !(allowed.local && LOCAL_HOSTS.has(host))) {
    return errorResponse(
      400,
      `Host "${host.slice(0, 100)}" is not this server (DNS-rebinding protection); use ${origin}/mcp`,
    );
  }
  const sent = request.headers.get('origin');
  if (sent && !originAllowed(sent)) {
    return errorResponse(400, 'Origin not allowed: browser clients must be served over https (or from localhost)');
  }
  return undefined;
}

/**
 * A batch's refusal, or the RateLimit headers after its further messages each spent a unit of the read budget
 * (older protocols only; too many messages are refused before any is metered or run, as an oversize body is).
 */
async function meterBatch(
  request: Request,
  d: Deps,
  messages: unknown[],
  rate: Record<string, string>,
): Promise<Response | Record<string, string>> {
  const refusal = batchRefusal(messages, request.headers.get('mcp-protocol-version'));
  if (refusal) return rpcError(400, -32600, refusal, {});
  if (messages.length > MCP_BATCH_MAX)
    return errorResponse(
      413,
      `A JSON-RPC batch holds at most ${MCP_BATCH_MAX} messages, not ${messages.length}; ` +
        'send the rest in further POSTs',
      rate,
    );
  const client = clientOf(request);
  let headers = rate;
  for (let i = 1; i < messages.length; i++) {
    const outcome = await d.meter(client);
    if (!outcome.ok) return tooManyRequests(outcome);
    headers = rateLimitHeaders(outcome);
  }
  return headers;
}

/** What goes on to the SDK: the request (its body again when it was not JSON), the parsed body, the headers. */
interface Forward {
  forward: Request;
  parsedBody: unknown;
  headers: Record<string, string>;
}

/**
 * Reads a JSON POST's body here (not in the SDK) so the limit and the batch rules hold before any work is done;
 * a refusal, or what to forward. Any other request goes on as it is, for the SDK to answer.
 */
async function readMessages(request: Request, d: Deps, rate: Record<string, string>): Promise<Response | Forward> {
  const accept = request.headers.get('accept') ?? '';
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const as = { forward: request, parsedBody: undefined as unknown, headers: rate };
  if (!(accept.includes('application/json') && accept.includes('text/event-stream') && type === 'application/json'))
    return as;
  // 413 past the limit, 400 when it breaks off: the texts every body reader answers with.
  const read = await readBytes(request, MCP_BODY_BYTES);
  if (!read.ok) {
    return errorResponse(bodyFailureStatus(read.failure), bodyFailureText(read.failure, MCP_BODY_BYTES));
  }
  const bytes = read.bytes;
  try {
    as.parsedBody = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    as.forward = new Request(request.url, { method: 'POST', headers: request.headers, body: new Uint8Array(bytes) });
  }
  if (Array.isArray(as.parsedBody)) {
    const metered = await meterBatch(request, d, as.parsedBody, rate);
    if (metered instanceof Response) return metered;
    as.headers = metered;
  }
  return as;
}

/** Runs the messages through a fresh MCP server and the SDK's transport (stateless, JSON answers). */
async function runTransport(d: Deps, f: Forward, openApi: (origin: string) => string): Promise<Response> {
  const content = d.content;
  const server = buildMcpServer({
    content,
    pricing: d.pricing,
    now: () => d.now(),
    // The build writes dist/ beside the data folder (build/); a bundle without it builds the document once.
    openApiFile: join(dirname(d.config.dataDir), 'dist', 'openapi.json'),
    openApi: () => openApi(content.origin),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(
      f.forward,
      f.parsedBody === undefined ? undefined : { parsedBody: f.parsedBody },
    );
    const out = new Headers(response.headers);
    for (const [k, v] of Object.entries(f.headers)) out.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: out });
  } finally {
    // JSON response mode: the answer is complete once handleRequest resolves.
    await server.close().catch(() => {});
  }
}

/** Answers one POST to /mcp: Host and Origin checks, the body limit, the batch rules, then the SDK's transport. */
export async function handleMcp(
  request: Request,
  d: Deps,
  rate: Record<string, string>,
  openApi: (origin: string) => string,
): Promise<Response> {
  // The pipeline has checked the method and metered the request (`rate`: its RateLimit headers).
  const refusal = callerRefusal(request, d);
  if (refusal) return refusal;
  const messages = await readMessages(request, d, rate);
  if (messages instanceof Response) return messages;
  return runTransport(d, messages, openApi);
}
