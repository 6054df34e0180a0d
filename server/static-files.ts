/**
 * @module Static files from the build output, served the way Vercel serves them: clean URLs (`/pricing` ->
 * `pricing.html`, `.html` redirects to the clean URL), header rules from the route table, strong ETags
 * and 304s, HEAD, and a real 404.
 *
 * Paths come in decoded once (server/app.ts decodes; nothing here decodes again, so `/%2561pi` is the
 * file `%61pi`, never `api`) and must be canonical (see `isCanonicalPath`). Everything that does not
 * depend on the request is worked out once: which file a path resolves to, and for a file its bytes,
 * ETag and the full header set of each public path it is served at. Every cache is bounded (`CACHE_LIMITS`,
 * the oldest entry goes first): paths that name no file are kept apart from the ones that do, so a flood of
 * unique 404 paths costs a bounded amount of memory and never pushes the site's own files out. The caches
 * are dropped when the folder's top level changes (a rebuild rewrites index.html, 404.html, llms.txt…), so
 * a request costs no file system call. One watch on the top folder only: a recursive one would spend an
 * inotify watch per folder of a 10,000-page build.
 */
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { headerRules } from '../src/contract/routes.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

const compiledRules = headerRules.map((r) => ({ pattern: new URLPattern({ pathname: r.source }), headers: r.headers }));

/** Headers the route table gives a public path (later rules win, as on Vercel). */
export function headersFor(publicPath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of compiledRules) if (r.pattern.test({ pathname: publicPath })) Object.assign(out, r.headers);
  return out;
}

/**
 * A decoded path that names one resource in one spelling: starts with a single `/`, and has no empty,
 * `.` or `..` segment, no backslash and no NUL. Anything else is not a file here (a 404), and is never
 * turned into a redirect target (`//host/...` or `/\host` would leave the origin).
 */
export function isCanonicalPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  if (path === '/') return true;
  for (const segment of path.slice(1).split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return false;
  }
  return true;
}

/** A file's bytes and ETag, read once. */
export interface FileEntry {
  file: string;
  body: Buffer<ArrayBuffer>;
  etag: string;
}

/**
 * Most entries each path cache keeps: paths that resolve to a file (a build has about two per file, the
 * clean URL and the file's own name), paths that resolve to none (any path a client makes up), and header
 * sets (one per file and path it is served at).
 */
export const CACHE_LIMITS = { found: 50_000, missing: 10_000, headerSets: 50_000 } as const;

/** Sets `key` in `map`, first dropping the oldest entry when the map holds `max` (insertion order). */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

export interface StaticFiles {
  /** The file for a canonical decoded public path, after clean-URL resolution; undefined when none. */
  resolve(path: string): Promise<FileEntry | undefined>;
  /**
   * Serves `entry` for `publicPath`: header rules, ETag and 304, plus `extra` headers (which win). The
   * answer's bytes are in `bodyOf(response)`, not in its body (`withBody` makes an ordinary Response).
   */
  serve(
    request: Request,
    entry: FileEntry,
    publicPath: string,
    extra?: Record<string, string>,
    status?: number,
  ): Response;
  /** Entries the path caches hold now (each at most its `CACHE_LIMITS`). */
  cacheSize(): { found: number; missing: number; headerSets: number };
  /** Stops watching the folder. */
  close(): void;
}

/**
 * What `serve` answered, beside the Response it returns: the bytes, and its headers as a plain object with
 * lower-case names. The Response itself carries neither (a Headers object and a body stream per request would
 * cost more than the rest of a static answer): the node:http glue writes `head` and `bytes` as they are, and
 * `withBody` gives the ordinary Response to code that wants one.
 */
export interface StaticBody {
  bytes: Uint8Array<ArrayBuffer>;
  head: Record<string, string>;
}
const bodies = new WeakMap<Response, StaticBody>();
export const bodyOf = (response: Response): StaticBody | undefined => bodies.get(response);
/** The response with its bytes as an ordinary body (for code that reads `response.body`). */
export function withBody(response: Response): Response {
  const body = bodies.get(response);
  if (!body) return response;
  const { status, statusText } = response;
  return new Response(body.bytes, { status, statusText, headers: body.head });
}

/**
 * The path caches. Public path -> the entry it resolves to, as promises so concurrent first hits read once: a
 * path is in `missing` until its entry is known, and moves to `found` when it names a file. `headerSets`:
 * `${file}\n${publicPath}` -> the headers of a 200 (the path decides the header rules). Without a watcher
 * nothing is cached.
 */
