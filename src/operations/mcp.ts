/**
 * @module mcp: POST /mcp, the Model Context Protocol over Streamable HTTP, stateless (src/mcp/transport.ts for
 * the transport rules, src/mcp/server.ts for the server, src/mcp/tools.ts and src/mcp/resources.ts for what it
 * offers). GET and DELETE answer 405.
 */
import { LIMITS } from '../contract/limits.ts';
import { MCP_TOOLS } from '../contract/mcp.ts';
import { defineOperation, RATE_HEADERS, type JsonSchema, type ResponseSpec } from '../http/operation.ts';
import { errorDoc, KB, READ_429 } from './docs.ts';

/** Most messages of one JSON-RPC batch (the contract module's limit). */
export const MCP_BATCH_MAX = LIMITS.mcpBatchMax;

const JSONRPC_VERSION = { const: '2.0' };
const JSONRPC_ERROR_OBJECT = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
};
/** The JSON-RPC error the MCP SDK answers protocol-level refusals with. */
const JSONRPC_ERROR: JsonSchema = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: JSONRPC_VERSION,
    id: { type: ['string', 'integer', 'null'] },
    error: JSONRPC_ERROR_OBJECT,
  },
};
const JSONRPC_ID = {
  type: ['string', 'integer'],
  description: 'Request id: a string or an integer (MCP: never null).',
};
const JSONRPC_PARAMS = { type: 'object', description: 'Parameters by name.' };
const JSONRPC_METHOD = { type: 'string', examples: ['initialize', 'tools/list', 'tools/call', 'resources/read'] };
/** One kind of JSON-RPC 2.0 message: `jsonrpc` and these members. */
const rpcMessage = (title: string, required: string[], properties: JsonSchema): JsonSchema => ({
  type: 'object',
  title,
  required: ['jsonrpc', ...required],
  properties: { jsonrpc: JSONRPC_VERSION, ...properties },
});
// The kinds exclude each other by `id` and `method` (`false`: absent); `anyOf`, as linters cannot tell.
const JSONRPC_MESSAGE = [
  // A request: the server answers it (a JSON-RPC response with the same id).
  rpcMessage('JSON-RPC request', ['id', 'method'], { id: JSONRPC_ID, method: JSONRPC_METHOD, params: JSONRPC_PARAMS }),
  // A notification: no id, no answer (202).
  rpcMessage('JSON-RPC notification', ['method'], {
    id: false,
    method: { type: 'string', examples: ['notifications/initialized'] },
    params: JSONRPC_PARAMS,
  }),
  // A client's response to a request of the server's (MCP allows it in a POST; 202).
  rpcMessage('JSON-RPC response', ['id'], {
    id: JSONRPC_ID,
    method: false,
    result: { type: 'object' },
    error: JSONRPC_ERROR_OBJECT,
  }),
];
/** What a POST to /mcp carries: one JSON-RPC 2.0 message, or a batch of them (protocols before 2025-06-18). */
const JSONRPC_BODY: JsonSchema = {
  anyOf: [
    ...JSONRPC_MESSAGE,
    {
      type: 'array',
      title: 'JSON-RPC batch',
      minItems: 1,
      maxItems: MCP_BATCH_MAX,
      items: { anyOf: JSONRPC_MESSAGE },
    },
  ],
};

const rpcError = (description: string, code: number, message: string): ResponseSpec => ({
  description,
  schema: JSONRPC_ERROR,
  example: { jsonrpc: '2.0', error: { code, message }, id: null },
});

/**
 * The mcp operation. `openApi` gives the OpenAPI document's text for an origin, built from the list of operations
 * that holds this one (src/operations/index.ts passes it in: this file cannot import that list).
 */
export const mcpOperation = (openApi: (origin: string) => string) =>
  defineOperation({
    id: 'mcp',
    method: 'POST',
    path: '/mcp',
    summary: 'MCP over Streamable HTTP',
    description:
      `Model Context Protocol (Streamable HTTP, stateless). Public, read-only: tools ${MCP_TOOLS.join(', ')}, ` +
      'plus resources. Send `Accept: application/json, text/event-stream` and a JSON-RPC 2.0 message. Every ' +
      'other method answers 405 (no server-initiated stream, no sessions); JSON-RPC batches only for protocols ' +
      `before 2025-06-18, of at most ${MCP_BATCH_MAX} messages, each a read.`,
    tag: 'MCP',
    serve: { function: 'mcp' },
    ownBody: { schema: JSONRPC_BODY, example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    responses: {
      200: {
        description: 'A JSON-RPC response (JSON or an SSE stream); an array for a batch (protocols before 2025-06-18).',
        schema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] },
        headers: RATE_HEADERS,
        also: ['text/event-stream'],
      },
      202: { description: 'Accepted (notifications and responses).' },
      400: {
        description:
          'Not a valid JSON-RPC message (a JSON-RPC error from the MCP SDK), or a Host or Origin that is not ' +
          'allowed (the Error body).',
        schema: { oneOf: [JSONRPC_ERROR, { $ref: '#/components/schemas/Error' }] },
        example: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null },
      },
      406: rpcError(
        'The Accept header lacks application/json or text/event-stream.',
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      ),
      413: errorDoc(
        `The body is larger than ${KB(LIMITS.readBodyBytes)}, or a JSON-RPC batch holds more than ${MCP_BATCH_MAX} ` +
          'messages (nothing of it is run).',
        `Request body is larger than ${LIMITS.readBodyBytes} bytes`,
        413,
      ),
      415: rpcError(
        'The body is not `application/json`.',
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      ),
      429: READ_429,
    },
    meter: 'read',
    cache: 'none',
    cors: true,
    data: ['entries', 'pages', 'search', 'ask'],
    public: true,
    refuses: [
      {
        method: 'GET',
        id: 'mcpGet',
        summary: 'No server-initiated stream',
        description: 'Always 405: a stateless Streamable HTTP server opens no stream of its own (MCP transport spec).',
      },
      {
        method: 'DELETE',
        id: 'mcpDelete',
        summary: 'No sessions to end',
        description: 'Always 405: the server is stateless and hands out no session to end (MCP transport spec).',
      },
    ],
    handler: async ({ request, deps, headers }) => {
      // Loaded on first use: the MCP SDK stays out of the bundles that hold the operation list (the middleware).
      const { handleMcp } = await import('../mcp/transport.ts');
      return { response: await handleMcp(request, deps, headers, openApi) };
    },
  });
