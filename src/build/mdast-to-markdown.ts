/**
 * @module The derive step's fast path from mdast to markdown: the text remark-stringify (mdast-util-to-markdown
 * 2 with remark-gfm's extensions and page-from-html.ts's options) writes, for the trees html-to-mdast.ts makes
 * of our pages, without its general machinery (a context stack, an unsafe-pattern scan of every text, and an
 * attention solver that tries marker sequences), which was half of the derive step per page once the tree
 * itself was fast.
 *
 * It writes headings (ATX), paragraphs, block quotes, lists (tight and spread, `-` and `1.`, a second adjacent
 * list with the other marker), tables (padded and aligned as markdown-table pads them), links and autolinks,
 * strong, inline code, hard breaks and text, with the library's rules for joining blocks. It declines (answers
 * `undefined`, and the caller uses the library) whenever the library could escape, encode or re-mark
 * something: any text holding a character some unsafe pattern names in a place that pattern could match,
 * emphasis, strong whose edges the library would encode, adjacent strong, a URL with characters the library
 * would escape or enclose, a break in a heading or cell, a table inside a list. tests/build/mdast-to-markdown
 * .test.ts holds it to the library on every page of the build and on generated trees.
 */
import type { Blockquote, List, ListItem, PhrasingContent, Root, RootContent, Table, TableCell } from 'mdast';

class Declined extends Error {}
const decline = (what: string): never => {
  throw new Declined(what);
};

type Flow = RootContent;
type Parent = { type: string; children: Flow[]; spread?: boolean | null };

/** micromark's classifyCharacter: 1 whitespace, 2 punctuation, 0 anything else (a "letter"). */
function kind(ch: string): 0 | 1 | 2 {
  if (ch === '' || /\s/.test(ch)) return ch === '' ? 0 : 1;
  return /\p{P}|\p{S}/u.test(ch) ? 2 : 0;
}
const classOf = (s: string, last: boolean) => kind(last ? s.charAt(s.length - 1) : s.charAt(0));

