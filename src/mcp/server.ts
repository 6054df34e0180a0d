/**
 * @module The MCP server: four read-only tools that mirror the REST operations (same data, same search
 * engine) and resources for llms.txt, the sitemap, the OpenAPI document and the key pages as markdown,
 * plus a template for any page. Stateless: one server per request, so it advertises no `listChanged`
 * (it could never send the notification). Built on the SDK's low-level `Server` with the definitions
 * below, so `tools/list` and the build-time server card (src/build/mcp-server-card.ts) read the same
 * objects, and every error code is ours to choose: -32602 with a readable message for malformed params,
 * -32002 for a resource that does not exist, a tool error (`isError`) for bad tool arguments.
 *
 * A search query that is a question is also answered by the assistant (src/core/ask/answer.ts, as POST
 * /api/v1/ask): the quoted answer and its sections come first, beside the same page results.
 *
 * Sized for an agent's context: list and search default to 25 and 20 entries; a page's markdown comes
 * once (in the text; the structured result holds its fields); page reads and search results carry
 * `resource_link` items; every resource is read in parts of at most `PART_CHARS` characters.
 */
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ContentBlock,
  type Icon,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LIMITS } from '../contract/limits.ts';
import { PricingSchema, type Pricing } from '../contract/content.ts';
import { HandoffSchema } from '../contract/ask.ts';
import { isKeyPage, MCP_SERVER_VERSION, type McpToolName } from '../contract/mcp.ts';
import type { PageKind } from '../contract/content.ts';
import { buildOpenApi } from '../contract/openapi.ts';
import { MOVES, SEGMENTS, SLUG_PATTERN, WAREHOUSES, type Page } from '../contract/schemas.ts';
import { llmsTxt, MACHINE_FILES, sitemapXml } from '../build/site-files.ts';
import { listPages as listPagesOperation } from '../operations/list-pages.ts';
import { searchSite as searchSiteOperation } from '../operations/search-site.ts';
import { slugOfTwinPath, twinUrlOfSlug } from '../core/slugs.ts';
import type { ContentSource } from '../core/content-source.ts';
import { listPages } from '../core/pages.ts';
import { recommendPlan } from '../core/pricing.ts';
import { toolJsonSchema } from './schema-json.ts';
import { searchWithFallback } from './partial-search.ts';
import { askSite } from '../core/ask/answer.ts';
import { markdownTwin } from '../core/markdown-doc.ts';

export interface McpDeps {
  content: ContentSource;
  pricing: Pricing;
  /** Now, ms since the epoch: the assistant's handoff fits the hour. */
  now: () => number;
  /**
   * The build's OpenAPI document (dist/openapi.json, written by the derive step): the `openapi.json` resource
   * is its bytes. Absent, or built for another origin: the document is built from the operations instead.
   */
  openApiFile?: string;
}

/** Longest markdown one tool answer or resource read carries; longer texts come in parts. */
export const PART_CHARS = 12_000;
/** Defaults sized for an agent's context; `limit` still goes up to the contract's maximum. */
export const MCP_DEFAULTS = { searchLimit: 20, listLimit: 25 } as const;

/** -32002: the resource does not exist (MCP "Resources", error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** A JSON-RPC error with our message as is (McpError would prefix "MCP error <code>:" to it). */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export const SERVER_DESCRIPTION =
  'Read-only access to the Kartage website: search, pages as markdown, page index, pricing.';

