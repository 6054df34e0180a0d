/**
 * @module vercel.json, middleware.ts's matcher and data files, and the api/ function files, generated from the
 * operation list and route table (`npm run gen:vercel`); tests prove the committed files equal this output, so
 * Vercel, the middleware and the local server cannot drift.
 *
 * Clean URLs (`/pricing` served from `pricing.html`) are spelled out instead of `cleanUrls: true`: Vercel's
 * cleanUrls redirect `^/(?:(.+)/)?index(?:\.html)?/?$` runs before the middleware and would send getPage
 * for the home page (`/api/v1/pages/index`) to `/api/v1/pages` with a 308. The rules below do what the
 * local server does: `.html` URLs redirect to the clean URL, and a clean URL that is not a file is
 * rewritten to its `.html` file after the filesystem check. Neither touches `/api/`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { functionPath, headerRules } from '../contract/routes.ts';
import { DATA_DIR } from '../config.ts';
import type { ContentNeed } from '../core/content-source.ts';
import { dataFilesFor } from '../adapters/content-files.ts';
import { functionOf, type Operation } from '../http/operation.ts';
import { operations, rewrites, routes } from '../operations/index.ts';

/**
 * Function settings: the lead endpoint and the outbox replay wait on the CRM, so they get longer. Local
 * state (`var/`: the local lead file, personal data) and test or bench output never ship, even when file
 * tracing follows a path into them.
 */
export function functionSettings(op: Operation) {
  const data = dataFilesFor(op.data);
  return {
    maxDuration: (typeof op.serve === 'object' && op.serve.maxDuration) || 10,
    memory: 1024,
    // Only the data files of what the operation reads: listPages ships the entries,
    // search its index and snippet text, the lead functions nothing.
    ...(data.length
      ? { includeFiles: data.length === 1 ? `${DATA_DIR}/${data[0]}` : `${DATA_DIR}/{${data.join(',')}}` }
      : {}),
    excludeFiles: '{var,test-results,bench,.tools,dist}/**',
  };
}

/**
 * Redirects of `.html` URLs to their clean URL (what the local server does; 404.html and /api/ stay). The
 * page part never starts with `/` and holds no `\` or `%`, so the target cannot be `//host/…` or `/\host`
 * (another origin), whether the platform matches the raw or the decoded path.
 */
export const htmlRedirects = [
  { source: '/index.html', destination: '/', permanent: true },
  { source: '/:page((?!api/|404\\.html$)[^/\\\\%][^\\\\%]*)\\.html', destination: '/:page', permanent: true },
] as const;

/**
 * The trailing-slash redirect (`/pricing/` -> `/pricing`), written here rather than with `trailingSlash:
 * false`, whose generated rule `^/(.*)/$` -> `/$1` sends `//evil.example/` to `//evil.example`, another
 * origin. Here the path kept starts with neither `/` nor `\` and holds no `%`.
 */
export const trailingSlashRedirect = {
  source: '/:path((?![/\\\\%])[^\\\\%]*)/',
  destination: '/:path',
  permanent: true,
} as const;

/** After the filesystem and the route table's rewrites: a clean page URL is served from its `.html` file. */
export const cleanUrlRewrite = { source: '/:page((?!api/|_astro/|pagefind/).+)', destination: '/:page.html' } as const;

/** Vercel cron jobs (vercel.json `crons`): every operation that declares a schedule. */
export const crons = (): { path: string; schedule: string }[] =>
  operations.flatMap((op) => (op.cron ? [{ path: op.path, schedule: op.cron }] : []));

export function buildVercelConfig() {
  const functions: Record<string, ReturnType<typeof functionSettings>> = {};
  for (const op of operations) if (functionOf(op)) functions[`api/${functionOf(op)}.ts`] = functionSettings(op);
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    framework: 'astro',
    // Builds the site unless build/ is current (always on Vercel, where build/ is not in the checkout);
    // locally it leaves a current dist/ and build/ alone, which other processes may be reading.
    buildCommand: 'node server/build-check.ts',
    outputDirectory: 'dist',
    cleanUrls: false,
    functions,
    crons: crons(),
    redirects: [trailingSlashRedirect, ...htmlRedirects],
    rewrites: [...rewrites(), cleanUrlRewrite],
    headers: headerRules.map((r) => ({
      source: r.source,
      headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })),
    })),
  };
}

// --- middleware.ts: its matcher and data files --------------------------------------------------------------

/** Astro's and Pagefind's asset folders: published files only, never a page or an API path. */
const ASSET_FOLDERS = ['_astro', 'pagefind'] as const;

/**
 * Extensions of the files the site publishes (pages, twins, page JSON, the machine-readable files, the favicon):
 * a path with another extension can only be a 404. A test checks every file of the build has one of them.
 */
