/**
 * Random page bodies for the derive step's markdown fast paths (tests/build/html-to-mdast.test.ts,
 * tests/build/mdast-to-markdown.test.ts): HTML made of the elements our layouts render, some the fast paths
 * leave to the libraries (pre, em, img, hr, comments, spans of cells…), and text full of what markdown
 * escapes (`*`, `_`, `#`, `-` and `1.` at a line start, `&`, `www.`, `https://`, brackets, spaces, line breaks).
 * Each is parsed as the derive step parses a page, and the libraries' output is what the fast paths must give.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdRoot } from 'mdast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parse } from 'parse5';
import { unified } from 'unified';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { readPage } from '../../src/build/page-from-html.ts';

/** The derive step's libraries, as src/build/page-from-html.ts configures them. */
export const libraries = unified()
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' });

export const libraryMdast = (root: HastRoot) => libraries.runSync(structuredClone(root)) as unknown as MdRoot;
export const libraryMarkdown = (md: MdRoot) => String(libraries.stringify(md as never));

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const safeWord = fc.constantFrom(
  'Move',
  'crew',
  'quotes',
  'Kartage',
  '2,000',
  '$390',
  'AUD',
  'e.g.',
  'don\u2019t',
  'café',
  'A & B',
  'plain.text',
);
const riskyWord = fc.constantFrom(
  'R&D',
  '*',
  '**',
  '_',
  '#',
  '-',
  '- ',
  '1.',
  '2)',
  '+ ',
  '>',
  '=',
  '~',
  '|',
  '`',
  '[x]',
  '![',
  '(a)',
  ':',
  '!',
  '?',
  '\\',
  '&amp;',
  '"q"',
  "'s",
  '\u00a0',
  '😀',
  'www.kartage.com.au',
  'https://kartage.com.au',
  'sales@kartage.com.au',
);
const space = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n  ', '\t');
/** Text with words, spaces and line breaks, escaped for HTML (the tree then holds the raw characters). */
const textOf = (risky: boolean) => {
  const word = risky ? fc.oneof({ weight: 3, arbitrary: safeWord }, { weight: 1, arbitrary: riskyWord }) : safeWord;
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: space }), { maxLength: 7 })
    .map((parts) => escapeHtml(parts.join('')));
};
const safeHrefs = ['https://kartage.com.au/pricing', 'https://kartage.com.au/blog/some-post', '/features'];
const riskyHrefs = [
  '#top',
  'mailto:sales@kartage.com.au',
  'https://kartage.com.au/a(b)',
  'https://kartage.com.au/?a=1&b=2',
  'https://kartage.com.au/with space',
  '',
];

/**
 * `ours`: only the elements our pages render (else also what the fast paths decline); `risky`: text with
 * characters markdown escapes (else words and spaces only, so the fast paths answer for most bodies).
 */
export function htmlBody({ ours, risky = true }: { ours: boolean; risky?: boolean }): fc.Arbitrary<string> {
  const text = textOf(risky);
  const href = fc.constantFrom(...safeHrefs, ...(risky ? riskyHrefs : []));
  const code = risky ? ['<code>npm start</code>', '<code> a </code>', '<code>a`b</code>'] : ['<code>npm start</code>'];
  const { flow } = fc.letrec<{ inline: string; flow: string }>((tie) => {
    const inline = fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 5, arbitrary: text },
      fc.tuple(href, tie('inline')).map(([h, c]) => `<a href="${escapeHtml(h)}">${c}</a>`),
      fc.tuple(href).map(([h]) => `<a href="${escapeHtml(h)}">${escapeHtml(h.replace(/^mailto:/, ''))}</a>`),
      tie('inline').map((c) => `<strong>${c}</strong>`),
      tie('inline').map((c) => `<b>${c}</b>`),
      tie('inline').map((c) => `<span class="x">${c}</span>`),
      tie('inline').map((c) => `<time datetime="2026-01-01">${c}</time>`),
      fc.constantFrom('<br>', 'x<br>y', ...code),
      ...(ours
        ? []
        : [
            tie('inline').map((c) => `<em>${c}</em>`),
            fc.constantFrom('<img src="/a.png" alt="A">', '<!-- note -->', '<input type="checkbox">'),
          ]),
      fc.array(tie('inline'), { maxLength: 3 }).map((a) => a.join('')),
    );
    const cell = fc.tuple(fc.constantFrom('th', 'td'), inline).map(([t, c]) => `<${t}>${c}</${t}>`);
    const row = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => `<tr>${cells.join('')}</tr>`);
    const item = fc.oneof(inline, tie('flow')).map((c) => `<li>${c}</li>`);
    const flowParts: fc.Arbitrary<string>[] = [
      inline.map((c) => `<p>${c}</p>`),
      fc.tuple(fc.constantFrom('h1', 'h2', 'h3'), inline).map(([h, c]) => `<${h}>${c}</${h}>`),
      fc
        .tuple(fc.constantFrom('div', 'section', 'article', 'header'), fc.array(tie('flow'), { maxLength: 3 }))
        .map(([t, kids]) => `<${t}>${kids.join('\n')}</${t}>`),
      fc
        .tuple(fc.constantFrom('ul', 'ol', 'ol start="3"'), fc.array(item, { minLength: 1, maxLength: 4 }))
        .map(([t, items]) => `<${t}>\n${items.join('\n')}\n</${t.split(' ')[0]}>`),
      fc
        .tuple(fc.boolean(), fc.array(row, { minLength: 1, maxLength: 3 }), fc.boolean())
        .map(
          ([head, rows, caption]) =>
            `<table>${caption ? '<caption>Prices</caption>' : ''}${head ? `<thead>${rows[0]}</thead>` : ''}<tbody>${rows.slice(head ? 1 : 0).join('')}</tbody></table>`,
        ),
      tie('flow').map((c) => `<blockquote>${c}</blockquote>`),
      inline,
    ];
    if (!ours)
      flowParts.push(
        fc.constantFrom('<pre><code class="language-sh">npm start\n</code></pre>', '<hr>', '<dl><dt>a</dt></dl>'),
        inline.map((c) => `<table><tr><td colspan="2">${c}</td></tr></table>`),
        inline.map((c) => `<a href="/x"><p>${c}</p></a>`),
      );
    const flow = fc.oneof({ depthSize: 'small', withCrossShrink: true }, ...flowParts);
    return { inline, flow };
  });
  return fc.array(flow, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('\n'));
}

/** The tree the derive step converts for a page whose `<main>` holds `body`: a root holding that `<main>`. */
export function mainRoot(body: string): HastRoot {
  const html = `<!doctype html><html><head></head><body><main>${body}</main></body></html>`;
  const doc = fromParse5(parse(html, { scriptingEnabled: false }), { space: 'html' }) as HastRoot;
  const find = (node: HastRoot | Element): Element | undefined => {
    if (node.type === 'element' && node.tagName === 'main') return node;
    for (const c of node.children) {
      const found = c.type === 'element' ? find(c) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const main = find(doc);
  if (!main) throw new Error('no <main>');
  return { type: 'root', children: [main] } as HastRoot;
}

/** Every content page of the project's build (`dist/`): its file and the tree the derive step converts. */
export function builtPages(): { file: string; root: HastRoot }[] {
  const files = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  return files.flatMap((file) => {
    const read = readPage(readFileSync(join('dist', file), 'utf8'));
    return read ? [{ file, root: read.root }] : [];
  });
}