const INSTRUCTIONS = [
  'Kartage makes operating software for moving, relocation and storage companies (quoting, CRM, ' +
    'scheduling and dispatch, crew app, storage billing, international moves, invoicing, customer portal, ' +
    'reporting). This server gives read-only access to the public website: product pages, solutions by ' +
    'segment, pricing, customer stories, blog posts and developer documentation. Everything is public; no ' +
    'authentication.',
  'Use search_kartage_site to find pages (given a question, it also answers from the site, quoting the ' +
    'sections with links to them), get_kartage_page to read one as markdown (long pages come in parts), ' +
    'list_kartage_pages to browse by section (prefix "blog/", "product/", ' +
    '"solutions/", "customers/"), and get_kartage_pricing for plans, add-ons and a plan recommendation. ' +
    'Cite page URLs, or the section URLs of an answer, in answers.',
  'Booking a demo or sending an enquiry is not a tool here: it is POST /api/lead on the website ' +
    '(described in /openapi.json), to be used only on behalf of a person who asked to be contacted, with ' +
    'their own details. Check a payload first with POST /api/v1/lead/validate, which writes nothing.',
].join('\n\n');

/** The site's favicon (public/favicon.svg) as the server's and the tools' icon. */
export const mcpIcons = (origin: string): Icon[] => [
  { src: `${origin}/favicon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] },
];

export const serverInfo = (origin: string) => ({
  name: 'kartage-site',
  title: 'Kartage website',
  version: MCP_SERVER_VERSION,
  description: SERVER_DESCRIPTION,
  websiteUrl: `${origin}/developers`,
  icons: mcpIcons(origin),
});

// ---------------------------------------------------------------------------------------------------
// Splitting long texts

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The last grapheme boundary at or before `max` (never inside a surrogate pair or an emoji sequence). */
export function graphemeCut(text: string, max: number): number {
  if (max >= text.length) return text.length;
  // Start the window on a boundary the segmenter can trust: not inside a surrogate pair, and at the start
  // of a run of regional indicators (flags pair them from the run's start).
  let from = Math.max(0, max - 64);
  if (/[\udc00-\udfff]/.test(text[from] ?? '')) from--;
  while (from >= 2 && /^\ud83c[\udde6-\uddff]$/.test(text.slice(from - 2, from))) from -= 2;
  let cut = from;
  for (const { index } of segmenter.segment(text.slice(from, max + 64))) {
    if (from + index > max) break;
    cut = from + index;
  }
  if (cut > from || (cut > 0 && from < max - 64)) return cut;
  // No boundary in reach (one cluster longer than the window): cut between code points.
  return /[\udc00-\udfff]/.test(text[max] ?? '') ? max - 1 : max;
}

/** Where to end a part of at most `max` characters: a paragraph break, else a line break, else a grapheme. */
function cutAt(rest: string, max: number): number {
  let cut = rest.lastIndexOf('\n\n', max);
  if (cut < max / 2) cut = rest.lastIndexOf('\n', max);
  if (cut < max / 2) cut = graphemeCut(rest, max);
  return cut;
}

/** The markdown of a page split into parts of at most `max` characters, at paragraph breaks where possible. */
export function splitMarkdown(markdown: string, max = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = markdown;
  while (rest.length > max) {
    const cut = cutAt(rest, max);
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  parts.push(rest);
  return parts;
}

/** A text split into parts of at most `max` characters whose concatenation is the text, byte for byte. */
export function splitExact(text: string, max = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = cutAt(rest, max);
    // Keep the line break with the part it ends, so joining the parts gives the text back.
    while (cut < max && rest[cut] === '\n') cut++;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts;
}

// ---------------------------------------------------------------------------------------------------
// Questions

/** Words that open a question ("how", "what's", "does", ...). */
const QUESTION_WORDS = new Set(
  ['how', 'what', 'when', 'where', 'which', 'who', 'whom', 'whose', 'why']
    .concat(['can', 'could', 'do', 'does', 'did', 'is', 'are', 'was', 'were', 'will', 'would', 'should'])
    .concat(['has', 'have']),
);
/** A query of this many words or more is read as a question. */
export const QUESTION_MIN_WORDS = 5;

/**
 * Whether a search query is a question the assistant should answer too: it ends with "?", starts with a question
 * word, or has five words or more. Keyword queries ("storage billing") are not.
 */
export function isQuestion(query: string): boolean {
  const q = query.trim();
  if (q.endsWith('?')) return true;
  const first = /^\p{L}+/u.exec(q)?.[0]?.toLowerCase();
  if (first && QUESTION_WORDS.has(first)) return true;
  return q.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length >= QUESTION_MIN_WORDS;
}

// ---------------------------------------------------------------------------------------------------
// Tool definitions

/**
 * The REST limits of the operations each tool mirrors (src/operations/: `mcp` names the tool), read from
 * their query schemas, so a tool cannot drift from its operation.
 */
function restLimits() {
  const search = z.toJSONSchema(searchSiteOperation.query!, { io: 'input' }) as unknown as {
    properties: { q: { maxLength: number } };
  };
  const list = z.toJSONSchema(listPagesOperation.query!, { io: 'input' }) as unknown as {
    properties: { cursor: { maxLength: number }; prefix: { maxLength: number } };
  };
  return {
    queryMax: search.properties.q.maxLength,
    cursorMax: list.properties.cursor.maxLength,
    prefixMax: list.properties.prefix.maxLength,
  };
}
export const REST_LIMITS = restLimits();

const SearchInput = z.object({
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
const PageInput = z.object({
  slug: z
    .string()
    .max(200)
    .regex(SLUG_PATTERN, 'a slug is lower-case letters, digits, "-" and "/"')
    .describe('Page slug, e.g. "pricing" or "blog/<post>".'),
  part: z.number().int().min(1).default(1).describe('Part of a long page, from 1.'),
  maxChars: z.number().int().min(1_000).max(PART_CHARS).default(PART_CHARS).describe('Largest part, in characters.'),
});
const ListInput = z.object({
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
const PricingInput = z.object({
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
const AnswerOut = z
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
const SearchOut = z.object({
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
const PageOut = z.object({
  ...summaryOut,
  part: z.number().int(),
  parts: z.number().int().describe('Ask for the next with `part`.'),
  chars: z.number().int().describe('Characters of markdown in this part (the markdown is the text content).'),
});
const ListOut = z.object({
  count: z.number().int(),
  pages: z.array(z.object(summaryOut)),
  nextCursor: z.string().optional(),
});
const PricingOut = PricingSchema.extend({
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

interface ToolDef<I extends z.ZodObject = z.ZodObject> {
  name: McpToolName;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  run(d: McpDeps, args: z.output<I>): CallToolResult;
}

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const toolError = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });
const markdownUri = twinUrlOfSlug;
const link = (origin: string, slug: string): ContentBlock => ({
  type: 'resource_link',
  uri: markdownUri(origin, slug),
  name: slug,
  mimeType: 'text/markdown',
});

const tool = <I extends z.ZodObject>(t: ToolDef<I>) => t as unknown as ToolDef;

/**
 * The assistant's answer to a question (src/core/ask/answer.ts, as POST /api/v1/ask gives it): the structured
 * `answer` (only the sections it quotes) and the text that comes first in the tool's content, the answer and then
 * each section with its heading, URL and text.
 */
function answerOf(d: McpDeps, question: string): { out: z.output<typeof AnswerOut>; text: string } {
  const origin = d.content.origin;
  const r = askSite({ index: d.content.askIndex(), pricing: d.pricing, origin, now: d.now() }, { question });
  const sections = r.sources
    .filter((s) => s.role === 'answer')
    .map(({ slug, title, heading, url, text }) => ({ slug, title, heading, url, text }));
  const handoff = r.handoff && { intent: r.handoff.intent, label: r.handoff.label, url: r.handoff.url };
  const lines = [
    `Answer from the Kartage website${r.answered ? ', quoted from the sections below (cite their URLs)' : ''}:`,
    '',
    r.answer,
    ...sections.flatMap((s, i) => [
      '',
      `Section ${i + 1}: ${s.heading ? `${s.title}: ${s.heading}` : s.title} (${s.url})`,
      '',
      s.text,
    ]),
    ...(handoff ? ['', `A person: ${handoff.label} (${handoff.url})`] : []),
  ];
  return { out: { answered: r.answered, answer: r.answer, sections, handoff }, text: lines.join('\n') };
}

export const TOOLS: readonly ToolDef[] = [
  tool({
    name: 'search_kartage_site',
    title: 'Search the Kartage website',
    description:
      'Ranked search over every page of the Kartage website (product, solutions, pricing, customers, blog, ' +
      'developer docs); same engine as GET /api/v1/search. Use it first, then read a page with get_kartage_page. ' +
      'When no page holds every term, returns the pages holding most of the words, marked "partial". A question ' +
      '(ending in "?", starting with how/what/can/does..., or of 5+ words) is also answered from the site, as ' +
      'POST /api/v1/ask does: `answer` holds sentences quoted from the sections it lists, each with a URL that ' +
      'lands on the section.',
    input: SearchInput,
    output: SearchOut,
    run(d, { query, limit }) {
      const origin = d.content.origin;
      const found = searchWithFallback({ content: d.content, index: d.content.searchIndex() }, query, limit);
      // The markdown URL travels once, as the resource_link; the text is a short ranked list.
      const result = { ...found, results: found.results.map(({ markdown_url: _m, ...r }) => r) };
      const answer = isQuestion(query) ? answerOf(d, query) : undefined;
      const out = answer ? { ...result, answer: answer.out } : result;
      const first = answer ? `${answer.text}\n\n` : '';
      if (!result.count)
        return { structuredContent: out, content: [text(`${first}No page matches "${query}". Try other words.`)] };
      const lines = result.results.map(
        (r, i) => `${i + 1}. ${r.title} (${r.slug})${r.matched ? ` [matches: ${r.matched.join(', ')}]` : ''}`,
      );
      const head =
        result.match === 'partial'
          ? `No page holds every word of "${query}"; ${result.count} pages holding most of them`
          : `${result.count} results for "${query}"`;
      const tail =
        'URLs and snippets are in the structured result; read a page with get_kartage_page or its resource link.';
      return {
        structuredContent: out,
        content: [
          text(`${first}${head}:\n${lines.join('\n')}\n${tail}`),
          ...result.results.map((r) => link(origin, r.slug)),
        ],
      };
    },
  }),
  tool({
    name: 'get_kartage_page',
    title: 'Read a Kartage page',
    description:
      'One page of the Kartage website as markdown, by slug ("index" is the home page, "pricing", ' +
      `"product/storage", "blog/<post>"). Pages over ${PART_CHARS.toLocaleString('en-AU')} characters come in ` +
      'parts: see `parts`, ask for the next with `part`. Same content as GET /api/v1/pages/{slug}.',
    input: PageInput,
    output: PageOut,
    run(d, { slug, part, maxChars }) {
      const page = d.content.page(slug);
      if (!page)
        return toolError(
          `No page with slug "${slug}". Find slugs with search_kartage_site or list_kartage_pages ` +
            '(for example "pricing", "product/quoting", "blog/…").',
        );
      const parts = splitMarkdown(page.markdown, maxChars);
      if (part > parts.length)
        return toolError(
          `Page "${slug}" has ${parts.length} part${parts.length === 1 ? '' : 's'}; part ${part} does not exist.`,
        );
      const markdown = parts[part - 1]!;
      const { markdown: _m, ...summary } = page;
      const out = { ...summary, part, parts: parts.length, chars: markdown.length };
      const more =
        part < parts.length
          ? `\n\n[Part ${part} of ${parts.length}: call get_kartage_page with part ${part + 1}` +
            `${maxChars === PART_CHARS ? '' : ` and maxChars ${maxChars}`} for more.]`
          : '';
      return { structuredContent: out, content: [text(markdown + more), link(d.content.origin, slug)] };
    },
  }),
  tool({
    name: 'list_kartage_pages',
    title: 'List Kartage pages',
    description:
      'The page index of the Kartage website without bodies (slug, title, URL, description, updated date), in ' +
      'slug order. Filter by `prefix` ("blog/", "product/", "solutions/", "customers/"); page through with ' +
      "`cursor` = the previous answer's nextCursor. Same as GET /api/v1/pages.",
    input: ListInput,
    output: ListOut,
    run(d, { prefix, cursor, limit }) {
      const result = listPages(d.content, { prefix, cursor, limit });
      const lines = result.pages.map((p) => `- ${p.slug}: ${p.title}`);
      const more = result.nextCursor ? `\nMore follow: call again with cursor "${result.nextCursor}".` : '';
      return {
        structuredContent: result,
        content: [
          text(
            `${result.count} pages${prefix ? ` under "${prefix}"` : ''} (URL: ${d.content.origin}/<slug>):\n` +
              `${lines.join('\n')}${more}`,
          ),
        ],
      };
    },
  }),
  tool({
    name: 'get_kartage_pricing',
    title: 'Kartage pricing',
    description:
      "Kartage's plans (AUD a month, GST excluded), add-ons, onboarding and trial, from the pricing page's data. " +
      'Give segment, warehouses and moves per year for a recommended plan with reasons.',
    input: PricingInput,
    output: PricingOut,
    run(d, needs) {
      const origin = d.content.origin;
      const recommendation = recommendPlan(d.pricing, needs);
      const out = { ...d.pricing, pricingUrl: `${origin}/pricing`, ...(recommendation ? { recommendation } : {}) };
      const money = (n: number) => `$${n.toLocaleString('en-AU')}`;
      const rows = d.pricing.plans.map(
        (p) =>
          `| ${p.name} | ${p.priceFrom ? 'from ' : ''}${money(p.monthly)} | ${p.officeUsers ?? 'unlimited'} | ` +
          `${p.movesPerYear} | ${p.warehouses} |`,
      );
      const rec = recommendation
        ? `\n\nRecommended: **${recommendation.name}** (${recommendation.priceFrom ? 'from ' : ''}` +
          `${money(recommendation.monthly)} a month). ${recommendation.reasons.join('; ')}.`
        : '';
      const body = [
        `Kartage plans, ${d.pricing.currency} per ${d.pricing.period}, GST excluded (${origin}/pricing):`,
        '',
        '| Plan | Price | Office users | Moves a year | Warehouses |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `Add-ons: ${d.pricing.addOns.map((a) => `${a.name} ${money(a.price)} ${a.unit}`).join('; ')}.`,
        `Onboarding from ${money(d.pricing.onboarding.from)}. ${d.pricing.annualDiscount} ` +
          `${d.pricing.trialDays}-day trial on plans that offer it.`,
      ].join('\n');
      return { structuredContent: out, content: [text(body + rec)] };
    },
  }),
];

const readOnly = { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false } as const;

/** The tools as `tools/list` gives them (and the server card lists them). */
export function toolList(origin: string): Tool[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: toolJsonSchema(t.input, 'input'),
    outputSchema: toolJsonSchema(t.output, 'output'),
    annotations: readOnly,
    icons: mcpIcons(origin),
  }));
}

// ---------------------------------------------------------------------------------------------------
// Resources

/** The OpenAPI text per built file and origin: read (or built) once per instance, never per request. */
const openApiTexts = new Map<string, string>();

/**
 * The `openapi.json` resource's text: the bytes of the build's file when there is one for this origin (so the
 * resource is the served file, byte for byte), else the document built from the operations, as the build
 * writes it. Either way once per instance: 100 reads used to build the document 100 times.
 */
export function openApiText(origin: string, file?: string): string {
  const key = `${file ?? ''}\n${origin}`;
  let body = openApiTexts.get(key);
  if (body !== undefined) return body;
  if (file) {
    try {
      const built = readFileSync(file, 'utf8');
      const servers = (JSON.parse(built) as { servers?: { url?: unknown }[] }).servers;
      if (servers?.[0]?.url === origin) body = built;
    } catch {
      // Absent or unreadable (a hand-made site in a test, a function bundle without dist/): build it.
    }
  }
  body ??= JSON.stringify(buildOpenApi(origin), null, 2);
  openApiTexts.set(key, body);
  return body;
}

/** The pages' summaries as llms.txt and the sitemap read them (summary fields only, no bodies). */
const summariesOf = (entries: readonly Summary[]): Page[] =>
  entries.map(({ tokens: _t, ...summary }) => summary) as Page[];

/** A page as the resource list sees it: no body. */
type Summary = Pick<Page, 'slug' | 'title' | 'description' | 'url' | 'updated'> & { tokens?: number; kind?: PageKind };

interface FixedResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(): string;
}

function fixedResources(
  origin: string,
  entries: readonly Summary[],
  pageOf: (slug: string) => Page | undefined = () => undefined,
  openApi: () => string = () => openApiText(origin),
): FixedResource[] {
  const partNote = ` Read in parts of at most ${PART_CHARS.toLocaleString('en-AU')} characters: add ?part=2 and so on.`;
  return [
    {
      uri: `${origin}/llms.txt`,
      name: 'llms.txt',
      title: 'llms.txt',
      description: `Site summary and index of every page as markdown (llmstxt.org).${partNote}`,
      mimeType: 'text/markdown',
      read: () => llmsTxt(summariesOf(entries), origin, MACHINE_FILES),
    },
    {
      uri: `${origin}/sitemap.xml`,
      name: 'sitemap',
      title: 'Sitemap',
      description: `Every published URL with its last-modified date.${partNote}`,
      mimeType: 'application/xml',
      read: () => sitemapXml(summariesOf(entries)),
    },
    {
      uri: `${origin}/openapi.json`,
      name: 'openapi',
      title: 'OpenAPI description',
      description: `The content, lead and sandbox API (OpenAPI 3.1).${partNote}`,
      mimeType: 'application/json',
      read: openApi,
    },
    ...entries
      .filter((p) => isKeyPage(p))
      .map((p) => ({
        uri: markdownUri(origin, p.slug),
        name: `page:${p.slug}`,
        title: p.title,
        description: p.description ?? p.title,
        mimeType: 'text/markdown',
        read: () => markdownTwin(pageOf(p.slug)!),
      })),
  ];
}

export const pageTemplate = (origin: string) => `${origin}/{+slug}.md{?part}`;

/** The resources and the page template as `resources/list` and `resources/templates/list` give them. */
export function resourceList(
  origin: string,
  entries: readonly Summary[],
): { resources: Resource[]; resourceTemplates: ResourceTemplate[] } {
  return {
    resources: fixedResources(origin, entries).map(({ read: _r, ...r }) => r),
    resourceTemplates: [
      {
        uriTemplate: pageTemplate(origin),
        name: 'page',
        title: 'Any page as markdown',
        description:
          'Any page of the site by slug, e.g. blog/planning-for-peak-season; long pages in parts of ' +
          `${PART_CHARS.toLocaleString('en-AU')} characters (?part=2).`,
        mimeType: 'text/markdown',
      },
    ],
  };
}

const notFound = (uri: string, why = 'list resources with resources/list or pages with list_kartage_pages') =>
  new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)}; ${why}`, { uri: uri.slice(0, 500) });

