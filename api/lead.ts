// The submitLead operation (src/operations/submit-lead.ts) as a Vercel function. Written by npm run gen:vercel.
import { submitLead } from '../src/operations/submit-lead.ts';
import { vercelFunction } from '../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(submitLead);
