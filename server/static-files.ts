/**
 * @module Static files from the build output, served the way Vercel serves them: clean URLs (`/pricing` ->
 * `pricing.html`, `.html` redirects to the clean URL), header rules from the route table, strong ETags
 * and 304s, HEAD, and a real 404.
 */
import { createHash } from 'node:crypto';
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

interface Entry { body: Buffer; etag: string; mtimeMs: number }

export interface StaticFiles {
  /** The file for a public path, after clean-URL resolution; undefined when none. */
  resolve(path: string): Promise<string | undefined>;
  /** Serves `file` for `publicPath`, applying header rules, ETag and 304, plus `extra` headers. */
  serve(request: Request, file: string, publicPath: string, extra?: Record<string, string>, status?: number): Promise<Response>;
}

export function createStaticFiles(root: string): StaticFiles {
  const cache = new Map<string, Entry>();
  const isFile = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() ?? false;

  async function load(file: string): Promise<Entry> {
    const { mtimeMs } = await stat(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit;
    const body = await readFile(file);
    const entry = { body, mtimeMs, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    cache.set(file, entry);
    return entry;
  }

  return {
    async resolve(path) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        return undefined;
      }
      if (decoded.includes('\0')) return undefined;
      const full = normalize(join(root, decoded));
      if (full !== root && !full.startsWith(root + sep)) return undefined; // path traversal
      if (decoded === '/') return (await isFile(join(root, 'index.html'))) ? join(root, 'index.html') : undefined;
      if (decoded.endsWith('/')) return undefined;
      if (await isFile(full)) return full;
      if (!extname(decoded) || !(full.endsWith('.html'))) {
        const html = `${full}.html`;
        if (await isFile(html)) return html;
      }
      return undefined;
    },

    async serve(request, file, publicPath, extra = {}, status = 200) {
      const entry = await load(file);
      const headers = new Headers({ 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      for (const [k, v] of Object.entries(headersFor(publicPath))) headers.set(k, v);
      for (const [k, v] of Object.entries(extra)) headers.set(k, v);
      if (status === 200) {
        headers.set('ETag', entry.etag);
        const inm = request.headers.get('if-none-match');
        if (inm && inm.split(',').some((t) => t.trim() === entry.etag || t.trim() === '*')) {
          headers.delete('Content-Type');
          return new Response(null, { status: 304, headers });
        }
      }
      headers.set('Content-Length', String(entry.body.byteLength));
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(entry.body), { status, headers });
    },
  };
}
