// The mcp operation (src/operations/mcp.ts) as a Vercel function.
import { mcp } from '../src/operations/mcp.ts';
import { vercelFunction } from '../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(mcp);
