/**
 * @module The site-wide text files derived from the published pages: llms.txt (llmstxt.org), llms-full.txt,
 * sitemap.xml, sitemap.md (the same index as markdown, grouped by section) and robots.txt.
 */
import { MACHINE_READABLE as FILES, type MachineReadable } from '../contract/links.ts';
import { CONTENT_SIGNAL } from '../contract/routes.ts';
import type { PageKind } from '../contract/content.ts';
import type { Page } from '../contract/schemas.ts';
import { BLOG_FOLDER, sectionOf } from '../contract/slugs.ts';

/**
 * A published page as llms.txt and sitemap.md group it: the contract's Page and its kind (src/core/content.ts
 * ContentPage carries it). A page whose kind a caller left out can only be grouped by its folder.
 */
export type SitePage = Page & { kind?: PageKind };

/** The folder a page belongs to: a listing is the index of the folder its slug names (`blog` of `blog/...`). */
const folderOfPage = (p: SitePage) => (p.kind === 'listing' ? p.slug : sectionOf(p.slug));

/** Kinds that start a visit: the home page, pricing and the lead forms. */
const START_KINDS: readonly (PageKind | undefined)[] = ['home', 'pricing', 'form'];

/** Sections of llms.txt, in order; the first whose test matches a page takes it. */
const SECTIONS: { title: string; test: (p: SitePage) => boolean }[] = [
  { title: 'Start here', test: (p) => START_KINDS.includes(p.kind) },
  { title: 'Product', test: (p) => folderOfPage(p) === 'product' || p.slug === 'changelog' },
  { title: 'Solutions', test: (p) => folderOfPage(p) === 'solutions' },
  { title: 'Customers', test: (p) => folderOfPage(p) === 'customers' },
  { title: 'Developers', test: (p) => ['developers', 'auth', 'api-deprecation-policy'].includes(p.slug) },
  { title: 'Company', test: (p) => ['about', 'careers', 'partners', 'security', 'faq'].includes(p.slug) },
  { title: 'Blog', test: (p) => folderOfPage(p) === BLOG_FOLDER },
  { title: 'Optional', test: () => true },
];

export interface MachineFile {
  path: string;
  note: string;
}

/** The machine-readable files llms.txt lists (and the MCP llms.txt resource, built by the same function). */
export const MACHINE_FILES: readonly MachineFile[] = Object.values(FILES as Record<string, MachineReadable>).flatMap(
  (f) => (f.note ? [{ path: f.path, note: f.note }] : []),
);

const oneLine = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Pages grouped by llms.txt's sections, in section order ('Optional' last). */
function bySection(pages: readonly SitePage[]): Map<string, SitePage[]> {
  const out = new Map<string, SitePage[]>(SECTIONS.map((s) => [s.title, []]));
  for (const p of pages) out.get(SECTIONS.find((s) => s.test(p))!.title)!.push(p);
  return out;
}

/** llms.txt: H1, summary blockquote, H2 sections of `[name](url): note` links to every page's markdown twin. */
export function llmsTxt(pages: readonly SitePage[], origin: string, files: readonly MachineFile[]): string {
  const out = [
    '# Kartage',
    '',
    "> Kartage is Australian operating software for moving, relocation and storage companies: quoting, CRM, scheduling and dispatch, a crew app, storage billing, international moves, invoicing, a customer portal, reporting and integrations. This site's content is public and readable by agents as markdown, through a read-only JSON API and an MCP server; no authentication is needed.",
    '',
    'Every page below links to its markdown version. Lead submission (POST /api/lead) is only for a person who asked to be contacted; use the sandbox (POST /api/v1/lead/validate) to check a payload first.',
  ];
  const sections = bySection(pages);
  for (const { title } of SECTIONS) {
    if (title === 'Optional') continue;
    const list = sections.get(title);
    if (!list?.length) continue;
    out.push(
      '',
      `## ${title}`,
      '',
      ...list.map((p) => `- [${oneLine(p.title)}](${p.markdown_url ?? p.url}): ${oneLine(p.description)}`),
    );
  }
  out.push('', '## Machine-readable files', '', ...files.map((f) => `- [${f.path}](${origin}${f.path}): ${f.note}`));
  const optional = sections.get('Optional');
  if (optional?.length)
    out.push(
      '',
      '## Optional',
      '',
      ...optional.map((p) => `- [${oneLine(p.title)}](${p.markdown_url ?? p.url}): ${oneLine(p.description)}`),
    );
  return `${out.join('\n')}\n`;
}

/** llms-full.txt: every page's markdown, one after another. */
export function llmsFullTxt(pages: Page[]): string {
  return ['# Kartage: every page as markdown', '', ...pages.map((p) => `${p.markdown.trim()}\n\n---\n`)].join('\n');
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** sitemap.xml of every published page, with lastmod. */
export function sitemapXml(pages: Page[]): string {
  const urls = pages.map(
    (p) => `  <url><loc>${xmlEscape(p.url)}</loc>${p.updated ? `<lastmod>${p.updated}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * sitemap.md: every published page with its title and absolute URL, grouped as llms.txt groups them (the
 * "Optional" pages under "Other pages"), for agents that read markdown rather than parse XML.
 */
export function sitemapMd(pages: readonly SitePage[], origin: string): string {
  const out = [
    '# Kartage sitemap',
    '',
    `> Every published page of ${origin}, grouped by section. Each page is also markdown: append \`.md\` to its ` +
      `URL, or send \`Accept: text/markdown\`. The XML sitemap is [sitemap.xml](${origin}${FILES.sitemap.path}); ` +
      `the site summary is [llms.txt](${origin}${FILES.llmsTxt.path}).`,
  ];
  for (const [title, list] of bySection(pages)) {
    if (!list.length) continue;
    out.push('', `## ${title === 'Optional' ? 'Other pages' : title}`, '');
    for (const p of list) {
      const title = oneLine(p.title).replace(/[[\]]/g, '\\$&');
      out.push(`- [${title}](${p.url})${p.updated ? ` (updated ${p.updated})` : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

const AI_CRAWLERS = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'Meta-ExternalAgent',
  'Amazonbot',
  'DuckAssistBot',
  'MistralAI-User',
];

/**
 * robots.txt: open to every crawler, AI crawlers named explicitly; the search page (a client-side
 * search box, no content of its own) is not for crawling. Each group lists `Disallow: /search` before
 * `Allow: /`, so a first-match parser (Python's urllib.robotparser) and an RFC 9309 longest-match parser
 * read the same rules.
 */
export function robotsTxt(origin: string): string {
  const rules = [`Content-Signal: ${CONTENT_SIGNAL}`, 'Disallow: /search', 'Allow: /'];
  return [
    '# Kartage welcomes search engines and AI crawlers. Markdown versions: append .md to any page URL.',
    `# Every page as a markdown index: ${origin}${FILES.sitemapMd.path}; site summary for agents: ${origin}${FILES.llmsTxt.path}`,
    '# Content-Signal (https://contentsignals.org): search, AI input and AI training are all welcome.',
    ...AI_CRAWLERS.map((ua) => `User-agent: ${ua}`),
    ...rules,
    '',
    'User-agent: *',
    ...rules,
    '',
    `Sitemap: ${origin}${FILES.sitemap.path}`,
    '',
  ].join('\n');
}
