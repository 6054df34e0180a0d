/** @module listPages: GET /api/v1/pages, the page index without bodies. */
import { LIMITS } from '../contract/limits.ts';
import { ListPagesQuerySchema, ListPagesResponseSchema } from '../contract/schemas.ts';
import { listPages as list } from '../core/paging.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { badReadDoc, PUBLIC_READ, READ_429, SAMPLE_PAGE } from './docs.ts';

const { min, max } = LIMITS.listLimit;

export const listPages = defineOperation({
  id: 'listPages',
  method: 'GET',
  path: '/api/v1/pages',
  summary: 'Page index without bodies.',
  description:
    'Page index without bodies, in ascending slug order. Continue with `cursor` = `nextCursor` until it is absent.',
  tag: 'Content',
  serve: { function: 'v1/pages/index' },
  query: ListPagesQuerySchema,
  responses: {
    200: {
      description: 'A page of the index.',
      schema: ListPagesResponseSchema,
      example: { count: 1, pages: [SAMPLE_PAGE], nextCursor: 'pricing' },
      headers: [...RATE_HEADERS, 'Vary', 'Cache-Control'],
    },
    400: badReadDoc(
      `\`limit\` is not a whole number from ${min} to ${max}.`,
      `limit must be a whole number from ${min} to ${max}`,
    ),
    429: READ_429,
  },
  ...PUBLIC_READ,
  mcp: 'list_kartage_pages',
  data: ['entries'],
  handler: ({ deps, query }) => ({ status: 200, body: list(deps.content, query) }),
});
