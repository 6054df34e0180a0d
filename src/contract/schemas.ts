/**
 * @module The contract (SPEC.md "Resources and their fields" and "Endpoints") as zod 4 schemas.
 * Validation, the OpenAPI document, MCP tool schemas, the site's forms and the tests all read these.
 */
import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { DIALCODE_PATTERN, INTENTS, MOVES, SEGMENTS, WAREHOUSES } from './lead-values.ts';

const F = LIMITS.lead_fields;

/** Page identifier: `index` is the home page, a blog post is `blog/<post>`. */
export const SLUG_PATTERN = /^[a-z0-9/-]+$/;
export const SlugSchema = z
  .string()
  .regex(SLUG_PATTERN)
  .meta({
    description: 'Page identifier. `index` is the home page; a blog post is `blog/<post>`.',
    examples: ['pricing', 'product/quoting', 'blog/planning-for-peak-season'],
  });

export const ErrorSchema = z
  .object({
    error: z.string().meta({ description: 'Human-readable reason.' }),
    status: z.int().optional().meta({ description: 'Repeated HTTP status code.' }),
  })
  .meta({ id: 'Error', description: 'Error body of every non-2xx JSON response.' });

export const PageSummarySchema = z
  .object({
    slug: SlugSchema,
    title: z.string().meta({ description: 'HTML document title.' }),
    description: z.string().optional().meta({ description: 'Meta description.' }),
    url: z.url().meta({ description: 'Canonical page URL.' }),
    markdown_url: z.url().optional().meta({ description: 'The same page as a standalone markdown document.' }),
    updated: z.iso.date().optional().meta({ description: 'Date the page was last published (YYYY-MM-DD, UTC).' }),
  })
  .meta({ id: 'PageSummary', description: 'A page without its body.' });
export type PageSummary = z.infer<typeof PageSummarySchema>;

export const PageSchema = PageSummarySchema.extend({
  markdown: z.string().meta({ description: 'Page body converted to markdown, with navigation and footer removed.' }),
}).meta({ id: 'Page', description: 'A full page.' });
export type Page = z.infer<typeof PageSchema>;

