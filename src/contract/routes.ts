/**
 * @module The routes that are not operations (static files, page URLs), the header rules of static
 * answers, and the HTTP facts every answer shares (cache classes, CORS, security headers). The route
 * table joins these routes with the operations' (src/operations/index.ts); vercel.json and the local
 * server derive from it. Patterns use the syntax that both Vercel's `source` (path-to-regexp) and the
 * WHATWG `URLPattern` understand.
 */
import { LIMITS } from './limits.ts';
import { MACHINE_READABLE as FILES, machineFiles, pageLinkHeader } from './links.ts';
import { HOME_SLUG } from './slugs.ts';

export type Method = 'GET' | 'POST' | 'DELETE';
/** What answers: a function in `api/`, the middleware over a static file, or a static file alone. */
export type Serve = 'function' | 'middleware' | 'static';
/** Which budget a request spends (DESIGN.md section 2). */
export type Meter = 'read' | 'lead' | 'none';
/** Cache class; `metered` responses carry one client's counters, so only private caches may keep them. */
export type CacheClass = 'metered' | 'static' | 'immutable' | 'none';

export interface Deprecation {
  /** Date the operation was deprecated (RFC 9745 `Deprecation: @<epoch>`). */
  since: string;
  /** Withdrawal date (RFC 8594 `Sunset`). */
  sunset: string;
  /** Where to go instead (`Link: <…>; rel="deprecation"`). */
  link: string;
}

export interface RouteSpec {
  id: string;
  /** Path as the contract writes it (`{slug}` for parameters). */
  path: string;
  methods: readonly Method[];
  serve: Serve;
  /** Function file under `api/` without extension, for `serve: 'function'`. */
  fn?: string;
  meter: Meter;
  cache: CacheClass;
  /** Public, read-only: any origin may read it (CORS `*`). */
  cors: boolean;
  deprecated?: Deprecation;
  summary: string;
}

export const CACHE_CONTROL: Record<CacheClass, string> = {
  metered: `private, max-age=${LIMITS.cacheSeconds}, stale-while-revalidate=60`,
  static: `public, max-age=${LIMITS.cacheSeconds}, stale-while-revalidate=3600`,
  immutable: 'public, max-age=31536000, immutable',
  none: 'no-store',
};

/** A file of the machine-readable files list as its route: static, free, cached, open to any origin. */
const fileRoute = (f: { id: string; path: string; title: string }): RouteSpec => ({
  id: f.id,
  path: f.path,
  methods: ['GET'],
  serve: 'static',
  meter: 'none',
  cache: 'static',
  cors: true,
  summary: f.title,
});

/**
 * Routes answered by static files (and the middleware for page URLs), not by an operation: the files of the
 * machine-readable files list (src/contract/links.ts), then the pages. The operations (src/operations/) add
 * theirs; src/operations/index.ts joins both into the route table.
 */
export const staticRoutes: readonly RouteSpec[] = [
  ...machineFiles().map(fileRoute),
  {
    id: 'pageHtml',
    path: '/{path}',
    methods: ['GET'],
    serve: 'middleware',
    meter: 'none',
    cache: 'static',
    cors: false,
    summary: 'A site page; markdown with Accept: text/markdown.',
  },
  {
    id: 'pageMarkdown',
    path: '/{path}.md',
    methods: ['GET'],
    serve: 'static',
    meter: 'none',
    cache: 'static',
    cors: true,
    summary: 'A site page as markdown.',
  },
];

/** Path of the file Vercel builds for a function (`api/v1/pages/index.ts` answers `/api/v1/pages`). */
export const functionPath = (fn: string) => `/api/${fn.replace(/(^|\/)index$/, '')}`;

/** Where a static file lives when its public path has no extension of its own (the list's `file`). */
export const staticRewrites: readonly { source: string; destination: string }[] = machineFiles().flatMap((f) =>
  f.file ? [{ source: f.path, destination: f.file }] : [],
);

