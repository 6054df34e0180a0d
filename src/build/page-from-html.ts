/**
 * @module Turns one published HTML page into the contract's Page: metadata from the head, and the body as
 * markdown from `<main>` with navigation, footer and `data-md="skip"` parts removed. The body starts with
 * the page's H1 (a line the page shows above it, such as the eyebrow, goes below it), and its links and
 * images are absolute, so the markdown stands alone. The `.md` twin is front matter plus this body
 * (src/core/markdown-doc.ts), so the twin and the JSON's `markdown` cannot differ.
 */
import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { select, selectAll } from 'hast-util-select';
import type { Element, Root } from 'hast';
import type { Root as MdRoot } from 'mdast';
import type { Page } from '../contract/schemas.ts';
import { PAGE_KINDS, type PageKind } from '../contract/content.ts';

const toMarkdown = unified()
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' });

const parser = unified().use(rehypeParse);

const attr = (el: Element | undefined, name: string) => {
  const v = el?.properties?.[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v.join(' ') : undefined;
};

/** Elements whose content is a block of its own: their edges are word (and sentence) boundaries in plain text. */
const BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'td', 'th', 'tr', 'ul']);
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
  const walk = (n: any) => {
    if (n.type === 'text') {
      parts.push(n.value);
      const end = n.value.trimEnd();
      if (end) last = end[end.length - 1];
    } else if (n.children) {
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
  for (const el of selectAll('a[href], img[src]', root)) {
    const name = el.tagName === 'a' ? 'href' : 'src';
    const v = el.properties[name];
    if (typeof v === 'string' && v.startsWith('/') && !v.startsWith('//')) el.properties[name] = origin + v;
  }
}

/** Moves whatever comes before the first top-level H1 (the eyebrow line) to just after it. */
function h1First(tree: MdRoot) {
  const i = tree.children.findIndex((n) => n.type === 'heading' && n.depth === 1);
  if (i > 0) tree.children = [tree.children[i]!, ...tree.children.slice(0, i), ...tree.children.slice(i + 1)];
}

/** Removes nodes matching `selector` from the tree under `root`. */
function prune(root: Element, selector: string) {
  const doomed = new Set(selectAll(selector, root));
  const walk = (el: Element | Root) => {
    el.children = el.children.filter((c) => !doomed.has(c as Element)) as any;
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(root);
}

export interface PageFromHtml {
  page: Page;
  /** Plain text of the body (for search and snippets). */
  text: string;
  /** The page's kind, from its `kartage:kind` meta tag (BaseLayout); `page` when the tag is absent. */
  kind: PageKind;
}

/** A page's kind from its `kartage:kind` meta tag; an unknown kind is a build error. */
function kindOf(tree: Root, slug: string): PageKind {
  const kind = attr(select('meta[name="kartage:kind"]', tree), 'content') ?? 'page';
  if (kind === 'post' || (PAGE_KINDS as readonly string[]).includes(kind)) return kind as PageKind;
  throw new Error(`page ${slug}: unknown kind "${kind}"`);
}

/** Reads a content page's HTML; `undefined` for pages that are not content (no `kartage:slug`). */
export function pageFromHtml(html: string): PageFromHtml | undefined {
  const tree = parser.parse(html) as Root;
  const slug = attr(select('meta[name="kartage:slug"]', tree), 'content');
  if (!slug) return undefined;
  const main = select('main', tree);
  if (!main) throw new Error(`page ${slug} has no <main>`);
  prune(main, '[data-md="skip"], script, style, noscript, template, nav, footer, form, button, svg');

  const title = textOf(select('title', tree));
  const description = attr(select('meta[name="description"]', tree), 'content');
  const url = attr(select('link[rel="canonical"]', tree), 'href');
  const markdownUrl = attr(select('link[rel="alternate"][type="text/markdown"]', tree), 'href');
  const updated = attr(select('meta[name="kartage:updated"]', tree), 'content');
  if (!title || !url) throw new Error(`page ${slug} lacks <title> or canonical link`);

  absolutize(main, new URL(url).origin);
  const md = toMarkdown.runSync({ type: 'root', children: [main] } as Root) as unknown as MdRoot;
  h1First(md);
  const markdown = `${String(toMarkdown.stringify(md as any)).trim()}\n`;
  const page: Page = { slug, title, url, markdown };
  if (description) page.description = description;
  if (markdownUrl) page.markdown_url = markdownUrl;
  if (updated) page.updated = updated;
  return { page, text: textOf(main), kind: kindOf(tree, slug) };
}
