// POST /mcp (rewritten to /api/mcp): MCP over Streamable HTTP, stateless; every other method answers 405 with Allow.
import { deps } from '../src/adapters/deps.ts';
import { guarded } from '../src/adapters/handler.ts';
import { handleMcp, mcpHosts } from '../src/mcp/http.ts';

const handle = (request: Request) =>
  guarded(async () => {
    const d = deps();
    return handleMcp(request, d, mcpHosts(process.env, d.content().data.origin));
  }, request);

export const POST = handle;
export const GET = handle;
export const DELETE = handle;
export const OPTIONS = handle;
export const PUT = handle;
export const PATCH = handle;
