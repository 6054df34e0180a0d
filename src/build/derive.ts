/**
 * @module The post-build step: reads every published HTML page once and writes what derives from it:
 * markdown twins (front matter + the JSON's `markdown`), per-page JSON, the content data the functions
 * load, llms.txt, llms-full.txt, sitemap.xml, sitemap.md, robots.txt, the OpenAPI document, the discovery
 * files (.well-known, sandbox info) and the Pagefind index.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { buildOpenApi } from '../contract/openapi.ts';
import { PageSchema, type Page } from '../contract/schemas.ts';
import { pageFromHtml } from './page-from-html.ts';
import { apiCatalog, ardJson, DISCOVERY_PATHS, mcpServerJson, sandboxInfo } from './discovery-files.ts';
import { writeAgentSkills } from './agent-skills.ts';
import pkg from '../../package.json' with { type: 'json' };
import { llmsFullTxt, llmsTxt, MACHINE_FILES, robotsTxt, sitemapMd, sitemapXml } from './site-files.ts';
import { markdownTwin } from '../core/markdown-doc.ts';
import { CONTENT_FILE, SEARCH_FILE, type ContentData } from '../core/content.ts';
import { buildSearchIndex } from '../core/search.ts';
import { writeMcpServerCard } from './mcp-server-card.ts';
import { writeDataFiles } from './data-files.ts';
import searchSynonyms from '../../content/data/search-synonyms.json' with { type: 'json' };

export interface DeriveOptions {
  /** Astro's output folder (served as static files). */
  distDir: string;
  /** Folder for data the functions load (not served). */
  dataDir: string;
  /** Canonical origin, e.g. https://kartage.com.au. */
  origin: string;
  /** Skip the Pagefind index (tests of this step). */
  pagefind?: boolean;
}

async function* allFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* allFiles(path);
    else yield path;
  }
}

async function write(path: string, body: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
}

/** Public path of a page's markdown twin (`index` -> `/index.md`). */
export const twinPath = (slug: string) => `/${slug}.md`;
/** Static file behind getPage's JSON answer. */
export const pageJsonPath = (slug: string) => `/api/v1/pages/${slug}.json`;

export async function deriveSite(opts: DeriveOptions): Promise<{ pages: Page[] }> {
  const found: { page: Page; text: string; file: string }[] = [];
  for await (const file of allFiles(opts.distDir)) {
    if (!file.endsWith('.html')) continue;
    const derived = pageFromHtml(await readFile(file, 'utf8'));
    if (derived) found.push({ ...derived, file: relative(opts.distDir, file) });
  }
  found.sort((a, b) => (a.page.slug < b.page.slug ? -1 : a.page.slug > b.page.slug ? 1 : 0));
  const seen = new Set<string>();
  for (const { page, file } of found) {
    if (seen.has(page.slug)) throw new Error(`duplicate slug ${page.slug} (${file})`);
    if (page.slug === 'batch') throw new Error('the slug "batch" is reserved for the batch operation');
    seen.add(page.slug);
    PageSchema.parse(page);
  }
  const pages = found.map((f) => f.page);

  for (const page of pages) {
    await write(join(opts.distDir, twinPath(page.slug)), markdownTwin(page));
    await write(join(opts.distDir, pageJsonPath(page.slug)), JSON.stringify(page));
  }

  const openapi = buildOpenApi(opts.origin);
  await write(join(opts.distDir, 'openapi.json'), JSON.stringify(openapi, null, 2));
  await write(join(opts.distDir, 'openapi.yaml'), toYaml(openapi, { aliasDuplicateObjects: false }));

  const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';
  await write(join(opts.distDir, DISCOVERY_PATHS.mcp), json(mcpServerJson(opts.origin, pkg.version)));
  await write(join(opts.distDir, DISCOVERY_PATHS.ard), json(ardJson(opts.origin)));
  await write(join(opts.distDir, DISCOVERY_PATHS.apiCatalog), json(apiCatalog(opts.origin)));
  await write(join(opts.distDir, DISCOVERY_PATHS.sandbox), json(sandboxInfo(opts.origin)));
  await writeMcpServerCard(opts.distDir, opts.origin, pages);
  await writeAgentSkills(opts.distDir, opts.origin);

  await write(join(opts.distDir, 'llms.txt'), llmsTxt(pages, opts.origin, MACHINE_FILES));
  await write(join(opts.distDir, 'llms-full.txt'), llmsFullTxt(pages));
  await write(join(opts.distDir, 'sitemap.xml'), sitemapXml(pages));
  await write(join(opts.distDir, 'sitemap.md'), sitemapMd(pages, opts.origin));
  await write(join(opts.distDir, 'robots.txt'), robotsTxt(opts.origin));

  if (opts.pagefind !== false) {
    const pagefind = await import('pagefind');
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: opts.distDir, glob: '**/*.html' });
    if (added.errors.length) throw new Error(`pagefind: ${added.errors.join('; ')}`);
    await index.writeFiles({ outputPath: join(opts.distDir, 'pagefind') });
    await pagefind.close();
  }
  const files: string[] = [];
  for await (const file of allFiles(opts.distDir)) {
    const rel = '/' + relative(opts.distDir, file).split(sep).join('/');
    if (!rel.startsWith('/_astro/') && !rel.startsWith('/pagefind/')) files.push(rel);
  }
  const data: ContentData = { origin: opts.origin, builtAt: new Date().toISOString(), pages: found.map((f) => ({ ...f.page, text: f.text })), files: files.sort() };
  await write(join(opts.dataDir, SEARCH_FILE), JSON.stringify(buildSearchIndex(data.pages, searchSynonyms.entries)));
  await write(join(opts.dataDir, CONTENT_FILE), JSON.stringify(data));
  await writeDataFiles(opts.dataDir, data);
  return { pages };
}
