// The askSite operation (src/operations/ask-site.ts) as a Vercel function. Written by npm run gen:vercel.
import { askSite } from '../../src/operations/ask-site.ts';
import { vercelFunction } from '../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(askSite);
