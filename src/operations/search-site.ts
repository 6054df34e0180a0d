/** @module searchSite: GET /api/v1/search, ranked full-text search (src/core/search/engine.ts). */
import { LIMITS } from '../contract/limits.ts';
import { SearchQuerySchema, SearchResponseSchema } from '../contract/schemas.ts';
import { searchSite as search } from '../core/search/engine.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { badReadDoc, PUBLIC_READ, READ_429 } from './docs.ts';

const { min, max } = LIMITS.searchLimit;

export const searchSite = defineOperation({
  id: 'searchSite',
  method: 'GET',
  path: '/api/v1/search',
  summary: 'Ranked full-text search.',
  description:
    'Ranked full-text search. Every content word of the query must appear in a result, in some word form ' +
    '(stemming, Australian and US spellings, listed abbreviations); case and accents are ignored.',
  tag: 'Content',
  serve: { function: 'v1/search' },
  query: SearchQuerySchema,
  responses: {
    200: {
      description: 'Ranked results, best first.',
      schema: SearchResponseSchema,
      example: {
        query: 'storage billing',
        count: 1,
        results: [
          {
            slug: 'product/storage',
            title: 'Storage | Kartage',
            url: 'https://kartage.com.au/product/storage',
            markdown_url: 'https://kartage.com.au/product/storage.md',
            snippet: '… run storage billing for every unit and vault in minutes …',
            score: 412,
          },
        ],
      },
      headers: [...RATE_HEADERS, 'Vary', 'Cache-Control'],
    },
    400: badReadDoc(
      `\`q\` is missing or shorter than ${LIMITS.searchMinLength} characters, or \`limit\` is not from ${min} to ${max}.`,
      `q must be at least ${LIMITS.searchMinLength} characters after trimming`,
    ),
    429: READ_429,
  },
  ...PUBLIC_READ,
  mcp: 'search_kartage_site',
  data: ['search'],
  handler: ({ deps, query }) => {
    const content = deps.content;
    return { status: 200, body: search({ content, index: content.searchIndex() }, query.q, query.limit) };
  },
});
