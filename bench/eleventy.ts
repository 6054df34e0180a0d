/**
 * @module The reference static-site generator for the build benchmark: Eleventy 3 renders the same
 * markdown (the synthetic corpus's `content/pages` and `content/blog`) into HTML with one Nunjucks layout
 * (head with title, description and canonical link, a header with navigation, the page, a footer). It does
 * less than our build: no per-page JSON, markdown twins, search index or Pagefind, no table of contents
 * or related posts; it is the plain "markdown to HTML pages" baseline.
 *
 *   node bench/eleventy.ts <contentDir> <outDir>   # prints one JSON line: pages written and time
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error Eleventy 3 ships no type declarations for its ESM entry
import Eleventy from '@11ty/eleventy';

const LAYOUT = `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} | Kartage</title>
<meta name="description" content="{{ description }}">
<link rel="canonical" href="https://kartage.example{{ page.url }}">
<link rel="stylesheet" href="/styles.css">
</head>
<body>
<header class="site-header"><a href="/" class="logo">Kartage</a>
<nav aria-label="Main"><ul>
<li><a href="/product">Product</a></li><li><a href="/solutions">Solutions</a></li><li><a href="/pricing">Pricing</a></li>
<li><a href="/customers">Customers</a></li><li><a href="/blog">Blog</a></li><li><a href="/developers">Developers</a></li>
<li><a href="/contact">Contact</a></li><li><a href="/demo">Book a demo</a></li>
</ul></nav></header>
<main id="main">
<article>
{% if eyebrow %}<p class="eyebrow">{{ eyebrow }}</p>{% endif %}
<h1>{{ title }}</h1>
{% if author %}<p class="byline">{{ author }}{% if published %} · {{ published }}{% endif %}</p>{% endif %}
<p class="lead">{{ description }}</p>
{{ content | safe }}
</article>
</main>
<footer class="site-footer"><p>Kartage Pty Ltd · Melbourne</p>
<ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li><li><a href="/security">Security</a></li></ul></footer>
</body>
</html>
`;

export async function buildWithEleventy(contentDir: string, outDir: string): Promise<{ pages: number; ms: number }> {
  const includes = join(contentDir, '_includes');
  await mkdir(includes, { recursive: true });
  await writeFile(join(includes, 'base.njk'), LAYOUT);
  const started = performance.now();
  const elev = new Eleventy(contentDir, outDir, {
    quietMode: true,
    config(cfg: { addGlobalData(k: string, v: unknown): void; setTemplateFormats(f: string[]): void }) {
      cfg.addGlobalData('layout', 'base.njk');
      cfg.setTemplateFormats(['md']);
    },
  });
  const written = (await elev.write()) as unknown;
  // Eleventy 3 resolves to [passthroughCopies, templates]; count the templates.
  const templates = Array.isArray(written)
    ? (written.flat().filter((t) => t && typeof t === 'object' && 'outputPath' in t) as unknown[])
    : [];
  return { pages: templates.length, ms: performance.now() - started };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [contentDir, outDir] = process.argv.slice(2);
  if (!contentDir || !outDir) {
    console.error('usage: node bench/eleventy.ts <contentDir> <outDir>');
    process.exit(2);
  }
  console.log(JSON.stringify(await buildWithEleventy(contentDir, outDir)));
}
