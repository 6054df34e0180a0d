/**
 * @module The MCP server, assembled: four read-only tools that mirror the REST operations (src/mcp/tools.ts) and
 * resources for llms.txt, the sitemap, the OpenAPI document and the key pages as markdown, plus a template for
 * any page (src/mcp/resources.ts). Stateless: one server per request, so it advertises no `listChanged` (it could
 * never send the notification). Built on the SDK's low-level `Server` with those definitions, so `tools/list`
 * and the build-time server card (src/build/mcp-server-card.ts) read the same objects, and every error code is
 * ours to choose: -32602 with a readable message for malformed params, -32002 for a resource that does not
 * exist, a tool error (`isError`) for bad tool arguments.
 *
 * Every handler is wrapped when it is registered (the SDK's own `initialize` and `ping` included), through
 * `setRequestHandler`, the SDK's public way to register one: its request is checked first, and the messages of
 * one request run one at a time, a turn of the event loop apart.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Notification,
  type Request,
  type Result,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
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

/**
 * The schema the SDK is given for a request schema: it holds the same method (the SDK routes by its literal) and
 * takes any request of it, then checks the request against `schema` and, when it does not fit, throws -32602
 * "Invalid params for <method>: path: reason"; the handler gets the parsed request as before. The SDK parses a
 * request with its registered schema before anything else (a `Server` then checks tools/call on its own) and
 * would answer a failure -32603 with zod's raw issue dump; zod lets an error thrown in a check through as is
 * (zod docs, "Refinements"), so this message is the answer.
 */
function checked<T extends AnyObjectSchema>(schema: T): T {
  // The SDK's request schemas are zod 4 objects with a `method` literal.
  const strict = schema as unknown as z.ZodObject<{ method: z.ZodLiteral<string> }>;
  const method = strict.shape.method.value;
  const any = z.looseObject({ method: z.literal(method) }).overwrite((request) => {
    const parsed = strict.safeParse(request);
    if (!parsed.success)
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${readableIssues(parsed.error)}`);
    return parsed.data;
  });
  return any as unknown as T;
}

/** A request handler as `Server.setRequestHandler` takes it. */
type Handler<T extends AnyObjectSchema> = (
  request: SchemaOutput<T>,
  extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
) => ServerResult | Result | Promise<ServerResult | Result>;

/**
 * The SDK's `Server` with every request handler wrapped as it is registered. Its request is checked first
 * (`checked`). And the messages of one request run one at a time, each after a turn of the event loop: the SDK
 * starts every message of a JSON-RPC batch at once, so without this a batch of searches held the loop for all
 * of them (a concurrent GET of a static page waited for the whole batch). The first message starts at once.
 */
class SiteServer extends Server {
  /** The message that runs last, settled either way: the next one starts a turn after it. */
  private last: Promise<unknown> | undefined;

  // Also called by the SDK's constructors, for `ping` and `initialize`: this object's fields are not set yet
  // then, and the handler reads them only when a request comes.
  override setRequestHandler<T extends AnyObjectSchema>(schema: T, handler: Handler<T>): void {
    super.setRequestHandler(checked(schema), (request, extra) => this.inTurn(() => handler(request, extra)));
  }

  private inTurn<R>(run: () => R | Promise<R>): Promise<R> {
    const previous = this.last;
    const mine = previous ? previous.then(nextTurn).then(run) : Promise.resolve().then(run);
    this.last = mine.catch(() => {});
    return mine;
  }
}

export function buildMcpServer(d: McpDeps): Server {
  const origin = d.content.origin;
  const server = new SiteServer(serverInfo(origin), {
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
  return server;
}
