/**
 * @module The MCP tools' input and output schemas (zod; src/mcp/schema-json.ts turns them into the JSON Schema of
 * `tools/list`). Inputs keep the REST limits of the operations the tools mirror, read from the contract's query
 * schemas those operations declare (tests/mcp/mirror.test.ts checks every operation with `mcp:` against its
 * tool), so a tool cannot drift from its operation; only the defaults are smaller, sized for an agent's context.
 */
import { z } from 'zod';
import { HandoffSchema } from '../contract/ask.ts';
import { PricingSchema } from '../contract/content.ts';
import { LIMITS } from '../contract/limits.ts';
import {
  ListPagesQuerySchema,
  MOVES,
  SearchQuerySchema,
  SEGMENTS,
  SLUG_PATTERN,
  WAREHOUSES,
} from '../contract/schemas.ts';
import { PART_CHARS } from './split.ts';

/** Defaults sized for an agent's context; `limit` still goes up to the contract's maximum. */
export const MCP_DEFAULTS = { searchLimit: 20, listLimit: 25 } as const;

/** The REST limits of the operations each tool mirrors, read from the contract's query schemas they declare. */
function restLimits() {
  const search = z.toJSONSchema(SearchQuerySchema, { io: 'input' }) as unknown as {
    properties: { q: { maxLength: number } };
  };
  const list = z.toJSONSchema(ListPagesQuerySchema, { io: 'input' }) as unknown as {
    properties: { cursor: { maxLength: number }; prefix: { maxLength: number } };
  };
  return {
    queryMax: search.properties.q.maxLength,
    cursorMax: list.properties.cursor.maxLength,
    prefixMax: list.properties.prefix.maxLength,
  };
}
export const REST_LIMITS = restLimits();

export const SearchInput = z.object({
  query: z
    .string()
    .trim()
    .min(LIMITS.searchMinLength)
    .max(REST_LIMITS.queryMax)
    .describe('What to look for: a few words or a question.'),
  limit: z
    .number()
    .int()
    .min(LIMITS.searchLimit.min)
    .max(LIMITS.searchLimit.max)
    .default(MCP_DEFAULTS.searchLimit)
    .describe('Maximum results.'),
});
export const PageInput = z.object({
  slug: z
    .string()
    .max(200)
    .regex(SLUG_PATTERN, 'a slug is lower-case letters, digits, "-" and "/"')
    .describe('Page slug, e.g. "pricing" or "blog/<post>".'),
  part: z.number().int().min(1).default(1).describe('Part of a long page, from 1.'),
  maxChars: z.number().int().min(1_000).max(PART_CHARS).default(PART_CHARS).describe('Largest part, in characters.'),
});
export const ListInput = z.object({
  prefix: z.string().max(REST_LIMITS.prefixMax).optional().describe('Only slugs starting with this, e.g. "blog/".'),
  cursor: z
    .string()
    .max(REST_LIMITS.cursorMax)
    .regex(SLUG_PATTERN, 'cursor must be the nextCursor of a previous answer (a page slug)')
    .optional()
    .describe('nextCursor of the previous answer.'),
  limit: z
    .number()
    .int()
    .min(LIMITS.listLimit.min)
    .max(LIMITS.listLimit.max)
    .default(MCP_DEFAULTS.listLimit)
    .describe('Maximum pages.'),
});
export const PricingInput = z.object({
  segment: z.enum(SEGMENTS).optional().describe('Kind of moving work.'),
  warehouses: z.enum(WAREHOUSES).optional().describe('Warehouses run.'),
  moves: z.enum(MOVES).optional().describe('Moves per year.'),
});

const summaryOut = {
  slug: z.string(),
  title: z.string(),
  url: z.string().describe('Canonical page URL; cite it.'),
  markdown_url: z.string().optional(),
  description: z.string().optional(),
  updated: z.string().optional().describe('YYYY-MM-DD'),
};
export const AnswerOut = z
  .object({
    answered: z
      .boolean()
      .describe('Whether the site answers it; when false, `answer` says so and lists related pages.'),
    answer: z.string().describe('Markdown quoted from `sections` (pricing arithmetic shows its working).'),
    sections: z
      .array(
        z.object({
          slug: z.string(),
          title: z.string(),
          heading: z.string().nullable().describe('null: the page intro.'),
          url: z.string().describe('Lands on the section; cite it.'),
          text: z.string().describe("The section's markdown."),
        }),
      )
      .describe('The sections the answer quotes, best first.'),
    handoff: z
      .object({ intent: z.enum(HandoffSchema.shape.intent.options), label: z.string(), url: z.string() })
      .nullable()
      .describe('A person to turn to: when one was asked for, or the site has no answer.'),
  })
  .optional()
  .describe('Questions only: the answer from the site, as POST /api/v1/ask gives it.');
export const SearchOut = z.object({
  query: z.string(),
  count: z.number().int(),
  match: z
    .enum(['all', 'partial'])
    .describe('"all": each result holds every term; "partial": none did, so results hold most of the words.'),
  results: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      url: z.string(),
      snippet: z.string(),
      score: z.number().int(),
      matched: z.array(z.string()).optional().describe('Partial matches: the query words this page holds.'),
    }),
  ),
  answer: AnswerOut,
});
export const PageOut = z.object({
  ...summaryOut,
  part: z.number().int(),
  parts: z.number().int().describe('Ask for the next with `part`.'),
  chars: z.number().int().describe('Characters of markdown in this part (the markdown is the text content).'),
});
export const ListOut = z.object({
  count: z.number().int(),
  pages: z.array(z.object(summaryOut)),
  nextCursor: z.string().optional(),
});
export const PricingOut = PricingSchema.extend({
  pricingUrl: z.string(),
  recommendation: z
    .object({
      plan: z.string(),
      name: z.string(),
      monthly: z.number(),
      priceFrom: z.boolean(),
      reasons: z.array(z.string()),
    })
    .optional()
    .describe('Present when segment, warehouses or moves was given.'),
});
