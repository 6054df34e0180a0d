/**
 * @module The derive step's fast path from a page's `<main>` (hast) to mdast: the tree hast-util-to-mdast
 * (rehype-remark, `document: true`) builds, node for node, for the HTML our layouts and content render, without
 * its cost: hast-util-to-mdast clones the whole tree, minifies its whitespace with a per-node test that rebuilds
 * its matcher on every call, and walks it three more times.
 *
 * It reproduces that library's rules for the elements it knows (flow containers, paragraphs, headings, block
 * quotes, links, strong/emphasis, inline code, breaks, lists, tables, and phrasing wrappers such as span and
 * time): rehype-minify-whitespace's collapsing, the implicit paragraphs of `wrap`, list and list-item spread, table
 * rows, cells and alignment, and the final text clean-up. Anything else in the tree (an element it does not
 * know, a comment, pre-formatted or no-wrap whitespace, a link holding blocks, a cell spanning rows or
 * columns, a nested table, inline code with edge whitespace…) makes it answer `undefined`, and the caller
 * uses the library instead. It never changes the tree it is given. tests/build/html-to-mdast.test.ts holds
 * it to the library on every page of the build and on generated trees.
 */
import type { Element, ElementContent, Root, Text } from 'hast';
import type {
  Blockquote,
  Heading,
  InlineCode,
  List,
  ListItem,
  PhrasingContent,
  Root as MdRoot,
  RootContent as MdContent,
  Table,
  TableCell,
  TableRow,
} from 'mdast';

/** Thrown (and caught in fastMdast) when the tree holds something this path does not reproduce. */
class Unsupported extends Error {}
const unsupported = (what: string): never => {
  throw new Unsupported(what);
};

/** Elements that are blocks to rehype-minify-whitespace (its `block.js`, the ones this path knows). */
const BLOCKS = new Set(
  'article blockquote br caption div h1 h2 h3 h4 h5 h6 header li main ol p section table tbody td th thead tr ul'.split(
    ' ',
  ),
);

/** What hast-util-to-mdast does with each element this path knows. */
type Handling =
  | 'flow'
  | 'blockquote'
  | 'all'
  | 'ignore'
  | 'p'
  | 'heading'
  | 'a'
  | 'strong'
  | 'em'
  | 'code'
  | 'br'
  | 'list'
  | 'li'
  | 'table'
  | 'tr'
  | 'cell';
const HANDLING: Record<string, Handling> = {
  main: 'flow',
  div: 'flow',
  section: 'flow',
  article: 'flow',
  header: 'flow',
  blockquote: 'blockquote',
  span: 'all',
  time: 'all',
  thead: 'all',
  tbody: 'all',
  caption: 'ignore',
  p: 'p',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  a: 'a',
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  code: 'code',
  br: 'br',
  ul: 'list',
  ol: 'list',
  li: 'li',
  table: 'table',
  tr: 'tr',
  th: 'cell',
  td: 'cell',
};
/** Elements hast-util-phrasing counts as phrasing (those of the list above). */
const HAST_PHRASING = new Set(['a', 'b', 'br', 'code', 'em', 'i', 'span', 'strong', 'time']);
/** mdast node types mdast-util-phrasing counts as phrasing (those this path makes). */
const MD_PHRASING = new Set(['break', 'emphasis', 'inlineCode', 'link', 'strong', 'text']);

const isWhitespace = (value: string) => /^[ \t\n\f\r]*$/.test(value);

/**
 * rehype-minify-whitespace, without touching the tree: the new value of every text node ('' when it goes).
 * Its `content` and `embedded` elements (form controls, images, media) never get here (they are unsupported),
 * so the rules that depend on them are left out.
 */
function minify(root: Root): Map<Text, string> {
  const values = new Map<Text, string>();

  /** Whether whitespace after `index` in `nodes` may collapse (a block comes before any content). */
  const collapsableAfter = (
    nodes: ElementContent[],
    index: number,
    after: boolean | undefined,
  ): boolean | undefined => {
    for (let i = index + 1; i < nodes.length; i++) {
      const node = nodes[i]!;
      let result: boolean | undefined;
      if (node.type === 'element') {
        if (BLOCKS.has(node.tagName)) result = true;
        else if (!node.properties.hidden) result = collapsableAfter(node.children, -1, undefined);
      } else if (node.type === 'text') {
        if (!isWhitespace(node.value)) result = false;
      } else unsupported(node.type);
      if (typeof result === 'boolean') return result;
    }
    return after;
  };

  /** Minifies the children of `parent`; returns whether whitespace at the start of what follows may go. */
  const all = (parent: Element | Root, before: boolean, after: boolean | undefined): boolean => {
    const children = parent.children as ElementContent[];
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type === 'text') {
        const value = child.value.replace(/[\t\n\v\f\r ]+/g, ' ');
        let start = 0;
        let end = value.length;
        let stripAtStart = false;
        if (before && value.charAt(0) === ' ') start++;
        if (start !== end && value.charAt(end - 1) === ' ') {
          if (collapsableAfter(children, i, after)) end--;
          else stripAtStart = true;
        }
        if (start === end) values.set(child, '');
        else {
          values.set(child, value.slice(start, end));
          before = stripAtStart;
        }
      } else if (child.type === 'element') {
        // A block's edges are boundaries; what follows an inline element decides whether its end may collapse.
        const block = BLOCKS.has(child.tagName);
        before = all(child, block || before, block || collapsableAfter(children, i, after));
      } else unsupported(child.type);
    }
    return before || Boolean(after);
  };

  all(root, true, true);
  return values;
}

