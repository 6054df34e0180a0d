// The validateLead operation (src/operations/validate-lead.ts) as a Vercel function. Written by npm run gen:vercel.
import { validateLead } from '../../../src/operations/validate-lead.ts';
import { vercelFunction } from '../../../src/http/vercel.ts';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(validateLead);
