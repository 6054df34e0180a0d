/**
 * llms.txt and sitemap.md group pages by kind and folder (src/core/site-files.ts), not by slug spelling:
 * a form page starts a visit whatever its slug, a listing heads the folder its slug names. Then the real
 * build: every page's kind is the one its front matter gives (a post for every blog entry), carried into
 * build/content.json and the HTML's kartage:kind tag, and never into an answer (page JSON, twin). Then the
 * files line by line: llms.txt, llms-full.txt, sitemap.xml, sitemap.md (robots.txt: site-files.robots.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { llmsTxt, MACHINE_FILES, sitemapMd, type SitePage } from '../../src/core/site-files.ts';
import { PageFrontmatterSchema } from '../../src/contract/content.ts';
import { DATA_DIR } from '../../src/config.ts';
import { CONTENT_FILE, toPage, toSummary, type ContentData } from '../../src/core/content.ts';
import {
  htmlFileOfSlug,
  pageJsonPathOfSlug,
  pathOfSlug,
  slugOfEntry,
  twinPathOfSlug,
} from '../../src/contract/slugs.ts';
import { MACHINE_READABLE, machineFiles, type MachineReadable } from '../../src/contract/links.ts';
import { staticRewrites } from '../../src/contract/routes.ts';
import { operations, routes } from '../../src/operations/index.ts';

const ORIGIN = 'https://x.test';
const page = (slug: string, kind: SitePage['kind']): SitePage => ({
  slug,
  kind,
  title: `T ${slug}`,
  url: `${ORIGIN}/${slug}`,
  markdown_url: `${ORIGIN}/${slug}.md`,
  markdown: '',
});

/** Section title -> slugs listed under it, in order. */
function sections(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let at = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) out[(at = line.slice(3))] = [];
    const link = line.match(/^- \[T ([^\]]+)\]/);
    if (link && at) out[at]!.push(link[1]!);
  }
  return out;
}

describe('llms.txt and sitemap.md sections', () => {
  const pages = [
    page('apply', 'form'),
    page('blog', 'listing'),
    page('blog/a', 'post'),
    page('customers', 'listing'),
    page('customers/x', 'page'),
    page('index', 'home'),
    page('plans', 'pricing'),
    page('product/crm', 'page'),
    page('stories', 'listing'),
    page('weekly-news', 'page'),
  ];

  it('puts the home page, pricing and forms first, whatever their slugs', () => {
    const s = sections(llmsTxt(pages, ORIGIN, []));
    expect(s['Start here']).toEqual(['apply', 'index', 'plans']);
    expect(s.Product).toEqual(['product/crm']);
    expect(s.Customers).toEqual(['customers', 'customers/x']);
    expect(s.Blog).toEqual(['blog', 'blog/a']);
    expect(s.Optional).toEqual(['stories', 'weekly-news']);
  });

  it('a plain page is not a start page even with a start page slug', () => {
    const s = sections(llmsTxt([page('pricing', 'page'), page('demo', 'page')], ORIGIN, []));
    expect(s['Start here']).toBeUndefined();
    expect(s.Optional).toEqual(['pricing', 'demo']);
  });

  it('sitemap.md groups the same way', () => {
    const md = sitemapMd(pages, ORIGIN);
    expect(md.indexOf('## Start here')).toBeLessThan(md.indexOf(`(${ORIGIN}/apply)`));
    expect(md.indexOf(`(${ORIGIN}/apply)`)).toBeLessThan(md.indexOf('## Product'));
    expect(md.indexOf('## Other pages')).toBeLessThan(md.indexOf(`(${ORIGIN}/stories)`));
  });
});