const dropSurroundingBreaks = <T extends { type: string }>(nodes: T[]): T[] => {
  let start = 0;
  let end = nodes.length;
  while (start < end && nodes[start]!.type === 'break') start++;
  while (end > start && nodes[end - 1]!.type === 'break') end--;
  return start === 0 && end === nodes.length ? nodes : nodes.slice(start, end);
};

type Md = MdContent;
const mdPhrasing = (node: Md) => MD_PHRASING.has(node.type);

function wrapNeeded(nodes: Md[]): boolean {
  return nodes.some((n) => !mdPhrasing(n) || ('children' in n && wrapNeeded(n.children as Md[])));
}

/** hast-util-to-mdast's `wrap`: runs of phrasing become paragraphs (unless only whitespace). */
function wrap(nodes: Md[]): Md[] {
  const out: Md[] = [];
  let queue: Md[] = [];
  const flush = () => {
    if (queue.length && !queue.every((n) => n.type === 'text' && isWhitespace(n.value)))
      out.push({ type: 'paragraph', children: dropSurroundingBreaks(queue) as PhrasingContent[] });
    queue = [];
  };
  for (const node of nodes) {
    // A link holding blocks is split around them by the library; not reproduced here.
    if (node.type === 'link' && wrapNeeded(node.children as Md[])) unsupported('link with blocks');
    if (mdPhrasing(node)) queue.push(node);
    else {
      flush();
      out.push(node);
    }
  }
  flush();
  return out;
}

/** hast-util-to-mdast's `toSpecificContent` where every child is already of the expected type. */
function only<T extends Md>(nodes: Md[], type: T['type']): T[] {
  for (const n of nodes) if (n.type !== type) unsupported(`${n.type} among ${type}s`);
  return nodes as T[];
}

/** hast-util-phrasing for the elements this path knows. */
const hastPhrasing = (el: Element) => HAST_PHRASING.has(el.tagName);

function spreadout(node: Element): boolean {
  let seenFlow = false;
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (hastPhrasing(child)) continue;
    if (child.tagName === 'p' || seenFlow || spreadout(child)) return true;
    seenFlow = true;
  }
  return false;
}

/** An inline `<code>` of one text node, as hast-util-to-mdast makes it; anything else is unsupported. */
function inlineCode(el: Element, values: Map<Text, string>): InlineCode {
  const [only, ...rest] = el.children;
  if (rest.length || only?.type !== 'text') return unsupported('inline code');
  const value = values.get(only) ?? '';
  // hast-util-to-text's inner text of the element; the same as the minified text when no space is at an edge.
  if (!value || value !== only.value || /^\s|\s$/.test(value)) return unsupported('inline code');
  return { type: 'inlineCode', value };
}

/** A `<ul>` or `<ol>` of converted items (an `<ol>`'s `start`, 1 when absent or not a number). */
function listOf(el: Element, children: ListItem[]): List {
  const ordered = el.tagName === 'ol';
  let start: number | null = null;
  if (ordered) {
    start = Number.parseInt(String(el.properties.start), 10);
    if (Number.isNaN(start)) start = 1;
  }
  const spread = children.length > 1 && children.some((c) => c.spread);
  return { type: 'list', ordered, start, spread, children };
}

/** A table of converted rows, every row padded to the widest (an empty header row first when it has none). */
function tableOf(rows: TableRow[], align: Table['align'] & unknown[], headless: boolean): Table {
  if (headless) rows.unshift({ type: 'tableRow', children: [] });
  let columns = 1;
  for (const row of rows) columns = Math.max(columns, row.children.length);
  for (const row of rows) while (row.children.length < columns) row.children.push({ type: 'tableCell', children: [] });
  while (align.length < columns) align.push(null);
  return { type: 'table', align, children: rows };
}

