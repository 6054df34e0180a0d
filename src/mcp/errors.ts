/**
 * @module The MCP server's errors: a JSON-RPC error with our own message, and zod issues as one readable
 * line. Malformed params are -32602 "Invalid params for <method>: path: reason" (src/mcp/server.ts), bad tool
 * arguments a tool error "Invalid arguments for <tool>: …" (src/mcp/tools.ts), a resource that does not exist
 * -32002 (src/mcp/resources.ts).
 */

/** -32002: the resource does not exist (MCP "Resources", error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** A JSON-RPC error with our message as is (McpError would prefix "MCP error <code>:" to it). */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The first four issues of a failed parse as `path: reason`, joined by "; ". */
export function readableIssues(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  const issues = error.issues.slice(0, 4).map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`);
  return issues.join('; ') + (error.issues.length > 4 ? `; and ${error.issues.length - 4} more` : '');
}
