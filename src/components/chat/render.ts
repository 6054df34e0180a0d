/**
 * @module The chat's answers as HTML: the assistant's markdown (quoted sentences: paragraphs separated by a blank
 * line, inline links, **bold**, *emphasis*, `code`, a table row `| a | b |` or a list item's text) turned into
 * an HTML string. Everything is escaped first; only the marks listed here become elements, and a link keeps its
 * href only for http(s), mailto, tel and same-site URLs. Pure string code, so it is tested without a browser.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text node or a quoted attribute. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The URL when a link may point there: web, mail and phone links and the site's own paths. */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (!u || /[\s\u0000-\u001f]/.test(u)) return null;
  if (/^(?:https?:|mailto:|tel:)/i.test(u)) return u;
  // A browser reads `//host`, `/\host` and `\\host` as another site: a path has one leading `/` and no `\`.
  if (u.includes('\\') || u.startsWith('//')) return null;
  // A path, query or fragment: no scheme before the first / ? or #.
  return /^[^:]*(?:[/?#]|$)/.test(u) ? u : null;
}

/** The index of `mark` in `s` from `from` that closes an inline span (not escaped, content not blank). */
function closing(s: string, mark: string, from: number): number {
  for (let i = s.indexOf(mark, from); i >= 0; i = s.indexOf(mark, i + 1)) {
    if (s[i - 1] === '\\' || i === from || /\s/.test(s[i - 1]!)) continue;
    return i;
  }
  return -1;
}

/** Inline markdown to HTML: escapes, code spans, links, autolinks, strong and emphasis. */
export function renderInline(md: string): string {
  let out = '';
  let i = 0;
  while (i < md.length) {
    const c = md[i]!;
    const rest = md.slice(i);
    if (c === '\\' && /^\\[!-/:-@[-`{-~]/.test(rest)) {
      out += escapeHtml(md[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '`') {
      const ticks = /^`+/.exec(rest)![0];
      const end = md.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        out += `<code>${escapeHtml(md.slice(i + ticks.length, end).trim())}</code>`;
        i = end + ticks.length;
        continue;
      }
      out += escapeHtml(ticks);
      i += ticks.length;
      continue;
    }
    if (c === '[') {
      const link =
        /^\[((?:[^[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/.exec(
          rest,
        );
      if (link) {
        const href = safeHref(link[2]!);
        const text = renderInline(link[1]!);
        out += href ? `<a href="${escapeHtml(href)}">${text}</a>` : text;
        i += link[0].length;
        continue;
      }
    }
    if (c === '<') {
      const auto = /^<((?:https?:|mailto:)[^\s<>]+)>/i.exec(rest);
      if (auto) {
        out += `<a href="${escapeHtml(auto[1]!)}">${escapeHtml(auto[1]!)}</a>`;
        i += auto[0].length;
        continue;
      }
    }
    if (c === '*' || c === '_') {
      const double = md[i + 1] === c;
      const mark = double ? c + c : c;
      const start = i + mark.length;
      // `_` marks only at word edges (snake_case stays as it is); the content must not start with a space.
      const edge = c === '*' || !/\w/.test(md[i - 1] ?? '');
      if (edge && start < md.length && !/\s/.test(md[start]!)) {
        const end = closing(md, mark, start);
        const after = md[end + mark.length] ?? '';
        if (end > start && !(double === false && md[end + 1] === c) && (c === '*' || !/\w/.test(after))) {
          const tag = double ? 'strong' : 'em';
          out += `<${tag}>${renderInline(md.slice(start, end))}</${tag}>`;
          i = end + mark.length;
          continue;
        }
      }
      out += escapeHtml(mark);
      i += mark.length;
      continue;
    }
    out += escapeHtml(c);
    i++;
  }
  return out;
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** The cells of a markdown table row (`\|` inside a cell is a pipe). */
export function cellsOf(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/**
 * The answer's markdown as HTML blocks: a paragraph per blank-line-separated block, table rows as a small
 * table (one row alone as "a · b · c"), a list item's marker dropped.
 */
export function renderAnswer(md: string): string {
  const blocks: string[] = [];
  for (const block of md.split(/\n[ \t]*\n/)) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines.every((l) => TABLE_ROW.test(l))) {
      const rows = lines.filter((l) => !TABLE_RULE.test(l)).map(cellsOf);
      if (rows.length === 1) {
        blocks.push(`<p>${rows[0]!.map(renderInline).join(' · ')}</p>`);
      } else if (rows.length) {
        const trs = rows.map((r) => `<tr>${r.map((cell) => `<td>${renderInline(cell)}</td>`).join('')}</tr>`);
        blocks.push(`<div class="chat-table"><table><tbody>${trs.join('')}</tbody></table></div>`);
      }
      continue;
    }
    const text = lines.map((l) => l.trim().replace(/^(?:[-*+]|\d{1,3}[.)])\s+/, '')).join(' ');
    blocks.push(`<p>${renderInline(text)}</p>`);
  }
  return blocks.join('');
}

/** What the answer says, as plain text (for the live region): marks and link targets gone. */
export function plainText(md: string): string {
  return md
    .split(/\n[ \t]*\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.trim() && !TABLE_RULE.test(l))
        .map((l) => (TABLE_ROW.test(l) ? cellsOf(l).join(', ') : l.trim().replace(/^(?:[-*+]|\d{1,3}[.)])\s+/, '')))
        .join(' '),
    )
    .join(' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<((?:https?:|mailto:)[^\s<>]+)>/gi, '$1')
    .replace(/(\*\*|__|`+)(.*?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?!\w)/g, '$1$2')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A site URL as a path on this host (the API answers canonical URLs; previews and local servers stay here). */
export function pathOf(url: string): string {
  try {
    const u = new URL(url, location.href);
    return u.pathname + u.search + u.hash;
  } catch {
    return url;
  }
}