/** Characters some unsafe pattern escapes wherever it finds them (or in places too many to tell apart). */
const ALWAYS_UNSAFE = /[\\*_[\]<>`#|~@\t\r\n\u007F\u0000-\u001F]/;
/** What a pattern escapes at the start of a line ("at a break"): any ASCII punctuation, a space, `1.`/`1)`. */
const AT_BREAK_UNSAFE = /^(?:[\t ]|[!-/:-@[-`{-~]|\d+[.)])/;
/** Characters a link destination may hold without the library escaping it or enclosing it in `<>`. */
const SAFE_URL = /^[A-Za-z0-9\-._~:/?#@!$'*+,;=%]*$/;

/**
 * Whether the library's `safe` would leave `value` as it is, with `before` the character written just before it
 * and `after` the first character written after it. A superset of its unsafe patterns, whatever the construct.
 */
function plain(value: string, before: string, after: string): boolean {
  if (ALWAYS_UNSAFE.test(value)) return false;
  const around = before + value + after;
  if ((before === '\n' || before === '\r') && AT_BREAK_UNSAFE.test(value)) return false;
  if (/[\t ]$/.test(value) && (after === '\n' || after === '\r')) return false;
  if (/&[#A-Za-z]/.test(around) || /!\[/.test(around) || /\]\(/.test(around)) return false;
  if (/[Ww]\.[-.\w]/.test(around) || /[ps]:\//.test(around)) return false;
  return true;
}

function isAutolink(node: { url: string; title?: string | null; children: PhrasingContent[] }): boolean {
  const [only, ...rest] = node.children;
  if (rest.length || only?.type !== 'text') return false;
  const raw = only.value;
  return (
    Boolean(node.url) &&
    !node.title &&
    (raw === node.url || `mailto:${raw}` === node.url) &&
    /^[a-z][+\-.a-z]+:/i.test(node.url) &&
    !/[\0- <>\u007F]/.test(node.url)
  );
}

/** The first character the library writes for `node` (its `peek`), as its phrasing serializer looks ahead. */
function firstOf(node: PhrasingContent): string {
  switch (node.type) {
    case 'text':
      return node.value.charAt(0);
    case 'strong':
      return '*';
    case 'inlineCode':
      return '`';
    case 'break':
      return '\\';
    case 'link':
      return isAutolink(node) ? '<' : '[';
    default:
      return decline(node.type);
  }
}

interface Context {
  /** What the library's list handler remembers between sibling lists (`bulletLastUsed`). */
  bulletLastUsed?: string;
  inHeading: boolean;
  inCell: boolean;
  inStrong?: boolean;
}

/**
 * The phrasing children of `parent`, written as the library writes them between `before` (the last character
 * written before them) and `after` (the first written after them).
 */
function phrasing(children: PhrasingContent[], before: string, after: string, ctx: Context): string {
  let out = '';
  let last = before;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    const next = i + 1 < children.length ? firstOf(children[i + 1]!) : after;
    let value: string;
    switch (node.type) {
      case 'text':
        if (!plain(node.value, last, next)) decline('text');
        value = node.value;
        break;
      case 'strong': {
        const prev = children[i - 1];
        const following = children[i + 1];
        if (ctx.inStrong || prev?.type === 'strong' || following?.type === 'strong') decline('strong in or by strong');
        const inner = phrasing(node.children, '*', '*', { ...ctx, inStrong: true });
        if (!inner) {
          value = '';
          break;
        }
        // The library encodes an edge unless it already forms strong: a letter inside, or punctuation inside
        // with whitespace or punctuation outside; it never writes whitespace at the inside edge plainly.
        const head = classOf(inner, false);
        const tail = classOf(inner, true);
        if (head === 1 || tail === 1) decline('strong edge');
        if (head === 2 && kind(last.charAt(last.length - 1)) === 0) decline('strong edge');
        if (tail === 2 && kind(next.charAt(0)) === 0) decline('strong edge');
        value = `**${inner}**`;
        break;
      }
      case 'inlineCode':
        if (/[`\r\n]/.test(node.value) || (ctx.inCell && node.value.includes('|'))) decline('inline code');
        if (/^[\r\n ]/.test(node.value) && /[\r\n ]$/.test(node.value) && /[^\r\n ]/.test(node.value))
          decline('inline code padding');
        value = `\`${node.value}\``;
        break;
      case 'break':
        if (ctx.inHeading || ctx.inCell) decline('break');
        value = '\\\n';
        break;
      case 'link': {
        if (node.title) decline('link title');
        if (isAutolink(node)) {
          value = `<${(node.children[0] as { value: string }).value}>`;
          break;
        }
        if (!SAFE_URL.test(node.url)) decline('url');
        value = `[${phrasing(node.children, '[', ']', ctx)}](${node.url})`;
        break;
      }
      default:
        return decline(node.type);
    }
    if (!value) continue;
    out += value;
    last = value.charAt(value.length - 1);
  }
  return out;
}

/** mdast-util-to-markdown's `joinDefaults` (and remark-gfm's joins, which never apply to these trees). */
function between(left: Flow, right: Flow, parent: Parent): string {
  if (typeof parent.spread !== 'boolean') return '\n\n';
  if (parent.spread) return '\n\n';
  if (left.type === 'blockquote' && right.type === 'blockquote') return '\n\n';
  if (
    left.type === 'paragraph' &&
    right.type === 'list' &&
    ((right.ordered && typeof right.start === 'number' && right.start !== 1) ||
      (right.children.length > 0 && right.children[0]!.children.length === 0))
  )
    return '\n\n';
  let tail: Flow = left;
  while ((tail.type === 'blockquote' || tail.type === 'list' || tail.type === 'listItem') && tail.children.length > 0)
    tail = tail.children[tail.children.length - 1] as Flow;
  if (tail.type !== 'paragraph') return '\n';
  // Setext headings are written only for headings with a break (declined), so a heading never counts here.
  if ((left.type === 'paragraph' || (left as unknown) !== tail) && right.type === 'paragraph') return '\n\n';
  return '\n';
}

function flow(parent: Parent, ctx: Context): string {
  let out = '';
  const kids = parent.children;
  for (let i = 0; i < kids.length; i++) {
    const child = kids[i]!;
    out += block(child, parent, ctx);
    if (child.type !== 'list') ctx.bulletLastUsed = undefined;
    if (i < kids.length - 1) out += between(child, kids[i + 1]!, parent);
  }
  return out;
}

const indentLines = (value: string, map: (line: string, index: number, blank: boolean) => string) =>
  value
    .split('\n')
    .map((line, i) => map(line, i, !line))
    .join('\n');

function block(node: Flow, parent: Parent, ctx: Context): string {
  switch (node.type) {
    case 'paragraph':
      return phrasing(node.children, '\n', '\n', ctx);
    case 'heading': {
      if (node.depth < 3 && node.children.some((c) => c.type === 'break')) decline('setext heading');
      const value = phrasing(node.children, ' ', '\n', { ...ctx, inHeading: true });
      if (/^[\t ]/.test(value)) decline('heading edge');
      const sequence = '#'.repeat(Math.max(Math.min(6, node.depth || 1), 1));
      return value ? `${sequence} ${value}` : sequence;
    }
    case 'blockquote':
      return indentLines(flow(node as Blockquote as Parent, ctx), (line, _, blank) => `>${blank ? '' : ' '}${line}`);
    case 'list':
      return list(node, parent, ctx);
    case 'table':
      if (parent.type === 'listItem') decline('table in a list');
      return table(node, ctx);
    default:
      return decline(node.type);
  }
}

function list(node: List, parent: Parent, ctx: Context): string {
  let bullet = node.ordered ? '.' : '-';
  const other = node.ordered ? ')' : '*';
  if (parent && ctx.bulletLastUsed && bullet === ctx.bulletLastUsed) bullet = other;
  let out = '';
  for (let i = 0; i < node.children.length; i++) {
    const item = node.children[i]!;
    if (item.children.length === 0) decline('empty list item');
    out += listItem(item, node, bullet, ctx);
    ctx.bulletLastUsed = undefined;
    if (i < node.children.length - 1) out += between(item, node.children[i + 1]!, node as unknown as Parent);
  }
  ctx.bulletLastUsed = bullet;
  return out;
}

function listItem(node: ListItem, parent: List, bullet: string, ctx: Context): string {
  if (node.checked !== null && node.checked !== undefined) decline('task list item');
  const marker = parent.ordered
    ? `${(typeof parent.start === 'number' && parent.start > -1 ? parent.start : 1) + parent.children.indexOf(node)}${bullet}`
    : bullet;
  const size = marker.length + 1;
  return indentLines(flow(node as unknown as Parent, ctx), (line, index, blank) =>
    index ? (blank ? '' : ' '.repeat(size)) + line : (blank ? marker : `${marker} `) + line,
  );
}

/** remark-gfm's table handler: cells written between `|`s, then markdown-table's padded, aligned rows. */
function table(node: Table, ctx: Context): string {
  const cellCtx = { ...ctx, inCell: true };
  const matrix = node.children.map((row) =>
    row.children.map((cell: TableCell) => phrasing(cell.children, '|', '|', cellCtx)),
  );
  const columns = node.align ? node.align.length : 0;
  if (node.align?.some((a) => a)) decline('aligned table');
  const head = matrix[0];
  if (head) while (head.length < columns) head.push('');
  const most = Math.max(0, ...matrix.map((r) => r.length));
  const longest: number[] = [];
  for (const row of matrix)
    row.forEach((cell, c) => {
      if (longest[c] === undefined || cell.length > longest[c]!) longest[c] = cell.length;
    });
  const delimiter: string[] = [];
  for (let c = 0; c < most; c++) {
    const size = Math.max(1, longest[c]!);
    delimiter[c] = '-'.repeat(size);
    if (size > longest[c]!) longest[c] = size;
  }
  const rows = [matrix[0] ?? [], delimiter, ...matrix.slice(1)];
  const lines = rows.map((row, r) => {
    const cells = Math.max(1, (r === 1 ? rows[0]! : row).length);
    let line = '';
    for (let c = 0; c < cells; c++) {
      const cell = row[c] ?? '';
      if (!c) line += '|';
      line += ` ${cell}${' '.repeat((longest[c] ?? 0) - cell.length)} |`;
    }
    return line;
  });
  return lines.join('\n');
}

/**
 * What remark-stringify (with remark-gfm and the derive step's options) writes for `tree`, or `undefined` when
 * the tree holds anything this path does not write exactly as the library does.
 */
export function fastMarkdown(tree: Root): string | undefined {
  try {
    const ctx: Context = { inHeading: false, inCell: false };
    if (tree.children.some((c) => ['text', 'strong', 'link', 'inlineCode', 'break', 'emphasis'].includes(c.type)))
      return undefined;
    const result = flow(tree as Parent, ctx);
    return result && !result.endsWith('\n') && !result.endsWith('\r') ? `${result}\n` : result;
  } catch (e) {
    if (e instanceof Declined) return undefined;
    throw e;
  }
}