export const PUBLISHED_EXTENSIONS = ['html', 'json', 'md', 'svg', 'txt', 'xml', 'yaml'] as const;

/**
 * What the middleware's own step reads besides its operations' content (src/http/edge.ts): one entry by slug
 * (a page's headers) and the static paths (real 404s).
 */
export const EDGE_NEEDS: readonly ContentNeed[] = ['entry', 'files'];

/** The operations the middleware serves (the rest are functions, or static files). */
const middlewareOperations = () => operations.filter((op) => !functionOf(op));

/** A path written into a matcher as it is: plain segments only, which path-to-regexp and URLPattern read alike. */
function plain(path: string): string {
  if (!/^[a-z0-9/_-]+$/.test(path)) throw new Error(`${path}: cannot be written into the middleware matcher as is`);
  return path;
}

/** The paths with no parameter (`{name}`) that functions and static files answer, as the request names them. */
function answeredPaths(): string[] {
  const paths = new Set<string>();
  for (const op of operations) {
    const fn = functionOf(op);
    if (!fn) continue;
    if (!op.path.includes('{')) paths.add(op.path);
    paths.add(functionPath(fn));
  }
  for (const r of routes) if (r.serve === 'static' && !r.path.includes('{')) paths.add(r.path);
  return [...paths];
}

/** One pattern of the matcher and the comment that says what it takes and leaves out. */
export interface MatcherPattern {
  pattern: string;
  comment: string;
}

/**
 * The middleware's matcher. Narrow on purpose, because every match is a billed invocation: the paths functions
 * and static files answer never reach it. Patterns are path strings only (outside Next.js Vercel takes no `has`
 * conditions), in the syntax both Vercel (path-to-regexp) and the local server (URLPattern) read.
 */
export function middlewareMatcher(): MatcherPattern[] {
  const answered = answeredPaths();
  const underApi = answered.filter((p) => p.startsWith('/api/')).map((p) => plain(p.slice('/api/'.length)));
  // Outside /api/, only a path without a dot can look like a page URL (the second pattern).
  const pageLike = answered.filter((p) => !p.startsWith('/api/') && !p.includes('.')).map((p) => plain(p.slice(1)));
  const assets = ASSET_FOLDERS.map((f) => `${f}/`).join('|');
  const served = middlewareOperations().map((op) => `${op.id} (${op.path})`);
  const statics = routes.filter((r) => r.serve === 'static' && r.path.startsWith('/api/')).map((r) => r.path);
  return [
    {
      pattern: `/api/((?!(?:${underApi.join('|')})$).*)`,
      comment:
        `${served.join(', ')} and the real 404s of unknown API paths. Left out: the function paths (they ` +
        `answer for themselves)${statics.length ? ` and the static ${statics.join(', ')}` : ''}.`,
    },
    {
      pattern: `/((?!${['api/', ...pageLike.map((p) => `${p}$`), assets].join('|')})[^.]*)`,
      comment:
        'Page URLs (no dot): markdown negotiation and `Vary: Accept`.' +
        (pageLike.length
          ? ` Left out: the function paths outside /api/ (${pageLike.map((p) => `/${p}`).join(', ')}).`
          : ''),
    },
    {
      pattern: `/((?!${assets}).*\\.md)`,
      comment: "The pages' `.md` twins: their markdown headers (canonical page URL, token estimate, content signals).",
    },
    {
      pattern: `/((?!${assets}).*\\.(?!(?:${PUBLISHED_EXTENSIONS.join('|')})$)[^.\\/]*)`,
      comment: 'Paths whose extension the site never publishes: only ever 404s, markdown ones when asked for.',
    },
    {
      pattern: '/(.*%.*)',
      comment:
        'Percent-encoded paths: whether a platform matches the pattern above on the raw or the decoded path, ' +
        '`/%61pi/v1/pages/x.json` (= `/api/v1/pages/x.json`) must reach the metered getPage step, never the file.',
    },
  ];
}

/** The data files the middleware reads: its operations' content needs and its own, in the data folder. */
export const middlewareDataFiles = (): string[] =>
  dataFilesFor([...middlewareOperations().flatMap((op) => op.data), ...EDGE_NEEDS]);

/** Where the generated block of middleware.ts starts and ends (the lines themselves). */
export const MIDDLEWARE_BLOCK = {
  start: '// --- Generated by `npm run gen:vercel` (src/build/vercel-config.ts) from the route table: do not edit. ---',
  end: '// --- End of the generated block. ---',
} as const;

/** `text` as `// ` comment lines indented by `indent`, wrapped at 120 characters. */
function commentLines(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && `${indent}// ${line} ${word}`.length > 120) {
      lines.push(`${indent}// ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}// ${line}`);
  return lines;
}

