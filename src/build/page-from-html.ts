/**
 * @module Turns one published HTML page into the contract's Page: metadata from the head, and the body as
 * markdown from `<main>` with navigation, footer and `data-md="skip"` parts removed. The body starts with
 * the page's H1 (a line the page shows above it, such as the eyebrow, goes below it), and its links and
 * images are absolute, so the markdown stands alone. The `.md` twin is front matter plus this body
 * (src/core/markdown-doc.ts), so the twin and the JSON's `markdown` cannot differ.
 */
import { unified } from 'unified';
import { parse } from 'parse5';
import { fromParse5 } from 'hast-util-from-parse5';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import type { Element, Root, RootContent } from 'hast';
import type { Root as MdRoot } from 'mdast';
import type { Page } from '../contract/schemas.ts';
import { PAGE_KINDS, type PageKind } from '../contract/content.ts';
import { fastMdast } from './html-to-mdast.ts';
import { fastMarkdown } from './mdast-to-markdown.ts';
import { type AskPageData, askPageData } from '../core/ask-indexer/assemble.ts';
import type { HeadingAnchor } from '../core/ask-indexer/sections.ts';

const toMarkdown = unified()
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' });

/**
 * The HTML as hast, as rehype-parse builds it but without source positions (nothing here reads them, and
 * tracking them and then copying them through hast-util-to-mdast's clone took a fifth of the derive step).
 */
const parseHtml = (html: string) => fromParse5(parse(html, { scriptingEnabled: false }), { space: 'html' }) as Root;

/**
 * The part of a page this step reads: the head and `<main>` (the header and footer around it are two fifths of
 * a page's HTML and nothing here reads them). Only when the page has one `<main>`, after its head, so the
 * result is the tree `<main>` has in the whole page; otherwise the whole page.
 */
export function headAndMain(html: string): string {
  const headEnd = html.indexOf('</head>');
  const start = html.search(/<main[\s>]/);
  const end = html.indexOf('</main>');
  if (headEnd < 0 || start < headEnd || end < start) return html;
  if (html.indexOf('<main', start + 5) >= 0 || html.indexOf('</main>', end + 7) >= 0) return html;
  return `${html.slice(0, headEnd)}</head><body>${html.slice(start, end)}</main></body></html>`;
}

const attr = (el: Element | undefined, name: string) => {
  const v = el?.properties?.[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v.join(' ') : undefined;
};

/** Elements whose content is a block of its own: their edges are word (and sentence) boundaries in plain text. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
/** Inline elements that never continue the word before them (a date after a linked title: "one year on 28 Jan"). */
const SPACED = new Set(['time']);

/**
 * Plain text of a subtree. A block's end is a boundary: a sentence break (". ") after a block that ends in a
 * word (a heading, an eyebrow, a list item), a space otherwise, so blocks never run together ("Product Kartage").
 */
function textOf(node: Element | Root | undefined): string {
  if (!node) return '';
  const parts: string[] = [];
  // The last non-space character written so far ('' at the start or right after a boundary).
  let last = '';
  const boundary = () => {
    if (!last) return;
    parts.push(/[\p{L}\p{N})\]]/u.test(last) ? '. ' : ' ');
    last = '';
  };
  const walk = (n: Root | RootContent): void => {
    if (n.type === 'text') {
      parts.push(n.value);
      const end = n.value.trimEnd();
      if (end) last = end.at(-1) ?? '';
    } else if ('children' in n) {
      const block = n.type === 'element' && BLOCKS.has(n.tagName);
      if (block || (n.type === 'element' && SPACED.has(n.tagName))) parts.push(' ');
      n.children.forEach(walk);
      if (block) boundary();
    }
  };
  walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Makes root-relative `href` and `src` values absolute against `origin` (an agent may hold only the markdown). */
