/**
 * The site files line by line (src/core/site-files.ts): llms.txt's header, its sections in order with the
 * pages each takes (by kind, folder or named slug), its link lines, the machine-readable files and the
 * Optional section last; llms-full.txt, sitemap.xml (escaped URLs, lastmod), sitemap.md and robots.txt's
 * named AI crawlers.
 *
 * The module is loaded inside each test, after vi.resetModules(): its section table, the AI crawler list
 * and MACHINE_FILES are built when the module loads, and a file that imports it at the top has built them
 * before any test (or a mutation runner's per-test switch) starts.
 */
import { describe, expect, it, vi } from 'vitest';
import { MACHINE_READABLE, type MachineReadable } from '../../src/contract/links.ts';
import type { SitePage } from '../../src/core/site-files.ts';

const load = async () => {
  vi.resetModules();
  return import('../../src/core/site-files.ts');
};

const O = 'https://x.test';
const page = (slug: string, kind: SitePage['kind'], extra: Partial<SitePage> = {}): SitePage => ({
  slug,
  kind,
  title: `T ${slug}`,
  description: `D ${slug}`,
  url: `${O}/${slug}`,
  markdown_url: `${O}/${slug}.md`,
  markdown: '',
  ...extra,
});
/** The llms.txt line of a page made by `page` (title and description as made there). */
const line = (slug: string) => `- [T ${slug}](${O}/${slug}.md): D ${slug}`;

const HEADER = [
  '# Kartage',
  '',
  "> Kartage is Australian operating software for moving, relocation and storage companies: quoting, CRM, scheduling and dispatch, a crew app, storage billing, international moves, invoicing, a customer portal, reporting and integrations. This site's content is public and readable by agents as markdown, through a read-only JSON API and an MCP server; no authentication is needed.",
  '',
  'Every page below links to its markdown version. Lead submission (POST /api/lead) is only for a person who asked to be contacted; use the sandbox (POST /api/v1/lead/validate) to check a payload first.',
];

/** One page for every rule of every section, in an order that is none of the sections' order. */
const PAGES: SitePage[] = [
  page('misc', 'page'),
  page('blog/a', 'post'),
  page('about', 'page'),
  page('careers', 'page'),
  page('partners', 'page'),
  page('security', 'page'),
  page('faq', 'faq'),
  page('developers', 'page'),
  page('auth', 'page'),
  page('api-deprecation-policy', 'page'),
  page('customers', 'listing'),
  page('customers/x', 'page'),
  page('solutions/movers', 'page'),
  page('changelog', 'page'),
  page('product/crm', 'page'),
  page('apply', 'form'),
  page('plans', 'pricing'),
  page('index', 'home'),
  page('blog', 'listing'),
  page('loose', 'page', { title: '  Two\n\twords  ', description: undefined, markdown_url: undefined }),
];

/** A file's text from its lines: each line ends with a newline. */
const text = (lines: string[]) => `${lines.join('\n')}\n`;
/** A section as llms.txt writes it: blank line, heading, blank line, its lines. */
const section = (title: string, lines: string[]) => ['', `## ${title}`, '', ...lines];

