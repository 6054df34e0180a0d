/**
 * @module The MCP server, assembled: four read-only tools that mirror the REST operations (src/mcp/tools.ts) and
 * resources for llms.txt, the sitemap, the OpenAPI document and the key pages as markdown, plus a template for
 * any page (src/mcp/resources.ts). Stateless: one server per request, so it advertises no `listChanged` (it could
 * never send the notification). Built on the SDK's low-level `Server` with those definitions, so `tools/list`
 * and the build-time server card (src/build/mcp-server-card.ts) read the same objects, and every error code is
 * ours to choose: -32602 with a readable message for malformed params, -32002 for a resource that does not
 * exist, a tool error (`isError`) for bad tool arguments.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { MCP_SERVER_VERSION } from '../contract/mcp.ts';
import type { McpDeps } from './deps.ts';
import { RpcError, readableIssues } from './errors.ts';
import { completeSlug, readResource, resourceList } from './resources.ts';
import { mcpIcons, TOOLS, toolList } from './tools.ts';

// What the build's server card reads (src/build/mcp-server-card.ts): the server's own definitions.
export { resourceList, toolList };
export type { McpDeps };

export const SERVER_DESCRIPTION =
  'Read-only access to the Kartage website: search, pages as markdown, page index, pricing.';

const INSTRUCTIONS = [
  'Kartage makes operating software for moving, relocation and storage companies (quoting, CRM, ' +
    'scheduling and dispatch, crew app, storage billing, international moves, invoicing, customer portal, ' +
    'reporting). This server gives read-only access to the public website: product pages, solutions by ' +
    'segment, pricing, customer stories, blog posts and developer documentation. Everything is public; no ' +
    'authentication.',
  'Use search_kartage_site to find pages (given a question, it also answers from the site, quoting the ' +
    'sections with links to them), get_kartage_page to read one as markdown (long pages come in parts), ' +
    'list_kartage_pages to browse by section (prefix "blog/", "product/", ' +
    '"solutions/", "customers/"), and get_kartage_pricing for plans, add-ons and a plan recommendation. ' +
    'Cite page URLs, or the section URLs of an answer, in answers.',
  'Booking a demo or sending an enquiry is not a tool here: it is POST /api/lead on the website ' +
    '(described in /openapi.json), to be used only on behalf of a person who asked to be contacted, with ' +
    'their own details. Check a payload first with POST /api/v1/lead/validate, which writes nothing.',
].join('\n\n');

export const serverInfo = (origin: string) => ({
  name: 'kartage-site',
  title: 'Kartage website',
  version: MCP_SERVER_VERSION,
  description: SERVER_DESCRIPTION,
  websiteUrl: `${origin}/developers`,
  icons: mcpIcons(origin),
});

/** One turn of the event loop: I/O waiting (another request, a static file) is served before what follows. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Request schemas of the methods served, checked first so malformed params are a readable -32602. */
const REQUESTS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'completion/complete': CompleteRequestSchema,
} as const;

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Every handler checks its request first: malformed params answer -32602 "Invalid params for …: path: reason".
 * And the messages of one request run one at a time, each after a turn of the event loop: the SDK starts every
 * message of a JSON-RPC batch at once, so without this a batch of searches held the loop for all of them (a
 * concurrent GET of a static page waited for the whole batch). The first message starts at once.
 */
function guardHandlers(server: Server): void {
  // The SDK parses requests with zod and lets the ZodError become -32603 with the raw issue dump.
  const handlers = (server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  let queue: Promise<unknown> | undefined;
  for (const [method, schema] of Object.entries(REQUESTS)) {
    const inner = handlers.get(method);
    if (!inner) continue;
    const run = async (request: unknown, extra: unknown) => {
      const parsed = (schema as z.ZodType).safeParse(request);
      if (!parsed.success)
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${readableIssues(parsed.error)}`);
      return inner(request, extra);
    };
    handlers.set(method, (request, extra) => {
      const previous = queue;
      const mine = previous
        ? previous.then(nextTurn).then(() => run(request, extra))
        : Promise.resolve().then(() => run(request, extra));
      queue = mine.catch(() => {});
      return mine;
    });
  }
}

export function buildMcpServer(d: McpDeps): Server {
  const origin = d.content.origin;
  const server = new Server(serverInfo(origin), {
    capabilities: { tools: {}, resources: {}, completions: {} },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(origin) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const t = TOOLS.find((x) => x.name === params.name);
    if (!t)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown tool "${String(params.name).slice(0, 100)}"; the tools are ${TOOLS.map((x) => x.name).join(', ')}`,
      );
    return t.call(d, params.arguments);
  });
  const { resources, resourceTemplates } = resourceList(origin, d.content.entries());
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => readResource(d, params.uri));
  server.setRequestHandler(CompleteRequestSchema, ({ params }) => completeSlug(d.content, params));
  guardHandlers(server);
  return server;
}
