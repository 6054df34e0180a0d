/**
 * @module The site-wide text files derived from the published pages: llms.txt (llmstxt.org), llms-full.txt,
 * sitemap.xml and robots.txt.
 */
import type { Page } from '../contract/schemas.ts';

/** Sections of llms.txt, in order; the first whose test matches a slug takes the page. */
const SECTIONS: { title: string; test: (slug: string) => boolean }[] = [
  { title: 'Start here', test: (s) => ['index', 'pricing', 'demo', 'contact'].includes(s) },
  { title: 'Product', test: (s) => s.startsWith('product/') || s === 'changelog' },
  { title: 'Solutions', test: (s) => s.startsWith('solutions/') },
  { title: 'Customers', test: (s) => s === 'customers' || s.startsWith('customers/') },
  { title: 'Developers', test: (s) => ['developers', 'auth', 'api-deprecation-policy'].includes(s) },
  { title: 'Company', test: (s) => ['about', 'careers', 'partners', 'security', 'faq'].includes(s) },
  { title: 'Blog', test: (s) => s === 'blog' || s.startsWith('blog/') },
  { title: 'Optional', test: () => true },
];

export interface MachineFile { path: string; note: string }

/** The machine-readable files llms.txt lists (and the MCP llms.txt resource, built by the same function). */
export const MACHINE_FILES: readonly MachineFile[] = [
  { path: '/openapi.json', note: 'OpenAPI 3.1 description of the content, lead and sandbox API (also /openapi.yaml).' },
  { path: '/api/v1/pages', note: 'Page index as JSON; one page at /api/v1/pages/{slug}; search at /api/v1/search?q=.' },
  { path: '/mcp', note: 'MCP server (Streamable HTTP, POST only): search, read and list pages, and pricing.' },
  { path: '/llms-full.txt', note: 'Every page of the site as markdown in one file.' },
  { path: '/sitemap.xml', note: 'Every published URL with its last-modified date.' },
  { path: '/.well-known/mcp.json', note: 'MCP server manifest (MCP registry server.json format).' },
  { path: '/.well-known/ard.json', note: 'Catalogue of agentic resources (ARD manifest): the MCP server, the API description, this file and the lead sandbox.' },
  { path: '/.well-known/api-catalog', note: 'API catalogue (RFC 9727 linkset) pointing at the API descriptions and documentation.' },
  { path: '/api/v1/sandbox', note: 'Where the lead validation sandbox is and what it checks; it writes nothing.' },
  { path: '/auth.md', note: 'Statement that no authentication is needed, and which headers matter.' },
  { path: '/api-deprecation-policy', note: 'How API operations are deprecated and withdrawn.' },
];

const oneLine = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** llms.txt: H1, summary blockquote, H2 sections of `[name](url): note` links to every page's markdown twin. */
export function llmsTxt(pages: Page[], origin: string, files: readonly MachineFile[]): string {
  const out = [
    '# Kartage',
    '',
    '> Kartage is Australian operating software for moving, relocation and storage companies: quoting, CRM, scheduling and dispatch, a crew app, storage billing, international moves, invoicing, a customer portal, reporting and integrations. This site\'s content is public and readable by agents as markdown, through a read-only JSON API and an MCP server; no authentication is needed.',
    '',
    'Every page below links to its markdown version. Lead submission (POST /api/lead) is only for a person who asked to be contacted; use the sandbox (POST /api/v1/lead/validate) to check a payload first.',
  ];
  const bySection = new Map<string, Page[]>();
  for (const p of pages) {
    const section = SECTIONS.find((s) => s.test(p.slug))!.title;
    bySection.set(section, [...(bySection.get(section) ?? []), p]);
  }
  for (const { title } of SECTIONS) {
    if (title === 'Optional') continue;
    const list = bySection.get(title);
    if (!list?.length) continue;
    out.push('', `## ${title}`, '', ...list.map((p) => `- [${oneLine(p.title)}](${p.markdown_url ?? p.url}): ${oneLine(p.description)}`));
  }
  out.push('', '## Machine-readable files', '', ...files.map((f) => `- [${f.path}](${origin}${f.path}): ${f.note}`));
  const optional = bySection.get('Optional');
  if (optional?.length) out.push('', '## Optional', '', ...optional.map((p) => `- [${oneLine(p.title)}](${p.markdown_url ?? p.url}): ${oneLine(p.description)}`));
  return out.join('\n') + '\n';
}

/** llms-full.txt: every page's markdown, one after another. */
export function llmsFullTxt(pages: Page[]): string {
  return ['# Kartage: every page as markdown', '', ...pages.map((p) => `${p.markdown.trim()}\n\n---\n`)].join('\n');
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** sitemap.xml of every published page, with lastmod. */
export function sitemapXml(pages: Page[]): string {
  const urls = pages.map((p) => `  <url><loc>${xmlEscape(p.url)}</loc>${p.updated ? `<lastmod>${p.updated}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

const AI_CRAWLERS = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'Meta-ExternalAgent', 'Amazonbot', 'DuckAssistBot', 'MistralAI-User'];

/** robots.txt: open to every crawler, AI crawlers named explicitly; the search page is not for indexing. */
export function robotsTxt(origin: string): string {
  return [
    '# Kartage welcomes search engines and AI crawlers. Markdown versions: append .md to any page URL.',
    ...AI_CRAWLERS.map((ua) => `User-agent: ${ua}`),
    'Allow: /',
    '',
    'User-agent: *',
    'Allow: /',
    'Disallow: /search',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
