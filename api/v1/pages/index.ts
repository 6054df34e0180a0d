// The listPages operation (src/operations/list-pages.ts) as a Vercel function. Written by npm run gen:vercel.
import { listPages } from '../../../src/operations/list-pages.ts';
import { vercelFunction } from '../../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(listPages);
