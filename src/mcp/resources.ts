/**
 * @module The MCP server's resources: llms.txt, the sitemap, the OpenAPI document and the key pages as markdown
 * (`resources/list`), plus a template for any page (`resources/templates/list`) whose slugs `completion/complete`
 * offers. Every resource is read in parts of at most `PART_CHARS` characters (`?part=2`, ...), joining back into
 * the whole. A URI that names nothing here is -32002, a malformed one -32602.
 */
import { readFileSync } from 'node:fs';
import {
  type CompleteRequest,
  ErrorCode,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { llmsTxt, MACHINE_FILES, sitemapXml } from '../core/site-files.ts';
import type { PageKind } from '../contract/content.ts';
import { isKeyPage } from '../contract/mcp.ts';
import type { Page } from '../contract/schemas.ts';
import type { ContentSource } from '../core/content-source.ts';
import { markdownTwin } from '../core/markdown-doc.ts';
import { slugOfTwinPath, twinUrlOfSlug } from '../contract/slugs.ts';
import type { McpDeps } from './deps.ts';
import { RESOURCE_NOT_FOUND, RpcError } from './errors.ts';
import { PART_CHARS, splitExact } from './split.ts';

/** The OpenAPI text per built file and origin: read (or built) once per instance, never per request. */
const openApiTexts = new Map<string, string>();

/**
 * The `openapi.json` resource's text: the bytes of the build's file when there is one for this origin (so the
 * resource is the served file, byte for byte), else `build()` (the document built from the operation list, by
 * the caller that holds it). Either way once per instance: 100 reads used to build the document 100 times.
 */
export function openApiText(origin: string, file: string | undefined, build: () => string): string {
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
  body ??= build();
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
  openApi: () => string = () => '',
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
        uri: twinUrlOfSlug(origin, p.slug),
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

/** `resources/read`: the part of a resource the URI asks for, with a note pointing to the next part. */
export function readResource(d: McpDeps, uri: string): { contents: { uri: string; mimeType: string; text: string }[] } {
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
    () => openApiText(origin, d.openApiFile, d.openApi),
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

/** `completion/complete`: the slugs for the page template's `slug` that start with the value typed, 100 at most. */
export function completeSlug(content: ContentSource, { ref, argument }: CompleteRequest['params']) {
  if (ref.type !== 'ref/resource' || ref.uri !== pageTemplate(content.origin) || argument.name !== 'slug') {
    return { completion: { values: [], total: 0, hasMore: false } };
  }
  const matches = content
    .entries()
    .map((p) => p.slug)
    .filter((s) => s.startsWith(argument.value));
  return { completion: { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 } };
}