export const SearchResultSchema = z
  .object({
    slug: SlugSchema,
    title: z.string().meta({ description: 'Page title.' }),
    url: z.url().meta({ description: 'Canonical page URL.' }),
    markdown_url: z.url().optional().meta({ description: 'Markdown version of the page.' }),
    snippet: z.string().meta({ description: 'Text around the first match.' }),
    score: z.int().meta({ description: 'Relevance; higher is better.' }),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResultSchema>;

export { DIALCODE_PATTERN, INTENTS, MOVES, SEGMENTS, WAREHOUSES };

/** Lead as the contract defines it: the shape a clean payload has. Validation outcomes live in core/lead-validation. */
export const LeadSchema = z
  .object({
    name: z.string().min(1).max(F.name).meta({ description: 'Full name of the person enquiring.' }),
    email: z.email().max(F.email).meta({ description: 'Work email address.' }),
    company: z.string().max(F.company).optional().meta({ description: 'Company name.' }),
    phone: z
      .string()
      .max(F.phone)
      .optional()
      .meta({ description: 'Phone number in local format; paired with dialcode.' }),
    dialcode: z
      .string()
      .regex(DIALCODE_PATTERN)
      .default('+61')
      .meta({ description: 'International calling code for phone.' }),
    country: z.string().max(F.country).optional().meta({ description: 'Country they operate in.' }),
    message: z.string().max(F.message).optional().meta({ description: 'What they want to know.' }),
    intent: z
      .enum(INTENTS)
      .default('enquiry')
      .meta({ description: '`demo` books a walkthrough; `enquiry` is a question.' }),
    segment: z.enum(SEGMENTS).optional().meta({ description: 'Kind of moving work they do.' }),
    warehouses: z.enum(WAREHOUSES).optional().meta({ description: 'Number of warehouses they run.' }),
    moves: z.enum(MOVES).optional().meta({ description: 'Moves per year.' }),
  })
  .meta({
    id: 'Lead',
    description: 'Request payload of lead submission and of the sandbox.',
    examples: [
      {
        name: 'Sam Taylor',
        email: 'sam@harbourline.example',
        company: 'Harbourline Removals',
        phone: '0412 345 678',
        dialcode: '+61',
        country: 'Australia',
        message: 'We run 38 trucks and want to see quoting and scheduling.',
        intent: 'demo',
        segment: 'Local & interstate',
        warehouses: '1',
        moves: '2,000-10,000',
      },
    ],
  });
export type Lead = z.output<typeof LeadSchema>;
export type LeadInput = z.input<typeof LeadSchema>;
export const LEAD_FIELDS = Object.keys(LeadSchema.shape) as (keyof Lead)[];

export const ProblemSchema = z.object({
  field: z.string().meta({ description: 'The offending field.' }),
  error: z.string().meta({ description: 'What is wrong and what is allowed.' }),
});
export type Problem = z.infer<typeof ProblemSchema>;

export const LeadValidationSchema = z
  .object({
    sandbox: z.literal(true).meta({ description: 'Always true; nothing was written.' }),
    wouldSubmit: z.boolean().meta({ description: 'Whether lead submission would accept the payload.' }),
    problems: z.array(ProblemSchema).meta({ description: 'Empty when the payload is good.' }),
    note: z.string().optional().meta({ description: 'How to submit the payload for real.' }),
  })
  .meta({ id: 'LeadValidation', description: 'Sandbox answer: what lead submission would do with the payload.' });
export type LeadValidation = z.infer<typeof LeadValidationSchema>;

export const LeadAcceptedSchema = z
  .object({ ok: z.boolean().meta({ description: 'True when the lead was accepted.' }) })
  .meta({ id: 'LeadAccepted' });

/** Query integers arrive as strings; anything but a plain integer in range is a 400 (DESIGN.md section 2). */
const queryInt = (min: number, max: number, dflt: number, what: string, description: string) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${what} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z.number().min(min, `${what} must be from ${min} to ${max}`).max(max, `${what} must be from ${min} to ${max}`),
    )
    .optional()
    .transform((v) => v ?? dflt)
    .meta({ type: 'integer', minimum: min, maximum: max, default: dflt, description });

export const ListPagesQuerySchema = z.object({
  limit: queryInt(
    LIMITS.listLimit.min,
    LIMITS.listLimit.max,
    LIMITS.listLimit.default,
    'limit',
    'Maximum pages to return.',
  ),
  cursor: z
    .string()
    .max(300)
    .optional()
    .meta({ description: 'The `nextCursor` of the previous response (the last slug returned).' }),
  prefix: z
    .string()
    .max(300)
    .optional()
    .meta({ description: 'Only pages whose slug starts with this value.', example: 'blog/' }),
});
export type ListPagesQuery = z.output<typeof ListPagesQuerySchema>;

export const ListPagesResponseSchema = z
  .object({
    count: z.int().meta({ description: 'Number of pages returned.' }),
    pages: z.array(PageSummarySchema),
    nextCursor: z.string().optional().meta({ description: 'Present when more pages follow; absent on the last page.' }),
  })
  .meta({ id: 'PageList' });
export type ListPagesResponse = z.infer<typeof ListPagesResponseSchema>;

export const SearchQuerySchema = z.object({
  q: z
    .string({ error: 'q is required: the search terms, at least 2 characters' })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(LIMITS.searchMinLength, 'q must be at least 2 characters after trimming')
        .max(500, 'q must be at most 500 characters'),
    )
    .meta({
      description: 'Search terms. All terms must appear.',
      example: 'storage billing',
      minLength: LIMITS.searchMinLength,
      maxLength: 500,
    }),
  limit: queryInt(
    LIMITS.searchLimit.min,
    LIMITS.searchLimit.max,
    LIMITS.searchLimit.default,
    'limit',
    'Maximum results.',
  ),
});

export const SearchResponseSchema = z
  .object({
    query: z.string().meta({ description: 'Echo of q.' }),
    count: z.int().meta({ description: 'Number of results returned.' }),
    results: z.array(SearchResultSchema),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const BatchRequestSchema = z
  .object({
    slugs: z
      .array(z.string(), { error: 'slugs must be an array of page slugs' })
      .min(1, 'slugs must have at least 1 item')
      .max(LIMITS.batchMax, `slugs must have at most ${LIMITS.batchMax} items`)
      .meta({ description: 'Slugs from listPages, 1 to 50.' }),
  })
  .meta({ id: 'BatchRequest', examples: [{ slugs: ['pricing', 'product/storage'] }] });

const echoedSlug = z.string().meta({ description: 'Echo of the requested slug.' });
/** One slug's result: `found: true` with its page, or `found: false` with why not (a union on `found`). */
export const BatchResultSchema = z.discriminatedUnion('found', [
  z.object({ slug: echoedSlug, found: z.literal(true), page: PageSchema.meta({ description: 'The page.' }) }),
  z.object({
    slug: echoedSlug,
    found: z.literal(false),
    error: z.string().meta({ description: 'Why the page was not returned.' }),
  }),
]);
export type BatchResult = z.infer<typeof BatchResultSchema>;
export const BatchResponseSchema = z
  .object({ count: z.int(), results: z.array(BatchResultSchema) })
  .meta({ id: 'BatchResponse' });
export type BatchResponse = z.infer<typeof BatchResponseSchema>;

export const GetPageParamsSchema = z.object({ slug: SlugSchema });