describe('llms.txt machine-readable files', () => {
  it('lists the ask endpoint with a one-line note, after the page API and before the MCP server', () => {
    const lines = llmsTxt([], ORIGIN, MACHINE_FILES).split('\n');
    const files = lines.slice(lines.indexOf('## Machine-readable files') + 2);
    const ask = files.find((l) => l.startsWith(`- [/api/v1/ask](${ORIGIN}/api/v1/ask): `));
    expect(ask).toBeDefined();
    expect(ask).toMatch(/^- \[\/api\/v1\/ask\]\([^)]+\): Ask a question \(POST JSON \{"question"\}\): .+\.$/);
    expect(ask).toContain('quoted from the site');
    expect(ask).toContain('says so when the site has no answer');
    const at = (path: string) => files.findIndex((l) => l.startsWith(`- [${path}](`));
    expect(at('/api/v1/pages')).toBeLessThan(at('/api/v1/ask'));
    expect(at('/api/v1/ask')).toBeLessThan(at('/mcp'));
    // One line each: no note runs over a line break.
    for (const f of MACHINE_FILES) expect(f.note, f.path).not.toMatch(/\n/);
  });

  it('are the entries of the one list that have a note, in its order', () => {
    const noted = Object.values(MACHINE_READABLE as Record<string, MachineReadable>).filter((f) => f.note);
    expect(MACHINE_FILES).toEqual(noted.map((f) => ({ path: f.path, note: f.note })));
    expect(MACHINE_FILES.map((f) => f.path)).toEqual(expect.arrayContaining(['/openapi.json', '/mcp', '/auth.md']));
  });
});

describe('the machine-readable files list', () => {
  const entries = Object.values(MACHINE_READABLE as Record<string, MachineReadable>);

  it('names each path once; its endpoints are operations, its files static routes', () => {
    expect(new Set(entries.map((f) => f.path)).size).toBe(entries.length);
    const ops = new Set(operations.map((op) => op.path));
    for (const f of entries.filter((e) => e.kind === 'operation')) expect(ops.has(f.path), f.path).toBe(true);
    for (const f of machineFiles()) {
      expect(routes.find((r) => r.path === f.path)?.serve, f.path).toBe('static');
      if (f.file) expect(staticRewrites, f.path).toContainEqual({ source: f.path, destination: f.file });
    }
  });

  it('its pages are published pages of the build', () => {
    const ROOT = fileURLToPath(new URL('../..', import.meta.url));
    const data = JSON.parse(readFileSync(join(ROOT, DATA_DIR, CONTENT_FILE), 'utf8')) as ContentData;
    const published = new Set(data.pages.flatMap((p) => [pathOfSlug(p.slug), twinPathOfSlug(p.slug)]));
    const pages = entries.filter((e) => e.kind === 'page');
    expect(pages.length).toBeGreaterThan(0);
    for (const f of pages) expect(published.has(f.path), f.path).toBe(true);
  });
});

describe('page kinds in the real build', () => {
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));
  const data = JSON.parse(readFileSync(join(ROOT, DATA_DIR, CONTENT_FILE), 'utf8')) as ContentData;

  it('each page has the kind of its front matter, a blog entry is a post', () => {
    const want = new Map<string, string>();
    for (const collection of ['pages', 'blog'] as const) {
      const base = join(ROOT, 'content', collection);
      for (const file of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.md')) continue;
        const id = file.split(sep).join('/').replace(/\.md$/, '');
        const front = parseYaml(readFileSync(join(base, file), 'utf8').split('---\n')[1]!);
        want.set(slugOfEntry(collection, id), collection === 'blog' ? 'post' : PageFrontmatterSchema.parse(front).kind);
      }
    }
    expect(new Map(data.pages.map((p) => [p.slug, p.kind]))).toEqual(want);
    const count = (kind: string) => data.pages.filter((p) => p.kind === kind).length;
    const counts = Object.fromEntries(['home', 'pricing', 'listing', 'form', 'faq'].map((k) => [k, count(k)]));
    expect(counts).toEqual({ home: 1, pricing: 1, listing: 2, form: 2, faq: 1 });
  });

  it('the HTML carries the kind; the page JSON, the twin and the API shapes do not', () => {
    const dist = join(ROOT, 'dist');
    for (const p of data.pages) {
      const html = readFileSync(join(dist, htmlFileOfSlug(p.slug)), 'utf8');
      expect(html, p.slug).toContain(`<meta name="kartage:kind" content="${p.kind}">`);
      const json = JSON.parse(readFileSync(join(dist, pageJsonPathOfSlug(p.slug)), 'utf8')) as object;
      expect(Object.keys(json), p.slug).not.toContain('kind');
      expect(readFileSync(join(dist, twinPathOfSlug(p.slug)), 'utf8').split('---\n')[1], p.slug).not.toMatch(/^kind:/m);
      expect(Object.keys(toPage(p))).not.toContain('kind');
      expect(Object.keys(toSummary(p))).not.toContain('kind');
    }
  });
});

// The section table and MACHINE_FILES are built when the module loads: these tests load it afresh each time
// (vi.resetModules()), so what they check is what that load built.
describe('the site files line by line', () => {
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
});