function readResource(d: McpDeps, uri: string): { contents: { uri: string; mimeType: string; text: string }[] } {
  const content = d.content;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new RpcError(ErrorCode.InvalidParams, `uri is not an absolute URI: ${uri.slice(0, 200)}`);
  }
  const origin = content.origin;
  const part = url.searchParams.get('part');
  if (url.origin !== origin || url.hash || [...url.searchParams.keys()].some((k) => k !== 'part')) throw notFound(uri);
  if (part !== null && !/^[1-9]\d{0,5}$/.test(part))
    throw new RpcError(ErrorCode.InvalidParams, `part must be a whole number from 1, not "${part.slice(0, 20)}"`);
  const base = `${url.origin}${url.pathname}`;
  let body: string | undefined;
  let mimeType = 'text/markdown';
  const fixed = fixedResources(
    origin,
    content.entries(),
    (slug) => content.page(slug),
    () => openApiText(origin, d.openApiFile),
  ).find((r) => r.uri === base);
  if (fixed) {
    body = fixed.read();
    mimeType = fixed.mimeType;
  } else {
    let slug: string | undefined;
    try {
      slug = slugOfTwinPath(decodeURIComponent(url.pathname));
    } catch {
      throw notFound(uri);
    }
    if (slug === undefined) throw notFound(uri);
    const page = content.page(slug);
    body = page && markdownTwin(page);
  }
  if (body === undefined) throw notFound(uri);
  const parts = splitExact(body);
  const n = Number(part ?? 1);
  if (n > parts.length) throw notFound(uri, `${base} has ${parts.length} part${parts.length === 1 ? '' : 's'}`);
  const more =
    n < parts.length ? `\n\n[Part ${n} of ${parts.length} of ${base}: read ${base}?part=${n + 1} for more.]` : '';
  return { contents: [{ uri, mimeType, text: parts[n - 1]! + more }] };
}

