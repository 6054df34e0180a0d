/**
 * @module The MCP server: four read-only tools that mirror the REST operations (same data, same search
 * ranking) and resources for llms.txt, the sitemap, the OpenAPI document and the key pages as markdown,
 * plus a template for any page. Stateless: one server per request (STYLE.md, SDK example
 * `honoWebStandardStreamableHttp.ts`).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { LIMITS } from '../contract/limits.ts';
import { PricingSchema, type Pricing } from '../contract/content.ts';
import { isKeyPage, MCP_SERVER_VERSION } from '../contract/mcp.ts';
import { buildOpenApi } from '../contract/openapi.ts';
import {
  ListPagesResponseSchema, MOVES, PageSummarySchema, SearchResponseSchema, SEGMENTS, SLUG_PATTERN, WAREHOUSES,
} from '../contract/schemas.ts';
import { llmsTxt, MACHINE_FILES, sitemapXml } from '../build/site-files.ts';
import { toPage, type Content, type ContentPage } from '../core/content.ts';
import { listPages } from '../core/pages.ts';
import { recommendPlan } from '../core/pricing.ts';
import { searchSite, type SearchDeps } from '../core/search.ts';
import { markdownTwin } from '../core/markdown-doc.ts';

export interface McpDeps {
  content: Content;
  search: SearchDeps;
  pricing: Pricing;
}

/** Longest markdown one tool answer carries; longer pages come in parts. */
export const PART_CHARS = 12_000;

const INSTRUCTIONS = `Kartage makes operating software for moving, relocation and storage companies (quoting, CRM, scheduling and dispatch, crew app, storage billing, international moves, invoicing, customer portal, reporting). This server gives read-only access to the public website: product pages, solutions by segment, pricing, customer stories, blog posts and developer documentation. Everything is public; no authentication.

Use search_kartage_site to find pages for a question, get_kartage_page to read one as markdown (long pages come in parts), list_kartage_pages to browse by section (prefix "blog/", "product/", "solutions/", "customers/"), and get_kartage_pricing for plans, add-ons and a plan recommendation. Cite page URLs in answers.

Booking a demo or sending an enquiry is not a tool here: it is POST /api/lead on the website (described in /openapi.json), to be used only on behalf of a person who asked to be contacted, with their own details. Check a payload first with POST /api/v1/lead/validate, which writes nothing.`;

const readOnly = { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false } as const;

/** The markdown of a page split into parts of at most `PART_CHARS`, at paragraph breaks where possible. */
export function splitMarkdown(markdown: string, max = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = markdown;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n\n', max);
    if (cut < max / 2) cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  parts.push(rest);
  return parts;
}

const PageSummaryOut = PageSummarySchema.extend({}).shape;
const PagePartOut = {
  ...PageSummaryOut,
  markdown: z.string().describe('This part of the page as markdown.'),
  part: z.number().int().describe('Which part this is, from 1.'),
  parts: z.number().int().describe('How many parts the page has; ask for the next with `part`.'),
};
const RecommendationOut = z.object({
  plan: z.string(), name: z.string(), monthly: z.number(), priceFrom: z.boolean(), reasons: z.array(z.string()),
});
const PricingOut = {
  ...PricingSchema.shape,
  pricingUrl: z.string(),
  recommendation: RecommendationOut.optional().describe('Present when segment, warehouses or moves was given.'),
};

const text = (t: string) => [{ type: 'text' as const, text: t }];
const toolError = (message: string) => ({ isError: true, content: text(message) });

