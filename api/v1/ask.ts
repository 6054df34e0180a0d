// The askSite operation (src/operations/ask-site.ts) as a Vercel function.
import { askSite } from '../../src/operations/ask-site.ts';
import { vercelFunction } from '../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(askSite);
