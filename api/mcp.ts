// The mcp operation (src/operations/index.ts) as a Vercel function. Written by npm run gen:vercel.
import { mcp } from '../src/operations/index.ts';
import { vercelFunction } from '../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(mcp);
