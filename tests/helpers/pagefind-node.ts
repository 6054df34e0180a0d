/**
 * @module Pagefind's own browser search (dist/pagefind/pagefind.js and its wasm) run in Node over the built
 * index, with a fetch that reads the files from disk: the ranking a visitor gets from Pagefind's UI.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface PagefindApi {
  options(o: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(q: string): Promise<{ results: { id: string; data(): Promise<{ url: string }> }[] }>;
}

/** Ranked slugs from Pagefind for a query (top `limit`). */
export async function pagefindRunner(distDir: string): Promise<(q: string) => Promise<string[]>> {
  const root = join(distDir, 'pagefind');
  globalThis.fetch = (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.startsWith('file:') ? new URL(url).pathname : join(distDir, new URL(url, 'http://x').pathname);
    const body = await readFile(decodeURIComponent(path));
    return new Response(body, {
      headers: { 'content-type': path.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream' },
    });
  }) as typeof fetch;
  const pf = (await import(pathToFileURL(join(root, 'pagefind.js')).href)) as PagefindApi;
  await pf.options({ basePath: pathToFileURL(`${root}/`).href, baseUrl: '/' });
  await pf.init();
  return async (q) => {
    const { results } = await pf.search(q);
    const top = await Promise.all(results.slice(0, 10).map((r) => r.data()));
    return top.map(
      (d) =>
        d.url
          .replace(/^(file:)?\/+/, '')
          .replace(/\.html$/, '')
          .replace(/\/$/, '') || 'index',
    );
  };
}
