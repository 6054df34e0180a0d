/**
 * @module The machine-readable files agents are pointed at, in one list, and the RFC 8288 `Link` header values
 * that point at them: every HTML page carries the site's set plus its own markdown alternate, API answers the
 * API's set, markdown answers their page's canonical URL. The middleware (pages, getPage), the functions (API
 * answers) and the route table's header rules (the home page) all build them here, so the values cannot drift.
 */
import { pathOfSlug, twinPathOfSlug } from './slugs.ts';

/**
 * One entry of the machine-readable files: a file the build writes (`file`), an operation's endpoint, or a
 * content page, with what llms.txt says of it (`note`; absent: llms.txt does not list it).
 */
export type MachineReadable =
  | {
      kind: 'file';
      /** Public path. */
      path: string;
      /** What it is, in a few words (its row in the route table). */
      title: string;
      note?: string;
      /** Where the build writes it, when the path has no extension of its own (served through a rewrite). */
      file?: string;
    }
  | { kind: 'operation' | 'page'; path: string; note: string };

/**
 * The machine-readable files, the one list: llms.txt's "Machine-readable files" (the entries with a note, in
 * this order, src/core/site-files.ts), the route table's static routes and rewrites (src/contract/routes.ts),
 * the Link headers below, and where the build writes the discovery files (src/build/discovery-files.ts) all
 * derive from it. A test checks the build writes every file of it, and lists no machine file it leaves out.
 */
export const MACHINE_READABLE = {
  openapiJson: {
    kind: 'file',
    path: '/openapi.json',
    title: 'The API description (OpenAPI 3.1).',
    note: 'OpenAPI 3.1 description of the content, lead and sandbox API (also /openapi.yaml).',
  },
  listPages: {
    kind: 'operation',
    path: '/api/v1/pages',
    note: 'Page index as JSON; one page at /api/v1/pages/{slug}; search at /api/v1/search?q=.',
  },
  askSite: {
    kind: 'operation',
    path: '/api/v1/ask',
    note: 'Ask a question (POST JSON {"question"}): an answer quoted from the site\'s sections, each linked; says so when the site has no answer.',
  },
  mcp: {
    kind: 'operation',
    path: '/mcp',
    note: 'MCP server (Streamable HTTP, POST only): search, read and list pages, and pricing.',
  },
  llmsFullTxt: {
    kind: 'file',
    path: '/llms-full.txt',
    title: 'Every page as markdown.',
    note: 'Every page of the site as markdown in one file.',
  },
  sitemap: {
    kind: 'file',
    path: '/sitemap.xml',
    title: 'Every published URL.',
    note: 'Every published URL with its last-modified date.',
  },
  sitemapMd: {
    kind: 'file',
    path: '/sitemap.md',
    title: 'Every page by section, as markdown.',
    note: 'Every page with its title and URL, grouped by section, as markdown.',
  },
  mcpManifest: {
    kind: 'file',
    path: '/.well-known/mcp.json',
    title: 'The MCP server manifest (registry server.json).',
    note: 'MCP server manifest (MCP registry server.json format).',
  },
  serverCard: {
    kind: 'file',
    path: '/.well-known/mcp/server-card.json',
    title: 'The MCP server card.',
    note: 'MCP server card: the server, its transport, tools and resources.',
  },
  agentSkills: {
    kind: 'file',
    path: '/.well-known/agent-skills/index.json',
    title: 'The agent skills index.',
    note: 'Agent skills index: how an agent finds, reads and uses this site.',
  },
  ard: {
    kind: 'file',
    path: '/.well-known/ard.json',
    title: 'The catalogue of agentic resources (ARD).',
    note: 'Catalogue of agentic resources (ARD manifest): the MCP server, the API description, this file and the lead sandbox.',
  },
  apiCatalog: {
    kind: 'file',
    path: '/.well-known/api-catalog',
    file: '/.well-known/api-catalog.json',
    title: 'The API catalogue (RFC 9727).',
    note: 'API catalogue (RFC 9727 linkset) pointing at the API descriptions and documentation.',
  },
  sandboxInfo: {
    kind: 'file',
    path: '/api/v1/sandbox',
    file: '/api/v1/sandbox.json',
    title: 'Where the sandbox is and what it covers.',
    note: 'Where the lead validation sandbox is and what it checks; it writes nothing.',
  },
  auth: {
    kind: 'page',
    path: twinPathOfSlug('auth'),
    note: 'Statement that no authentication is needed, and which headers matter.',
  },
  deprecationPolicy: {
    kind: 'page',
    path: pathOfSlug('api-deprecation-policy'),
    note: 'How API operations are deprecated and withdrawn.',
  },
  openapiYaml: { kind: 'file', path: '/openapi.yaml', title: 'The API description in YAML.' },
  llmsTxt: { kind: 'file', path: '/llms.txt', title: 'Site summary and index of machine-readable files.' },
  robots: { kind: 'file', path: '/robots.txt', title: 'Crawler rules.' },
} as const satisfies Record<string, MachineReadable>;

/** The files of the list (not the operations' endpoints or pages), each with its name in the list. */
export const machineFiles = (): (Extract<MachineReadable, { kind: 'file' }> & { id: string })[] =>
  Object.entries(MACHINE_READABLE as Record<string, MachineReadable>).flatMap(([id, f]) =>
    f.kind === 'file' ? [{ ...f, id }] : [],
  );

/** Where the build writes a file of the list, relative to its output folder. */
export const fileOf = (f: { path: string; file?: string }): string => f.file ?? f.path;

/** Where the MCP server card is published (SEP-2127 draft well-known path). */
export const SERVER_CARD_PATH = MACHINE_READABLE.serverCard.path;
/** Where the agent-skills index is published. */
export const AGENT_SKILLS_PATH = MACHINE_READABLE.agentSkills.path;
/** Media type of an MCP server card (SEP-2127 draft). */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';

/** The API's descriptions: RFC 9727 api-catalog, RFC 8631 service-desc and service-doc. */
export const API_LINKS: readonly string[] = [
  `<${MACHINE_READABLE.apiCatalog.path}>; rel="api-catalog"`,
  `<${MACHINE_READABLE.openapiJson.path}>; rel="service-desc"; type="application/openapi+json"`,
  `<${pathOfSlug('developers')}>; rel="service-doc"; type="text/html"`,
];

/** What every HTML page advertises: the API's links, the ARD catalogue, llms.txt and the MCP server card. */
export const SITE_LINKS: readonly string[] = [
  ...API_LINKS,
  `<${MACHINE_READABLE.ard.path}>; rel="ard"; type="application/json"`,
  `<${MACHINE_READABLE.llmsTxt.path}>; rel="describedby"; type="text/plain"`,
  `<${SERVER_CARD_PATH}>; rel="mcp-server-card"; type="${SERVER_CARD_TYPE}"`,
];

/** The `Link` value of a page's HTML answer: the site's links and the page's markdown twin. */
export function pageLinkHeader(slug: string): string {
  return [...SITE_LINKS, `<${twinPathOfSlug(slug)}>; rel="alternate"; type="text/markdown"`].join(', ');
}

/** The `Link` value of a markdown answer: the page it is the markdown of (RFC 6596 canonical). */
export function canonicalLinkHeader(url: string): string {
  return `<${url}>; rel="canonical"`;
}
