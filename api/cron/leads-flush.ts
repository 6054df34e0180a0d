// The leadsFlush operation (src/operations/leads-flush.ts) as a Vercel function. Written by npm run gen:vercel.
import { leadsFlush } from '../../src/operations/leads-flush.ts';
import { vercelFunction } from '../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(leadsFlush);
