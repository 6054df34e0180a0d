/**
 * @module getPage: GET /api/v1/pages/{slug}. Answered by the middleware in front of the static files: the
 * pipeline meters it, then the page's prebuilt JSON (`/api/v1/pages/<slug>.json`) or, with `Accept:
 * text/markdown`, its `.md` twin is served in its place, with the metered answer's headers.
 */
import { GetPageParamsSchema, PageSchema } from '../contract/schemas.ts';
import { isSlug, pageJsonPathOfSlug, twinPathOfSlug } from '../contract/slugs.ts';
import { wantsMarkdown } from '../http/accept.ts';
import { markdownHeaders } from '../http/edge.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { notFound } from '../http/answers.ts';
import { errorDoc, PUBLIC_READ, READ_429, SAMPLE_PAGE } from './docs.ts';

const MARKDOWN_EXAMPLE = '# Pricing\n\nPlans for every size of moving business.\n';

export const getPage = defineOperation({
  id: 'getPage',
  method: 'GET',
  path: '/api/v1/pages/{slug}',
  summary: 'One page.',
  description: 'One page as JSON, or as a standalone markdown document when the request sends `Accept: text/markdown`.',
  tag: 'Content',
  serve: 'middleware',
  params: GetPageParamsSchema,
  responses: {
    200: {
      description: 'The page.',
      schema: PageSchema,
      example: { ...SAMPLE_PAGE, markdown: MARKDOWN_EXAMPLE },
      headers: [...RATE_HEADERS, 'Vary', 'ETag', 'Cache-Control'],
      also: ['text/markdown'],
    },
    304: { description: 'Not modified (the `If-None-Match` ETag matches).', headers: ['ETag'] },
    404: {
      ...errorDoc(
        'No such page. With `Accept: text/markdown` the body is markdown.',
        'No page with slug "nope". List slugs at /api/v1/pages.',
        404,
        ['Vary'],
      ),
      also: ['text/markdown'],
    },
    429: READ_429,
  },
  ...PUBLIC_READ,
  mcp: 'get_kartage_page',
  data: ['entry'],
  handler({ request, deps, params }) {
    const { slug = '' } = params;
    const content = deps.content;
    const entry = isSlug(slug) ? content.entry(slug) : undefined;
    if (!entry) {
      const path = new URL(request.url).pathname;
      const error = `No page with slug "${slug.slice(0, 200)}". List slugs at /api/v1/pages.`;
      return { response: notFound(request, path, content.origin, error) };
    }
    if (wantsMarkdown(request.headers.get('accept'))) {
      return { type: 'rewrite', path: twinPathOfSlug(slug), headers: markdownHeaders(entry) };
    }
    const headers = { 'Content-Type': 'application/json; charset=utf-8' };
    return { type: 'rewrite', path: pageJsonPathOfSlug(slug), headers };
  },
});
