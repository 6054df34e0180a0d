/**
 * @module `/mcp` over HTTP: the checks around the SDK's Streamable HTTP transport. POST only (GET and
 * DELETE are 405: no server-initiated stream, no sessions); the Host must be one of the site's own
 * (DNS-rebinding protection) and an Origin, when sent, https or localhost; metered as a read; CORS open
 * to browser-based agents, since everything here is public and read-only. Refusals here use the
 * contract's Error body and never 401/403 (SPEC.md "Authentication"); protocol errors are the SDK's.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Deps } from '../adapters/deps.ts';
import { errorResponse } from '../adapters/http.ts';
import { buildMcpServer } from './server.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After',
};

/** Host names (no port) this deployment answers to: the site's, Vercel's deployment hosts, extra ones. */
export function mcpHosts(env: Record<string, string | undefined>, siteOrigin: string): { hosts: Set<string>; local: boolean } {
  const hosts = new Set<string>([new URL(siteOrigin).hostname]);
  for (const name of ['VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL']) if (env[name]) hosts.add(env[name]!.toLowerCase());
  for (const h of (env.MCP_ALLOWED_HOSTS ?? '').split(',')) if (h.trim()) hosts.add(h.trim().toLowerCase());
  return { hosts, local: !env.VERCEL };
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

export async function handleMcp(request: Request, d: Deps, allowed: { hosts: Set<string>; local: boolean }): Promise<Response> {
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
        'Access-Control-Max-Age': '86400',
      },
    });
  }
  if (request.method !== 'POST') {
    return errorResponse(405, 'Method not allowed: /mcp takes POST only (stateless Streamable HTTP; there is no server-initiated stream and no session to delete)', { ...CORS, Allow: 'POST, OPTIONS' });
  }
  const host = hostnameOf(request.headers.get('host') ?? new URL(request.url).host);
  if (!allowed.hosts.has(host) && !(allowed.local && LOCAL_HOSTS.has(host))) {
    return errorResponse(400, `Host "${host.slice(0, 100)}" is not this server (DNS-rebinding protection); use ${d.content().data.origin}/mcp`, CORS);
  }
  const origin = request.headers.get('origin');
  if (origin && !originAllowed(origin)) {
    return errorResponse(400, 'Origin not allowed: browser clients must be served over https (or from localhost)', CORS);
  }

  const metered = await d.meter(request);
  if (metered.response) {
    for (const [k, v] of Object.entries(CORS)) metered.response.headers.set(k, v);
    return metered.response;
  }

  const server = buildMcpServer({ content: d.content(), search: { content: d.content(), index: d.searchIndex() }, pricing: d.pricing() });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries({ ...CORS, ...metered.headers, 'Cache-Control': 'no-store' })) headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } finally {
    // JSON response mode: the answer is complete once handleRequest resolves.
    await server.close().catch(() => {});
  }
}