/**
 * Content signals (contentsignals.org), in robots.txt and on every markdown answer: a vendor site wants to
 * be found, quoted and known, so search, AI answers from live fetches (ai-input) and training are allowed.
 */
export const CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=yes';

const CORS_READ = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, Idempotency-Replayed, ' +
    'Deprecation, Sunset, Link, x-markdown-tokens, Content-Signal, Mcp-Session-Id, Mcp-Protocol-Version',
};

/** Security headers for HTML; the CSP lets the site's own scripts, styles and Pagefind (WebAssembly) run. */
export const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Frame-Options': 'DENY',
};

/**
 * `Vary` of page URLs: the answer depends on Accept and, for known agents, on User-Agent (the edge step's
 * `negotiateMarkdown`); a shared cache must not hand an agent's markdown to a browser.
 */
export const PAGE_VARY = 'Accept, User-Agent';

/** Headers every answer carries, static or dynamic, HTML or not (the first header rule, for every path). */
export const BASE_HEADERS = { 'X-Content-Type-Options': 'nosniff', ...SECURITY_HEADERS };

/**
 * What the home page advertises (DESIGN.md section 4; RFC 8288 Link, RFC 9727 api-catalog): the same value
 * the middleware gives every page (src/http/edge.ts), so the rule and the middleware agree.
 */
export const HOME_LINKS = pageLinkHeader(HOME_SLUG);

/**
 * Header rules for static files, applied in order; later rules override earlier ones for the same header,
 * as Vercel does. Sources are matched against the public path (before rewrites).
 */
export const headerRules: readonly { source: string; headers: Record<string, string> }[] = [
  { source: '/(.*)', headers: BASE_HEADERS },
  // Not under /api/: API answers set their own Cache-Control (metered ones are private), and on Vercel a
  // header rule could otherwise win over the middleware's headers for getPage.
  { source: '/((?!api/).*)', headers: { 'Cache-Control': CACHE_CONTROL.static } },
  // Page URLs: the middleware negotiates on Accept and, for known agents, User-Agent (src/http/edge.ts).
  {
    source: '/((?!api/|_astro/|pagefind/|.well-known/)[^.]*)',
    headers: { Vary: PAGE_VARY },
  },
  {
    source: '/(.*).md',
    headers: {
      'Content-Type': 'text/markdown; charset=utf-8',
      Vary: 'Accept',
      'Content-Signal': CONTENT_SIGNAL,
      ...CORS_READ,
    },
  },
  { source: '/(.*).txt', headers: { 'Content-Type': 'text/plain; charset=utf-8', ...CORS_READ } },
  { source: '/openapi.(json|yaml)', headers: CORS_READ },
  { source: FILES.openapiYaml.path, headers: { 'Content-Type': 'application/yaml; charset=utf-8' } },
  { source: FILES.sitemap.path, headers: CORS_READ },
  { source: '/.well-known/(.*)', headers: { 'Content-Type': 'application/json; charset=utf-8', ...CORS_READ } },
  // Agent skills discovery (v0.2.0, "HTTP Considerations"): a SKILL.md is served as markdown.
  { source: '/.well-known/agent-skills/(.*).md', headers: { 'Content-Type': 'text/markdown; charset=utf-8' } },
  {
    source: FILES.apiCatalog.path,
    // RFC 9727 section 4: the linkset media type with the api-catalog profile, and the catalogue names itself.
    headers: {
      'Content-Type': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      Link: `<${FILES.apiCatalog.path}>; rel="api-catalog"`,
    },
  },
  { source: '/', headers: { Link: HOME_LINKS } },
  {
    source: FILES.sandboxInfo.path,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': CACHE_CONTROL.static, ...CORS_READ },
  },
  { source: '/_astro/(.*)', headers: { 'Cache-Control': CACHE_CONTROL.immutable } },
  { source: '/pagefind/(.*)', headers: { 'Cache-Control': CACHE_CONTROL.static } },
];

export { CORS_READ };