/** A string as a single-quoted TypeScript literal. */
const quoted = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The generated block of middleware.ts, its marker lines included. */
export function middlewareBlock(): string {
  return [
    MIDDLEWARE_BLOCK.start,
    'export const config = {',
    "  runtime: 'nodejs',",
    '  matcher: [',
    ...middlewareMatcher().flatMap(({ pattern, comment }) => [
      ...commentLines(comment, '    '),
      `    ${quoted(pattern)},`,
    ]),
    '  ],',
    '};',
    '',
    '/**',
    ' * The data files the middleware reads (`dataFilesFor` of what its operations read, and of what its own step',
    " * reads: an entry by slug for a page's headers, the static paths for real 404s), each named by a literal URL",
    " * beside this module: Vercel's file tracing then copies them into the middleware's bundle (vercel.json",
    ' * `includeFiles` reaches the functions only), and the middleware does not depend on the working directory.',
    ' */',
    'export const MIDDLEWARE_DATA = [',
    ...middlewareDataFiles().map((f) => `  new URL(${quoted(`./${DATA_DIR}/${f}`)}, import.meta.url),`),
    '];',
    MIDDLEWARE_BLOCK.end,
  ].join('\n');
}

/** middleware.ts's text with its generated block as this module writes it (throws when the markers are missing). */
export function withMiddlewareBlock(source: string): string {
  const start = source.indexOf(MIDDLEWARE_BLOCK.start);
  const end = source.indexOf(MIDDLEWARE_BLOCK.end);
  if (start < 0 || end < start) {
    throw new Error(`middleware.ts has no generated block (the lines ${MIDDLEWARE_BLOCK.start} ... end)`);
  }
  return source.slice(0, start) + middlewareBlock() + source.slice(end + MIDDLEWARE_BLOCK.end.length);
}

// --- api/: one Vercel function file per function operation ---------------------------------------------------

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OPERATIONS_DIR = join(ROOT, 'src', 'operations');

/**
 * The module that exports operation `id` (`export const <id> =` in src/operations/): its own file, or the list
 * (index.ts) for an operation the list makes (mcp, which offers the list's OpenAPI document).
 */
function moduleOf(id: string, sources: ReadonlyMap<string, string>): string {
  const exports = new RegExp(`^export const ${id} = `, 'm');
  const own = [...sources].find(([f, text]) => !f.endsWith('index.ts') && exports.test(text));
  if (own) return own[0];
  const list = join(OPERATIONS_DIR, 'index.ts');
  if (exports.test(sources.get(list) ?? '')) return list;
  throw new Error(`no file in src/operations/ says "export const ${id} = ": name the operation's const by its id`);
}

/** api/<fn>.ts of every function operation, as `npm run gen:vercel` writes it: path -> text. */
export function apiFiles(): Map<string, string> {
  const out = new Map<string, string>();
  // Each operation file read once, not once per operation.
  const sources = new Map(
    readdirSync(OPERATIONS_DIR)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [join(OPERATIONS_DIR, f), readFileSync(join(OPERATIONS_DIR, f), 'utf8')] as const),
  );
  for (const op of operations) {
    const fn = functionOf(op);
    if (!fn) continue;
    const file = join(ROOT, 'api', `${fn}.ts`);
    const from = (target: string) => {
      const r = relative(dirname(file), target).split('\\').join('/');
      return r.startsWith('.') ? r : `./${r}`;
    };
    const module = moduleOf(op.id, sources);
    out.set(
      file,
      [
        `// The ${op.id} operation (${relative(ROOT, module)}) as a Vercel function. Written by npm run gen:vercel.`,
        `import { ${op.id} } from '${from(module)}';`,
        `import { vercelFunction } from '${from(join(ROOT, 'src', 'http', 'vercel.ts'))}';`,
        '',
        `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = vercelFunction(${op.id});`,
        '',
      ].join('\n'),
    );
  }
  return out;
}

export const VERCEL_JSON = fileURLToPath(new URL('../../vercel.json', import.meta.url));
export const MIDDLEWARE_FILE = fileURLToPath(new URL('../../middleware.ts', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(VERCEL_JSON, `${JSON.stringify(buildVercelConfig(), null, 2)}\n`);
  console.log(`wrote ${VERCEL_JSON}`);
  writeFileSync(MIDDLEWARE_FILE, withMiddlewareBlock(readFileSync(MIDDLEWARE_FILE, 'utf8')));
  console.log(`wrote the generated block of ${MIDDLEWARE_FILE}`);
  const files = apiFiles();
  for (const [file, text] of files) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  console.log(`wrote ${files.size} function files in api/`);
}
