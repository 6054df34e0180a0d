import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { headAndMain, pageFromHtml } from '../../src/build/page-from-html.ts';
import { markdownTokens, markdownTwin } from '../../src/core/markdown-doc.ts';

const html = `<!doctype html><html><head>
<title>Storage | Kartage</title>
<meta name="description" content="Storage billing for removalists.">
<link rel="canonical" href="https://kartage.com.au/product/storage">
<link rel="alternate" type="text/markdown" href="https://kartage.com.au/product/storage.md">
<meta name="kartage:slug" content="product/storage"><meta name="kartage:updated" content="2026-09-30">
</head><body>
<a href="#main">Skip</a>
<header><nav><a href="/pricing">Pricing</a> <a href="/blog">Blog</a></nav></header>
<main id="main"><p class="eyebrow">Product</p><h1>Storage</h1><p>Run <strong>storage billing</strong> in minutes. See <a href="/pricing">pricing</a>.</p>
<h2>Features</h2><ul><li>Vaults</li><li>Units</li></ul><img src="/img/vault.png" alt="A vault">
<p><a href="https://example.com/x">elsewhere</a> <a href="#features">below</a> <a href="//cdn.example.com/y">cdn</a></p>
<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Growth</td><td>$890</td></tr></tbody></table>
<div data-md="skip"><button>Book a demo</button></div>
<form><input name="email"></form>
<script src="/x.js"></script></main>
<footer><p>ABN 61 614 223 907</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

describe('markdown conversion of a published page', () => {
  const { page, text } = pageFromHtml(html)!;

  it('reads the metadata from the head', () => {
    expect(page).toMatchObject({
      slug: 'product/storage',
      title: 'Storage | Kartage',
      description: 'Storage billing for removalists.',
      url: 'https://kartage.com.au/product/storage',
      markdown_url: 'https://kartage.com.au/product/storage.md',
      updated: '2026-09-30',
    });
  });

  it('keeps headings, lists, links and tables', () => {
    expect(page.markdown).toContain('# Storage');
    expect(page.markdown).toContain('## Features');
    expect(page.markdown).toMatch(/^- Vaults$/m);
    expect(page.markdown).toContain('[pricing](https://kartage.com.au/pricing)');
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

  it('starts with the H1; the eyebrow line that came before it follows it', () => {
    expect(page.markdown.split('\n').slice(0, 5)).toEqual([
      '# Storage',
      '',
      'Product',
      '',
      'Run **storage billing** in minutes. See [pricing](https://kartage.com.au/pricing).',
    ]);
  });

  it('makes root-relative links and images absolute, and leaves other links alone', () => {
    expect(page.markdown).toContain('![A vault](https://kartage.com.au/img/vault.png)');
    expect(page.markdown).toContain('[elsewhere](https://example.com/x)');
    expect(page.markdown).toContain('[below](#features)');
    expect(page.markdown).toContain('[cdn](//cdn.example.com/y)');
    expect(page.markdown).not.toMatch(/\]\(\/[^/]/);
  });

  it('the twin is front matter (title, description, canonical_url, last_updated) and then the body', () => {
    const twin = markdownTwin(page);
    expect(twin.split('\n').slice(0, 8)).toEqual([
      '---',
      'title: "Storage | Kartage"',
      'description: "Storage billing for removalists."',
      'canonical_url: https://kartage.com.au/product/storage',
      'last_updated: 2026-09-30',
      '---',
      '',
      '# Storage',
    ]);
    expect(twin.endsWith(page.markdown)).toBe(true);
    expect(parseYaml(twin.split('---\n')[1]!)).toEqual({
      title: page.title,
      description: page.description,
      canonical_url: page.url,
      last_updated: page.updated,
    });
  });

  it('the token estimate is a quarter of the characters, rounded up', () => {
    expect(markdownTokens('')).toBe(0);
    expect(markdownTokens('abcde')).toBe(2);
  });

  it('ignores pages that are not content pages', () => {
    expect(pageFromHtml('<html><head><title>Search</title></head><body><main>x</main></body></html>')).toBeUndefined();
  });
});

describe('the page kind', () => {
  const withKind = (tag: string) => html.replace('<meta name="kartage:updated"', `${tag}<meta name="kartage:updated"`);

  it('comes from the kartage:kind meta tag and stays out of the Page', () => {
    const derived = pageFromHtml(withKind('<meta name="kartage:kind" content="listing">'))!;
    expect(derived.kind).toBe('listing');
    expect(pageFromHtml(withKind('<meta name="kartage:kind" content="post">'))!.kind).toBe('post');
    expect(Object.keys(derived.page)).not.toContain('kind');
  });

  it('is a plain page when the tag is absent, and an unknown kind stops the build', () => {
    expect(pageFromHtml(html)!.kind).toBe('page');
    const unknown = withKind('<meta name="kartage:kind" content="landing">');
    expect(() => pageFromHtml(unknown)).toThrow(/unknown kind "landing"/);
  });
});

describe('the head and <main> are all the derive step parses', () => {
  const doc = (
    body: string,
  ) => `<!doctype html><html><head><title>T | Kartage</title><link rel="canonical" href="https://kartage.com.au/x">
<meta name="kartage:slug" content="x"></head><body>${body}</body></html>`;
  const chrome = (main: string) =>
    `<header><nav><a href="/">Home</a><svg><title>Logo</title></svg></nav></header><div class="page">${main}</div><footer>© Kartage</footer>`;

  it('keeps the head and <main> and drops the rest', () => {
    const sliced = headAndMain(doc(chrome('<main id="m"><h1>Hi</h1><p>Body</p></main>')));
    expect(sliced).toContain('<title>T | Kartage</title>');
    expect(sliced).toContain('<main id="m"><h1>Hi</h1><p>Body</p></main>');
    expect(sliced).not.toMatch(/Home|Logo|footer/);
  });

  it('leaves a page alone when <main> is not there once, after the head', () => {
    for (const body of ['<p>no main</p>', '<main>a</main><main>b</main>', '<script>"<main>"</script><main>x</main>']) {
      expect(headAndMain(doc(body))).toBe(doc(body));
    }
    const mainInHead = '<html><head><script>"<main>"</script></head><body></body></html>';
    expect(headAndMain(mainInHead)).toBe(mainInHead);
  });

  it('every page of the build: the Page and text the whole page gives', () => {
    const pages = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(50);
    for (const f of pages) {
      const html = readFileSync(join('dist', f), 'utf8');
      expect(pageFromHtml(html), f).toEqual(pageFromHtml(html, { whole: true }));
    }
  });

  it('every page of the build ends with its document: nothing after </html> (a script placed after the layout)', () => {
    const pages = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
    const after = pages.filter((f) => !/<\/html>\s*$/.test(readFileSync(join('dist', f), 'utf8')));
    expect(after).toEqual([]);
  });

  it('gives the Page and text the whole page gives', () => {
    const main =
      '<main><p class="eyebrow">Product</p><h1>Storage</h1><p>Run <a href="/pricing">billing</a>.</p><nav>skip</nav></main>';
    const whole = doc(chrome(main));
    const sliced = headAndMain(whole);
    expect(sliced).not.toBe(whole);
    expect(pageFromHtml(whole)).toEqual(pageFromHtml(whole, { whole: true }));
    expect(pageFromHtml(sliced, { whole: true })).toEqual(pageFromHtml(whole, { whole: true }));
    expect(pageFromHtml(whole)!.page.markdown).toBe(
      '# Storage\n\nProduct\n\nRun [billing](https://kartage.com.au/pricing).\n',
    );
  });
});