describe('llms.txt', () => {
  it('starts with the H1, the summary blockquote and the note on markdown and leads', async () => {
    const { llmsTxt } = await load();
    expect(llmsTxt([], O, []).split('\n').slice(0, 5)).toEqual(HEADER);
  });

  it('lists each page under the first section that takes it, sections in order, Optional after the files', async () => {
    const { llmsTxt } = await load();
    const files = [{ path: '/a.json', note: 'The A file.' }];
    expect(llmsTxt(PAGES, O, files)).toBe(
      text([
        ...HEADER,
        ...section('Start here', [line('apply'), line('plans'), line('index')]),
        ...section('Product', [line('changelog'), line('product/crm')]),
        ...section('Solutions', [line('solutions/movers')]),
        ...section('Customers', [line('customers'), line('customers/x')]),
        ...section('Developers', [line('developers'), line('auth'), line('api-deprecation-policy')]),
        ...section('Company', [line('about'), line('careers'), line('partners'), line('security'), line('faq')]),
        ...section('Blog', [line('blog/a'), line('blog')]),
        ...section('Machine-readable files', [`- [/a.json](${O}/a.json): The A file.`]),
        ...section('Optional', [line('misc'), `- [Two words](${O}/loose): `]),
      ]),
    );
  });

  it('folds whitespace in a title to single spaces, and links the page itself when it has no twin', async () => {
    const { llmsTxt } = await load();
    const loose = page('product/loose', 'page', {
      title: ' A \n\n B ',
      description: ' x\t\ty ',
      markdown_url: undefined,
    });
    expect(llmsTxt([loose], O, [])).toContain(`\n## Product\n\n- [A B](${O}/product/loose): x y\n`);
  });

  it('has no empty sections and no Optional section when every page has a section', async () => {
    const { llmsTxt } = await load();
    expect(llmsTxt([page('blog/a', 'post')], O, [])).toBe(
      text([...HEADER, ...section('Blog', [line('blog/a')]), ...section('Machine-readable files', [])]),
    );
  });

  it('lists the machine-readable files that have a note, in the contract order, and no others', async () => {
    const { MACHINE_FILES } = await load();
    const all = Object.values(MACHINE_READABLE as Record<string, MachineReadable>);
    const noted = all.filter((f) => f.note);
    expect(noted.length).toBeGreaterThan(0);
    expect(noted.length).toBeLessThan(all.length);
    expect(MACHINE_FILES).toEqual(noted.map((f) => ({ path: f.path, note: f.note })));
  });
});

describe('llms-full.txt', () => {
  it('is a heading, then each page body trimmed and closed by a rule', async () => {
    const { llmsFullTxt } = await load();
    const pages = [page('a', 'page', { markdown: '\n# A\n\nText.  \n' }), page('b', 'page', { markdown: '# B' })];
    expect(llmsFullTxt(pages)).toBe('# Kartage: every page as markdown\n\n# A\n\nText.\n\n---\n\n# B\n\n---\n');
  });
});

describe('sitemap.xml', () => {
  it('lists each URL escaped for XML, with lastmod when the page has a date', async () => {
    const { sitemapXml } = await load();
    const pages = [
      page('a', 'page', { url: `${O}/a?b=1&c=<'">`, updated: '2026-01-02' }),
      page('b', 'page', { updated: undefined }),
    ];
    expect(sitemapXml(pages)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        `  <url><loc>${O}/a?b=1&#38;c=&#60;&#39;&#34;&#62;</loc><lastmod>2026-01-02</lastmod></url>\n` +
        `  <url><loc>${O}/b</loc></url>\n` +
        '</urlset>\n',
    );
  });
});

describe('sitemap.md', () => {
  it('has its heading and summary, non-empty sections only, the Optional pages as Other pages', async () => {
    const { sitemapMd } = await load();
    const pages = [
      page('misc', 'page', { title: ' A [b]\n c ' }),
      page('index', 'home', { updated: '2026-01-02' }),
      page('blog/a', 'post'),
    ];
    expect(sitemapMd(pages, O)).toBe(
      text([
        '# Kartage sitemap',
        '',
        `> Every published page of ${O}, grouped by section. Each page is also markdown: append \`.md\` to its ` +
          `URL, or send \`Accept: text/markdown\`. The XML sitemap is [sitemap.xml](${O}/sitemap.xml); ` +
          `the site summary is [llms.txt](${O}/llms.txt).`,
        '',
        '## Start here',
        '',
        `- [T index](${O}/index) (updated 2026-01-02)`,
        '',
        '## Blog',
        '',
        `- [T blog/a](${O}/blog/a)`,
        '',
        '## Other pages',
        '',
        `- [A \\[b\\] c](${O}/misc)`,
      ]),
    );
  });
});

describe('robots.txt', () => {
  it('names each AI crawler in one group, then the group for every other agent', async () => {
    const { robotsTxt } = await load();
    const agents = robotsTxt(O)
      .split('\n')
      .filter((l) => l.startsWith('User-agent: '))
      .map((l) => l.slice('User-agent: '.length));
    expect(agents).toEqual([
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
      '*',
    ]);
  });
});