function absolutize(root: Element, origin: string) {
  const walk = (el: Element) => {
    const name = el.tagName === 'a' ? 'href' : el.tagName === 'img' ? 'src' : undefined;
    const v = name && el.properties[name];
    if (typeof v === 'string' && v.startsWith('/') && !v.startsWith('//')) el.properties[name!] = origin + v;
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(root);
}

/** Moves whatever comes before the first top-level H1 (the eyebrow line) to just after it. */
function h1First(tree: MdRoot) {
  const i = tree.children.findIndex((n) => n.type === 'heading' && n.depth === 1);
  if (i > 0) tree.children = [tree.children[i]!, ...tree.children.slice(0, i), ...tree.children.slice(i + 1)];
}

/** Elements the markdown and the text leave out, with everything inside them. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'footer', 'form', 'button', 'svg']);
const skipped = (el: Element) => SKIPPED.has(el.tagName) || el.properties.dataMd === 'skip';

/** Removes the skipped elements (`[data-md="skip"]`, scripts, navigation, forms…) from the tree under `root`. */
function prune(root: Element) {
  const walk = (el: Element | Root) => {
    if (el.children.some((c) => c.type === 'element' && skipped(c))) {
      el.children = el.children.filter((c) => c.type !== 'element' || !skipped(c)) as typeof el.children;
    }
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(root);
}

/** What the page reads outside `<main>`: the first of each (document order), as a CSS selector would find it. */
export interface Found {
  main?: Element;
  title?: Element;
  meta: Map<string, Element>;
  canonical?: Element;
  markdownLink?: Element;
}

/** One walk over the document for `<main>`, `<title>`, the named `<meta>`s and the two `<link>`s. */
function findParts(tree: Root): Found {
  const found: Found = { meta: new Map() };
  const walk = (node: Element | Root) => {
    for (const c of node.children) {
      if (c.type !== 'element') continue;
      const tag = c.tagName;
      if (tag === 'main') found.main ??= c;
      else if (tag === 'title') found.title ??= c;
      else if (tag === 'meta') {
        const name = attr(c, 'name');
        if (name !== undefined && !found.meta.has(name)) found.meta.set(name, c);
      } else if (tag === 'link') {
        const rel = attr(c, 'rel');
        if (rel === 'canonical') found.canonical ??= c;
        else if (rel === 'alternate' && attr(c, 'type') === 'text/markdown') found.markdownLink ??= c;
      }
      walk(c);
    }
  };
  walk(tree);
  return found;
}

export interface PageFromHtml {
  page: Page;
  /** Plain text of the body (for search and snippets). */
  text: string;
  /** The page's kind, from its `kartage:kind` meta tag (BaseLayout); `page` when the tag is absent. */
  kind: PageKind;
  /** The `<h2>`/`<h3>` headings of `<main>` that have an id, in order (the assistant's section anchors). */
  headings: HeadingAnchor[];
  /** The page's part of the assistant's index (worked out here, in the page workers, and cached with the page). */
  ask: AskPageData;
}

/** The text of an element's text nodes, joined as they are (a heading's inline content). */
const inlineText = (n: Element | RootContent): string =>
  n.type === 'text' ? n.value : 'children' in n ? n.children.map((c) => inlineText(c as RootContent)).join('') : '';

/** The `<h2>`/`<h3>` elements with an id under `node`, in document order. */
function headingsOf(node: Element): HeadingAnchor[] {
  const out: HeadingAnchor[] = [];
  const walk = (n: Element) => {
    for (const c of n.children) {
      if (c.type !== 'element') continue;
      const id = attr(c, 'id');
      if ((c.tagName === 'h2' || c.tagName === 'h3') && id) {
        out.push({ depth: Number(c.tagName[1]), id, text: inlineText(c).replace(/\s+/g, ' ').trim() });
      } else walk(c);
    }
  };
  walk(node);
  return out;
}

/** A page's kind from its `kartage:kind` meta tag; an unknown kind is a build error. */
function kindOf(found: Found, slug: string): PageKind {
  const kind = attr(found.meta.get('kartage:kind'), 'content') ?? 'page';
  if (kind === 'post' || (PAGE_KINDS as readonly string[]).includes(kind)) return kind as PageKind;
  throw new Error(`page ${slug}: unknown kind "${kind}"`);
}

/**
 * Reads a content page's HTML; `undefined` for pages that are not content (no `kartage:slug`). `whole` parses
 * the whole page instead of its head and `<main>`, and `libraries` turns the markdown fast paths off (the
 * libraries alone: the reference the fast paths are held to); the result is the same (the tests compare them).
 */
export function pageFromHtml(
  html: string,
  opts: { whole?: boolean; libraries?: boolean } = {},
): PageFromHtml | undefined {
  const read = readPage(html, opts.whole);
  if (!read) return undefined;
  const { slug, found, root } = read;
  const headings = headingsOf(root.children[0] as Element);
  const meta = (name: string) => attr(found.meta.get(name), 'content');
  const title = textOf(found.title);
  const description = meta('description');
  const url = attr(found.canonical, 'href')!;
  const markdownUrl = attr(found.markdownLink, 'href');
  const updated = meta('kartage:updated');

  // The fast paths give the libraries' tree and text for what they know; anything else goes through the libraries.
  const md = (opts.libraries ? undefined : fastMdast(root)) ?? (toMarkdown.runSync(root) as unknown as MdRoot);
  h1First(md);
  const written =
    (opts.libraries ? undefined : fastMarkdown(md)) ??
    String(toMarkdown.stringify(md as Parameters<typeof toMarkdown.stringify>[0]));
  const markdown = `${written.trim()}\n`;
  const page: Page = { slug, title, url, markdown };
  if (description) page.description = description;
  if (markdownUrl) page.markdown_url = markdownUrl;
  if (updated) page.updated = updated;
  const ask = askPageData({ slug, markdown, headings });
  return { page, text: textOf(root.children[0] as Element), kind: kindOf(found, slug), headings, ask };
}

/**
 * A content page's parts: its slug, what the head holds, and the tree the markdown is made from (a root holding
 * `<main>` with the skipped parts removed and links made absolute); `undefined` for pages that are not content.
 */
export function readPage(html: string, whole = false): { slug: string; found: Found; root: Root } | undefined {
  const tree = parseHtml(whole ? html : headAndMain(html));
  const found = findParts(tree);
  const slug = attr(found.meta.get('kartage:slug'), 'content');
  if (!slug) return undefined;
  const main = found.main;
  if (!main) throw new Error(`page ${slug} has no <main>`);
  prune(main);
  const url = attr(found.canonical, 'href');
  if (!textOf(found.title) || !url) throw new Error(`page ${slug} lacks <title> or canonical link`);
  absolutize(main, new URL(url).origin);
  return { slug, found, root: { type: 'root', children: [main] } };
}