/** Converts the minified tree; `values` holds the text nodes' minified values. */
function convert(root: Root, values: Map<Text, string>): MdRoot {
  let inTable = false;

  const all = (parent: Element | Root): Md[] => {
    const out: Md[] = [];
    for (const child of parent.children) {
      if (child.type === 'text') {
        const value = values.get(child);
        if (value) out.push({ type: 'text', value });
      } else if (child.type === 'element') {
        const result = one(child);
        if (Array.isArray(result)) out.push(...result);
        else if (result) out.push(result);
      } else unsupported(child.type);
    }
    return out;
  };

  const one = (el: Element): Md | Md[] | undefined => {
    const handling = HANDLING[el.tagName] ?? unsupported(el.tagName);
    if (el.properties.dataMdast !== undefined) unsupported('data-mdast');
    switch (handling) {
      case 'flow':
        return wrap(all(el));
      case 'blockquote':
        return { type: 'blockquote', children: wrap(all(el)) as Blockquote['children'] };
      case 'all':
        return all(el);
      case 'ignore':
        return undefined;
      case 'p': {
        const children = dropSurroundingBreaks(all(el)) as PhrasingContent[];
        return children.length > 0 ? { type: 'paragraph', children } : undefined;
      }
      case 'heading': {
        const depth = Number(el.tagName.charAt(1)) as Heading['depth'];
        return { type: 'heading', depth, children: dropSurroundingBreaks(all(el)) as PhrasingContent[] };
      }
      case 'a': {
        if (el.properties.title !== undefined) unsupported('link title');
        const href = el.properties.href;
        return { type: 'link', url: href ? String(href) : '', title: null, children: all(el) as PhrasingContent[] };
      }
      case 'strong':
        return { type: 'strong', children: all(el) as PhrasingContent[] };
      case 'em':
        return { type: 'emphasis', children: all(el) as PhrasingContent[] };
      case 'code':
        return inlineCode(el, values);
      case 'br':
        return { type: 'break' };
      case 'list':
        return listOf(el, only<ListItem>(all(el), 'listItem'));
      case 'li': {
        const children = wrap(all(el)) as ListItem['children'];
        return { type: 'listItem', spread: spreadout(el), checked: null, children };
      }
      case 'table': {
        if (inTable) unsupported('nested table');
        inTable = true;
        const { align, headless } = inspect(el);
        const table = tableOf(only<TableRow>(all(el), 'tableRow'), align, headless);
        inTable = false;
        return table;
      }
      case 'tr':
        return { type: 'tableRow', children: only<TableCell>(all(el), 'tableCell') };
      case 'cell': {
        const { rowSpan, colSpan, noWrap } = el.properties;
        if (rowSpan || colSpan || noWrap) unsupported('cell span or nowrap');
        return { type: 'tableCell', children: all(el) as PhrasingContent[] };
      }
    }
  };

  return { type: 'root', children: wrap(all(root)) };
}

/** hast-util-to-mdast's table `inspect`: column alignment (none here) and whether the table has a header row. */
function inspect(table: Element): { align: Table['align'] & unknown[]; headless: boolean } {
  const align: (null | 'left' | 'right' | 'center')[] = [null];
  let headless = true;
  let rowIndex = 0;
  let cellIndex = 0;
  const walk = (node: Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      const tag = child.tagName;
      if (tag === 'table') continue;
      if (tag === 'th' || tag === 'td') {
        if (child.properties.align !== undefined) unsupported('cell align');
        if (!align[cellIndex]) align[cellIndex] = null;
        if (headless && rowIndex < 2 && tag === 'th') headless = false;
        cellIndex++;
      } else if (tag === 'thead') headless = false;
      else if (tag === 'tr') {
        rowIndex++;
        cellIndex = 0;
      }
      walk(child);
    }
  };
  walk(table);
  return { align, headless };
}

/** hast-util-to-mdast's last pass: adjacent texts merged, line-edge spaces and paragraph-edge spaces dropped. */
function cleanText(parent: { type: string; children: Md[] }) {
  const kids = parent.children;
  const edges = parent.type === 'heading' || parent.type === 'paragraph' || parent.type === 'root';
  for (let i = 0; i < kids.length; ) {
    const node = kids[i]!;
    if (node.type !== 'text') {
      if ('children' in node) cleanText(node as { type: string; children: Md[] });
      i++;
      continue;
    }
    const previous = kids[i - 1];
    if (previous?.type === 'text') {
      previous.value += node.value;
      kids.splice(i, 1);
      i--;
      continue;
    }
    node.value = node.value.replace(/[\t ]*(\r?\n|\r)[\t ]*/, '$1');
    if (edges) {
      if (i === 0) node.value = node.value.replace(/^[\t ]+/, '');
      if (i === kids.length - 1) node.value = node.value.replace(/[\t ]+$/, '');
    }
    if (!node.value) kids.splice(i, 1);
    else i++;
  }
}

/**
 * The mdast hast-util-to-mdast (with rehype-remark's `document: true`) makes of `root`, or `undefined` when the
 * tree holds anything this path does not reproduce exactly. `root` is not changed.
 */
export function fastMdast(root: Root): MdRoot | undefined {
  try {
    const md = convert(root, minify(root));
    cleanText(md as { type: string; children: Md[] });
    return md;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}
