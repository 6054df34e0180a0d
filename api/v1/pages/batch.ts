// The getPagesBatch operation (src/operations/get-pages-batch.ts) as a Vercel function. Written by npm run gen:vercel.
import { getPagesBatch } from '../../../src/operations/get-pages-batch.ts';
import { vercelFunction } from '../../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(getPagesBatch);
