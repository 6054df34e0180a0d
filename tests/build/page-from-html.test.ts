import { describe, expect, it } from 'vitest';
import { pageFromHtml } from '../../src/build/page-from-html.ts';

const html = `<!doctype html><html><head>
<title>Storage | Kartage</title>
<meta name="description" content="Storage billing for removalists.">
<link rel="canonical" href="https://kartage.com.au/product/storage">
<link rel="alternate" type="text/markdown" href="https://kartage.com.au/product/storage.md">
<meta name="kartage:slug" content="product/storage"><meta name="kartage:updated" content="2026-09-30">
</head><body>
<a href="#main">Skip</a>
<header><nav><a href="/pricing">Pricing</a> <a href="/blog">Blog</a></nav></header>
<main id="main"><h1>Storage</h1><p>Run <strong>storage billing</strong> in minutes. See <a href="/pricing">pricing</a>.</p>
<h2>Features</h2><ul><li>Vaults</li><li>Units</li></ul>
<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Growth</td><td>$890</td></tr></tbody></table>
<div data-md="skip"><button>Book a demo</button></div>
<form><input name="email"></form>
<script src="/x.js"></script></main>
<footer><p>ABN 61 614 223 907</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe('markdown conversion of a published page', () => {
  const { page, text } = pageFromHtml(html)!;

  it('reads the metadata from the head', () => {
    expect(page).toMatchObject({ slug: 'product/storage', title: 'Storage | Kartage', description: 'Storage billing for removalists.', url: 'https://kartage.com.au/product/storage', markdown_url: 'https://kartage.com.au/product/storage.md', updated: '2026-09-30' });
  });

  it('keeps headings, lists, links and tables', () => {
    expect(page.markdown).toContain('# Storage');
    expect(page.markdown).toContain('## Features');
    expect(page.markdown).toMatch(/^- Vaults$/m);
    expect(page.markdown).toContain('[pricing](/pricing)');
    expect(page.markdown).toMatch(/\| Plan +\| Price +\|/);
    expect(page.markdown).toMatch(/\| Growth +\| \$890 +\|/);
    expect(page.markdown).toContain('*storage billing*'.replace(/\*/g, '**'));
  });

  it('drops navigation, footer, forms, scripts and data-md="skip" parts', () => {
    expect(page.markdown).not.toContain('Blog');
    expect(page.markdown).not.toContain('ABN');
    expect(page.markdown).not.toContain('Book a demo');
    expect(page.markdown).not.toContain('Skip');
    expect(page.markdown).not.toContain('x.js');
    expect(text).toContain('Run storage billing in minutes.');
  });

  it('starts with a short header of title, description, canonical URL and date', () => {
    expect(page.markdown.split('\n').slice(0, 6)).toEqual(['---', 'title: "Storage | Kartage"', 'description: "Storage billing for removalists."', 'url: https://kartage.com.au/product/storage', 'updated: 2026-09-30', '---']);
  });

  it('ignores pages that are not content pages', () => {
    expect(pageFromHtml('<html><head><title>Search</title></head><body><main>x</main></body></html>')).toBeUndefined();
  });
});
