/** @module getPagesBatch: POST /api/v1/pages/batch, up to LIMITS.batchMax pages in one request. */
import { LIMITS } from '../contract/limits.ts';
import { BatchRequestSchema, BatchResponseSchema } from '../contract/schemas.ts';
import { getPagesBatch as batch } from '../core/paging.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { errorDoc, READ_429, SAMPLE_PAGE, tooLargeDoc } from './docs.ts';

export const getPagesBatch = defineOperation({
  id: 'getPagesBatch',
  method: 'POST',
  path: '/api/v1/pages/batch',
  summary: `Up to ${LIMITS.batchMax} pages in one request.`,
  description:
    `Up to ${LIMITS.batchMax} pages in one request: one result per requested slug, in request order. ` +
    'A missing slug is marked in its result, not an HTTP error.',
  tag: 'Content',
  serve: { function: 'v1/pages/batch' },
  body: { schema: BatchRequestSchema, maxBytes: LIMITS.readBodyBytes, example: { slugs: ['pricing', 'nope'] } },
  responses: {
    200: {
      description: 'One result per slug.',
      schema: BatchResponseSchema,
      example: {
        count: 2,
        results: [
          { slug: 'pricing', found: true, page: { ...SAMPLE_PAGE, markdown: '# Pricing\n' } },
          { slug: 'nope', found: false, error: 'No page with slug "nope"' },
        ],
      },
      headers: RATE_HEADERS,
    },
    400: errorDoc(
      `\`slugs\` is missing, empty, not an array, or has more than ${LIMITS.batchMax} items; or the body is not JSON.`,
      `slugs must have at most ${LIMITS.batchMax} items`,
      400,
      RATE_HEADERS,
    ),
    413: tooLargeDoc(LIMITS.readBodyBytes),
    429: READ_429,
  },
  meter: 'read',
  cache: 'none',
  cors: true,
  data: ['pages'],
  public: true,
  handler: ({ deps, body }) => ({ status: 200, body: batch(deps.content, body.slugs) }),
});