interface Caches {
  found: Map<string, Promise<FileEntry | null>>;
  missing: Map<string, Promise<FileEntry | null>>;
  headerSets: Map<string, Record<string, string>>;
  watcher?: FSWatcher;
}

/** Watches the folder's top level and drops the caches when it changes. */
function watchRoot(root: string, c: Caches): void {
  try {
    c.watcher = watch(root, { persistent: false }, () => {
      c.found = new Map();
      c.missing = new Map();
      c.headerSets = new Map();
    });
    c.watcher.on('error', () => {
      // The folder went away (a rebuild replaces it): stop caching rather than serve stale bytes forever.
      c.watcher?.close();
      c.watcher = undefined;
    });
  } catch {
    c.watcher = undefined;
  }
}

const isFile = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() ?? false;

/** The file a canonical path names under `root`, the clean URL's `.html` included; undefined when none. */
async function fileFor(root: string, path: string): Promise<string | undefined> {
  if (!isCanonicalPath(path)) return undefined;
  const full = normalize(join(root, path));
  if (full !== root && !full.startsWith(root + sep)) return undefined; // cannot happen for a canonical path
  if (path === '/') return (await isFile(join(root, 'index.html'))) ? join(root, 'index.html') : undefined;
  if (await isFile(full)) return full;
  if (!extname(path) || !full.endsWith('.html')) {
    const html = `${full}.html`;
    if (await isFile(html)) return html;
  }
  return undefined;
}

async function load(root: string, path: string): Promise<FileEntry | null> {
  const file = await fileFor(root, path);
  if (!file) return null;
  const body = await readFile(file);
  return { file, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

async function resolveCached(root: string, c: Caches, path: string): Promise<FileEntry | undefined> {
  let hit = c.found.get(path) ?? c.missing.get(path);
  if (!hit) {
    const loading = load(root, path).catch(() => null);
    hit = loading;
    // Without a watcher there is no way to notice a rebuild: look again every time.
    if (c.watcher) {
      const [misses, hits] = [c.missing, c.found];
      remember(misses, path, loading, CACHE_LIMITS.missing);
      void loading.then((entry) => {
        // Unless a rebuild dropped these maps, or the path was evicted meanwhile.
        if (!entry || misses.get(path) !== loading) return;
        misses.delete(path);
        remember(hits, path, loading, CACHE_LIMITS.found);
      });
    }
  }
  return (await hit) ?? undefined;
}

function headersOf(c: Caches, entry: FileEntry, publicPath: string): Record<string, string> {
  const key = `${entry.file}\n${publicPath}`;
  let set = c.headerSets.get(key);
  if (!set) {
    set = { 'content-type': TYPES[extname(entry.file)] ?? 'application/octet-stream' };
    for (const [k, v] of Object.entries(headersFor(publicPath))) set[k.toLowerCase()] = v;
    if (c.watcher) remember(c.headerSets, key, set, CACHE_LIMITS.headerSets);
  }
  return set;
}

/** The answer for `entry` with headers `head`: a 304 when the client holds its ETag, else its bytes. */
function answer(request: Request, entry: FileEntry, head: Record<string, string>, status: number): Response {
  if (status === 200) {
    head.etag = entry.etag;
    const inm = request.headers.get('if-none-match');
    if (inm?.split(',').some((t) => t.trim() === entry.etag || t.trim() === '*')) {
      delete head['content-type'];
      return new Response(null, { status: 304, headers: head });
    }
  }
  head['content-length'] = String(entry.body.byteLength);
  // The body and the headers travel beside the response (`bodyOf`), not in it (a HEAD answer's bytes
  // are not sent): a web body and Headers would be built per request only for the glue to read them.
  const response = new Response(null, { status });
  const bytes = new Uint8Array(entry.body.buffer, entry.body.byteOffset, entry.body.byteLength);
  bodies.set(response, { bytes, head });
  return response;
}

/** Static files served from the build folder `root`, cached while a watch on it can see a rebuild. */
export function createStaticFiles(root: string): StaticFiles {
  const dir = normalize(root);
  const c: Caches = { found: new Map(), missing: new Map(), headerSets: new Map() };
  watchRoot(dir, c);
  return {
    resolve: (path) => resolveCached(dir, c, path),
    serve(request, entry, publicPath, extra = {}, status = 200) {
      const head = { ...headersOf(c, entry, publicPath) };
      for (const k in extra) head[k.toLowerCase()] = extra[k]!;
      return answer(request, entry, head, status);
    },
    cacheSize: () => ({ found: c.found.size, missing: c.missing.size, headerSets: c.headerSets.size }),
    close() {
      c.watcher?.close();
      c.watcher = undefined;
    },
  };
}
