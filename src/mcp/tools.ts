/**
 * @module The MCP server's four read-only tools, mirroring the REST operations (same data, same search engine):
 * what each does with its checked arguments, and how `tools/list` (and the build's server card) describe them.
 * A tool's arguments are checked when it is called, by the wrapper `tool()` puts around it: arguments that do
 * not fit its input schema are a tool error (`isError`) naming them, never a protocol error, so an agent reads
 * what to fix.
 *
 * A search query that is a question is also answered by the assistant (src/core/ask/answer.ts, as POST
 * /api/v1/ask): the quoted answer and its sections come first, beside the same page results.
 *
 * Sized for an agent's context: list and search default to 25 and 20 entries; a page's markdown comes once (in
 * the text; the structured result holds its fields); page reads and search results carry `resource_link` items.
 */
import type { CallToolResult, ContentBlock, Icon, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpToolName } from '../contract/mcp.ts';
import { askSite } from '../core/ask/answer.ts';
import { listPages } from '../core/paging.ts';
import { recommendPlan } from '../core/plans.ts';
import { twinUrlOfSlug } from '../contract/slugs.ts';
import type { McpDeps } from './deps.ts';
import { readableIssues } from './errors.ts';
import { searchWithFallback } from './partial-search.ts';
import {
  type AnswerOut,
  ListInput,
  ListOut,
  PageInput,
  PageOut,
  PricingInput,
  PricingOut,
  SearchInput,
  SearchOut,
} from './tool-schemas.ts';
import { toolJsonSchema } from './schema-json.ts';
import { PART_CHARS, splitMarkdown } from './split.ts';

/** The site's favicon (public/favicon.svg) as the server's and the tools' icon. */
export const mcpIcons = (origin: string): Icon[] => [
  { src: `${origin}/favicon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] },
];

interface ToolDef<I extends z.ZodObject> {
  name: McpToolName;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  /**
   * The mirrored operation's name of each argument it names otherwise (search's `query` is the REST `q`), so the
   * mirror test (tests/mcp/mirror.test.ts) pairs every query parameter of the operation with its argument.
   */
  restNames?: Partial<Record<keyof z.input<I>, string>>;
  run(d: McpDeps, args: z.output<I>): CallToolResult;
}

/** A tool as the server holds it: its definition, and `call`, which checks the arguments before running it. */
export interface McpTool extends Omit<ToolDef<z.ZodObject>, 'run' | 'restNames'> {
  restNames?: Readonly<Record<string, string | undefined>>;
  call(d: McpDeps, args: unknown): CallToolResult;
}

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const toolError = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });
const link = (origin: string, slug: string): ContentBlock => ({
  type: 'resource_link',
  uri: twinUrlOfSlug(origin, slug),
  name: slug,
  mimeType: 'text/markdown',
});

/**
 * A tool definition with its arguments check around it: absent arguments are `{}`, and arguments that do not fit
 * the input schema are the tool error "Invalid arguments for <tool>: path: reason".
 */
function tool<I extends z.ZodObject>({ run, ...def }: ToolDef<I>): McpTool {
  return {
    ...def,
    call(d, args) {
      const parsed = def.input.safeParse(args ?? {});
      if (!parsed.success) return toolError(`Invalid arguments for ${def.name}: ${readableIssues(parsed.error)}`);
      return run(d, parsed.data);
    },
  };
}

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

export const TOOLS: readonly McpTool[] = [
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
    restNames: { query: 'q' },
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