export function buildMcpServer(d: McpDeps): McpServer {
  const origin = d.content.data.origin;
  const server = new McpServer({ name: 'kartage-site', title: 'Kartage website', version: MCP_SERVER_VERSION, websiteUrl: `${origin}/developers` }, { instructions: INSTRUCTIONS });

  server.registerTool(
    'search_kartage_site',
    {
      title: 'Search the Kartage website',
      description: 'Ranked full-text search over every page of kartage.com.au (product, solutions, pricing, customers, blog, developer docs). Every term must appear. Use it first to find the pages that answer a question, then read them with get_kartage_page. Same results as GET /api/v1/search.',
      inputSchema: {
        query: z.string().trim().min(LIMITS.searchMinLength).max(200).describe('Search terms, e.g. "storage billing" or "crew app offline".'),
        limit: z.number().int().min(LIMITS.searchLimit.min).max(LIMITS.searchLimit.max).default(LIMITS.searchLimit.default).describe('Maximum results (1-50).'),
      },
      outputSchema: SearchResponseSchema.shape,
      annotations: { title: 'Search the Kartage website', ...readOnly },
    },
    async ({ query, limit }) => {
      const result = searchSite(d.search, query, limit);
      const lines = result.results.map((r, i) => `${i + 1}. [${r.title}](${r.url}) (slug \`${r.slug}\`, score ${r.score})\n   ${r.snippet}`);
      return { structuredContent: result, content: text(result.count ? `${result.count} results for "${query}":\n\n${lines.join('\n')}` : `No page contains every term of "${query}". Try fewer or other words.`) };
    },
  );

  server.registerTool(
    'get_kartage_page',
    {
      title: 'Read a Kartage page',
      description: `One page of kartage.com.au as markdown, by slug ("index" is the home page, "pricing", "product/storage", "blog/<post>"). Pages longer than ${PART_CHARS.toLocaleString('en-AU')} characters come in parts: read \`parts\` and ask for the next with \`part\`. Same content as GET /api/v1/pages/{slug}.`,
      inputSchema: {
        slug: z.string().regex(SLUG_PATTERN, 'a slug is lower-case letters, digits, "-" and "/"').max(200).describe('Page slug, from search_kartage_site or list_kartage_pages.'),
        part: z.number().int().min(1).default(1).describe('Part of a long page to return, from 1.'),
        maxChars: z.number().int().min(1_000).max(PART_CHARS).default(PART_CHARS).describe(`Largest part to return, in characters (1,000-${PART_CHARS.toLocaleString('en-AU')}); smaller parts keep a context window light.`),
      },
      outputSchema: PagePartOut,
      annotations: { title: 'Read a Kartage page', ...readOnly },
    },
    async ({ slug, part, maxChars }) => {
      const page = d.content.bySlug.get(slug);
      if (!page) return toolError(`No page with slug "${slug}". Find slugs with search_kartage_site or list_kartage_pages (for example "pricing", "product/quoting", "blog/…").`);
      const parts = splitMarkdown(page.markdown, maxChars);
      if (part > parts.length) return toolError(`Page "${slug}" has ${parts.length} part${parts.length === 1 ? '' : 's'}; part ${part} does not exist.`);
      const { markdown: _m, ...summary } = toPage(page);
      const out = { ...summary, markdown: parts[part - 1]!, part, parts: parts.length };
      const more = part < parts.length ? `\n\n[Part ${part} of ${parts.length}: call get_kartage_page with part ${part + 1}${maxChars === PART_CHARS ? '' : ` and maxChars ${maxChars}`} for more.]` : '';
      return { structuredContent: out, content: text(out.markdown + more) };
    },
  );

  server.registerTool(
    'list_kartage_pages',
    {
      title: 'List Kartage pages',
      description: 'The page index of kartage.com.au without bodies: slug, title, URL, description, updated date, in slug order. Filter by `prefix` ("blog/", "product/", "solutions/", "customers/"); page through with `cursor` = the previous answer\'s nextCursor. Same as GET /api/v1/pages.',
      inputSchema: {
        prefix: z.string().max(200).optional().describe('Only slugs starting with this, e.g. "blog/".'),
        cursor: z.string().max(200).optional().describe('nextCursor of the previous answer.'),
        limit: z.number().int().min(LIMITS.listLimit.min).max(LIMITS.listLimit.max).default(LIMITS.listLimit.default).describe('Maximum pages (1-100).'),
      },
      outputSchema: ListPagesResponseSchema.shape,
      annotations: { title: 'List Kartage pages', ...readOnly },
    },
    async ({ prefix, cursor, limit }) => {
      const result = listPages(d.content, { prefix, cursor, limit });
      const lines = result.pages.map((p) => `- \`${p.slug}\`: ${p.title} (${p.url})`);
      const more = result.nextCursor ? `\n\nMore pages follow: call again with cursor "${result.nextCursor}".` : '';
      return { structuredContent: result, content: text(`${result.count} pages${prefix ? ` under "${prefix}"` : ''}:\n${lines.join('\n')}${more}`) };
    },
  );

  server.registerTool(
    'get_kartage_pricing',
    {
      title: 'Kartage pricing',
      description: 'Kartage\'s plans (AUD per month, GST excluded), add-ons, onboarding and trial terms, from the same data as the pricing page. Give the company\'s segment, warehouses and moves per year to get a recommended plan with reasons.',
      inputSchema: {
        segment: z.enum(SEGMENTS).optional().describe('Kind of moving work.'),
        warehouses: z.enum(WAREHOUSES).optional().describe('Number of warehouses run.'),
        moves: z.enum(MOVES).optional().describe('Moves per year.'),
      },
      outputSchema: PricingOut,
      annotations: { title: 'Kartage pricing', ...readOnly },
    },
    async (needs) => {
      const recommendation = recommendPlan(d.pricing, needs);
      const out = { ...d.pricing, pricingUrl: `${origin}/pricing`, ...(recommendation ? { recommendation } : {}) };
      const money = (n: number) => `$${n.toLocaleString('en-AU')}`;
      const rows = d.pricing.plans.map((p) => `| ${p.name} | ${p.priceFrom ? 'from ' : ''}${money(p.monthly)} | ${p.officeUsers ?? 'unlimited'} | ${p.movesPerYear} | ${p.warehouses} |`);
      const rec = recommendation ? `\n\nRecommended: **${recommendation.name}** (${recommendation.priceFrom ? 'from ' : ''}${money(recommendation.monthly)} a month). ${recommendation.reasons.join('; ')}.` : '';
      const body = [
        `Kartage plans, ${d.pricing.currency} per ${d.pricing.period}, GST excluded (${origin}/pricing):`,
        '',
        '| Plan | Price | Office users | Moves a year | Warehouses |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `Add-ons: ${d.pricing.addOns.map((a) => `${a.name} ${money(a.price)} ${a.unit}`).join('; ')}.`,
        `Onboarding from ${money(d.pricing.onboarding.from)}. ${d.pricing.annualDiscount} ${d.pricing.trialDays}-day trial on plans that offer it.`,
      ].join('\n');
      return { structuredContent: out, content: text(body + rec) };
    },
  );

  // Resources: the machine-readable files and the key pages, under their public URLs.
  const pages = d.content.data.pages;
  server.registerResource('llms.txt', `${origin}/llms.txt`, { title: 'llms.txt', description: 'Site summary and index of every page as markdown (llmstxt.org).', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: llmsTxt(pages.map(toPage), origin, MACHINE_FILES) }],
  }));
  server.registerResource('sitemap', `${origin}/sitemap.xml`, { title: 'Sitemap', description: 'Every published URL with its last-modified date.', mimeType: 'application/xml' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/xml', text: sitemapXml(pages.map(toPage)) }],
  }));
  server.registerResource('openapi', `${origin}/openapi.json`, { title: 'OpenAPI description', description: 'The content, lead and sandbox API (OpenAPI 3.1).', mimeType: 'application/json' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(buildOpenApi(origin), null, 2) }],
  }));
  for (const page of pages.filter((p) => isKeyPage(p.slug))) {
    server.registerResource(`page:${page.slug}`, page.markdown_url ?? `${origin}/${page.slug}.md`, { title: page.title, description: page.description, mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: markdownTwin(page) }],
    }));
  }
  server.registerResource(
    'page',
    new ResourceTemplate(`${origin}/{+slug}.md`, {
      list: undefined,
      complete: { slug: (value) => pages.map((p) => p.slug).filter((s) => s.startsWith(value)).slice(0, 100) },
    }),
    { title: 'Any page as markdown', description: 'Any page of the site by slug, e.g. blog/planning-for-peak-season.', mimeType: 'text/markdown' },
    async (uri, { slug }) => {
      const page: ContentPage | undefined = d.content.bySlug.get(String(slug));
      if (!page) throw new Error(`No page with slug "${String(slug).slice(0, 200)}"; list slugs with list_kartage_pages`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: markdownTwin(page) }] };
    },
  );
  return server;
}
