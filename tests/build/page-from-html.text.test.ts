import { describe, expect, it } from 'vitest';
import { pageFromHtml } from '../../src/build/page-from-html.ts';

const page = (main: string) => `<!doctype html><html><head><title>T | Kartage</title>
<link rel="canonical" href="https://kartage.com.au/x"><meta name="kartage:slug" content="x"></head>
<body><main>${main}</main></body></html>`;

describe('plain text of a page (search index and snippets)', () => {
  it('keeps block boundaries: an eyebrow, a heading and a paragraph never run together', () => {
    const { text } = pageFromHtml(
      page('<p class="eyebrow">Product</p><h1>Kartage tenant API</h1><p>Build on your data.</p>'),
    )!;
    expect(text).toBe('Product. Kartage tenant API. Build on your data.');
  });

  it('separates list items, table cells and nested blocks, and leaves inline elements joined', () => {
    const { text } = pageFromHtml(
      page(
        '<div><span>Solutions</span></div><div><h2>Software for self-storage</h2></div>' +
          '<ul><li><p>Xero</p></li><li>MYOB</li></ul><table><tr><td>Growth</td><td>$890</td></tr></table>' +
          '<p>Run <strong>storage</strong> bill<em>ing</em> “fast.”</p><p>Next</p>',
      ),
    )!;
    expect(text).toBe(
      'Solutions. Software for self-storage. Xero. MYOB. Growth. $890. Run storage billing “fast.” Next.',
    );
    expect(text).not.toMatch(/SolutionsSoftware|XeroMYOB|Growth\$/);
  });

  it('a date after a linked title is a word of its own', () => {
    const { text } = pageFromHtml(
      page(
        '<ul><li><a href="/b">One year on</a><span><time datetime="2025-01-28">28 January 2025</time></span></li></ul>',
      ),
    )!;
    expect(text).toBe('One year on 28 January 2025.');
  });
});