// ---------------------------------------------------------------------------------------------------
// The server

function readableIssues(error: z.ZodError | { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issues = error.issues.slice(0, 4).map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`);
  return issues.join('; ') + (error.issues.length > 4 ? `; and ${error.issues.length - 4} more` : '');
}

/** Request schemas of the methods served, checked first so malformed params are a readable -32602. */
const REQUESTS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'completion/complete': CompleteRequestSchema,
} as const;

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/** One turn of the event loop: I/O waiting (another request, a static file) is served before what follows. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every handler checks its request first: malformed params answer -32602 "Invalid params for …: path: reason".
 * And the messages of one request run one at a time, each after a turn of the event loop: the SDK starts every
 * message of a JSON-RPC batch at once, so without this a batch of searches held the loop for all of them (a
 * concurrent GET of a static page waited for the whole batch). The first message starts at once.
 */
function guardHandlers(server: Server): void {
  // The SDK parses requests with zod and lets the ZodError become -32603 with the raw issue dump.
  const handlers = (server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  let queue: Promise<unknown> | undefined;
  for (const [method, schema] of Object.entries(REQUESTS)) {
    const inner = handlers.get(method);
    if (!inner) continue;
    const run = async (request: unknown, extra: unknown) => {
      const parsed = (schema as z.ZodType).safeParse(request);
      if (!parsed.success)
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${readableIssues(parsed.error)}`);
      return inner(request, extra);
    };
    handlers.set(method, (request, extra) => {
      const previous = queue;
      const mine = previous
        ? previous.then(nextTurn).then(() => run(request, extra))
        : Promise.resolve().then(() => run(request, extra));
      queue = mine.catch(() => {});
      return mine;
    });
  }
}

export function buildMcpServer(d: McpDeps): Server {
  const origin = d.content.origin;
  const server = new Server(serverInfo(origin), {
    capabilities: { tools: {}, resources: {}, completions: {} },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(origin) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const t = TOOLS.find((x) => x.name === params.name);
    if (!t)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown tool "${String(params.name).slice(0, 100)}"; the tools are ${TOOLS.map((x) => x.name).join(', ')}`,
      );
    const args = t.input.safeParse(params.arguments ?? {});
    if (!args.success) return toolError(`Invalid arguments for ${t.name}: ${readableIssues(args.error)}`);
    return t.run(d, args.data);
  });
  const { resources, resourceTemplates } = resourceList(origin, d.content.entries());
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => readResource(d, params.uri));
  server.setRequestHandler(CompleteRequestSchema, ({ params }) => {
    if (
      params.ref.type !== 'ref/resource' ||
      params.ref.uri !== pageTemplate(origin) ||
      params.argument.name !== 'slug'
    ) {
      return { completion: { values: [], total: 0, hasMore: false } };
    }
    const matches = d.content
      .entries()
      .map((p) => p.slug)
      .filter((s) => s.startsWith(params.argument.value));
    return { completion: { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 } };
  });
  guardHandlers(server);
  return server;
}
