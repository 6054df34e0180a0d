// The searchSite operation (src/operations/search-site.ts) as a Vercel function. Written by npm run gen:vercel.
import { searchSite } from '../../src/operations/search-site.ts';
import { vercelFunction } from '../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(searchSite);
