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
 * 2025-06-18 and later, which removed them, and for older protocols every message of a batch spends a unit.
 */
// prettier-ignore
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Deps } from '../adapters/deps.ts';
import { BodyUnreadable, errorResponse, readBody } from '../adapters/http.ts';
import { LIMITS } from '../contract/limits.ts';
import { buildMcpServer } from './server.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'Mcp-Session-Id, Mcp-Protocol-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, ' +
    'RateLimit-Policy, Retry-After',
};

/** Host names (no port) this deployment answers to: the site's, Vercel's deployment hosts, extra ones. */
export function mcpHosts(
  env: Record<string, string | undefined>,
  siteOrigin: string,
): { hosts: Set<string>; local: boolean } {
  const hosts = new Set<string>([new URL(siteOrigin).hostname]);
  for (const name of ['VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL'])
    if (env[name]) hosts.add(env[name]!.toLowerCase());
  for (const h of (env.MCP_ALLOWED_HOSTS ?? '').split(',')) if (h.trim()) hosts.add(h.trim().toLowerCase());
  return { hosts, local: !env.VERCEL };
}

/** Protocol versions that still had JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_PROTOCOLS: ReadonlySet<string> = new Set(['2024-10-07', '2024-11-05', '2025-03-26']);
/** Largest /mcp body, as every other endpoint's. */
export const MCP_BODY_BYTES = LIMITS.readBodyBytes;

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

export async function handleMcp(
  request: Request,
  d: Deps,
  allowed: { hosts: Set<string>; local: boolean },
): Promise<Response> {
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers':
          'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
        'Access-Control-Max-Age': '86400',
      },
    });
  }
  if (request.method !== 'POST') {
    // Every method but POST and OPTIONS (GET, DELETE, PUT, PATCH, HEAD, …) gets the same 405 and Allow.
    return errorResponse(
      405,
      'Method not allowed: /mcp takes POST only (stateless Streamable HTTP; there is no server-initiated ' +
        'stream and no session to delete)',
      { ...CORS, Allow: 'POST, OPTIONS' },
    );
  }
  const host = hostnameOf(request.headers.get('host') ?? new URL(request.url).host);
  if (!allowed.hosts.has(host) && !(allowed.local && LOCAL_HOSTS.has(host))) {
    return errorResponse(
      400,
      `Host "${host.slice(0, 100)}" is not this server (DNS-rebinding protection); use ${d.content().data.origin}/mcp`,
      CORS,
    );
  }
  const origin = request.headers.get('origin');
  if (origin && !originAllowed(origin)) {
    return errorResponse(
      400,
      'Origin not allowed: browser clients must be served over https (or from localhost)',
      CORS,
    );
  }

  const metered = await d.meter(request);
  if (metered.response) {
    for (const [k, v] of Object.entries(CORS)) metered.response.headers.set(k, v);
    return metered.response;
  }

  // Bodies are read here (not by the SDK) so the limit and the batch rules hold before any work is done.
  const accept = request.headers.get('accept') ?? '';
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let parsedBody: unknown;
  let forward = request;
  if (accept.includes('application/json') && accept.includes('text/event-stream') && type === 'application/json') {
    let bytes: Buffer | undefined;
    try {
      bytes = await readBody(request, MCP_BODY_BYTES);
    } catch (e) {
      if (e instanceof BodyUnreadable)
        return errorResponse(400, 'Request body could not be read to its end', { ...CORS, ...metered.headers });
      throw e;
    }
    if (!bytes)
      return errorResponse(413, `Request body is larger than ${MCP_BODY_BYTES} bytes`, { ...CORS, ...metered.headers });
    try {
      parsedBody = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      forward = new Request(request.url, { method: 'POST', headers: request.headers, body: new Uint8Array(bytes) });
    }
    if (Array.isArray(parsedBody)) {
      const refusal = batchRefusal(parsedBody, request.headers.get('mcp-protocol-version'));
      if (refusal) return rpcError(400, -32600, refusal, { ...CORS, ...metered.headers });
      // Older protocols: each further message of the batch spends one more unit of the read budget.
      let last = metered;
      for (let i = 1; i < parsedBody.length; i++) {
        last = await d.meter(request);
        if (last.response) {
          for (const [k, v] of Object.entries(CORS)) last.response.headers.set(k, v);
          return last.response;
        }
      }
      metered.headers = last.headers;
    }
  }

  const server = buildMcpServer({
    content: d.content(),
    search: { content: d.content(), index: d.searchIndex() },
    pricing: d.pricing(),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(forward, parsedBody === undefined ? undefined : { parsedBody });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries({ ...CORS, ...metered.headers, 'Cache-Control': 'no-store' }))
      headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } finally {
    // JSON response mode: the answer is complete once handleRequest resolves.
    await server.close().catch(() => {});
  }
}
