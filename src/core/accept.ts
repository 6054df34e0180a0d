/** @module Accept header negotiation (RFC 9110 section 12.5.1) between HTML/JSON and markdown. */

interface Range { type: string; subtype: string; q: number; specificity: number }

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    out.push({ type, subtype, q, specificity: type === '*' ? 0 : subtype === '*' ? 1 : 2 });
  }
  return out;
}

/** The q-value the Accept header gives `mediaType` (most specific matching range wins); 0 if none. */
export function qualityOf(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: Range | undefined;
  for (const r of parseAccept(accept)) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (!best || r.specificity > best.specificity)) best = r;
  }
  return best?.q ?? 0;
}

/**
 * True when the client asks for markdown: `text/markdown` is acceptable and ranks strictly above both
 * HTML and JSON. A bare `*\/*` never switches to markdown.
 */
export function wantsMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  const md = qualityOf(accept, 'text/markdown');
  if (md <= 0) return false;
  const explicit = parseAccept(accept).some((r) => r.type === 'text' && (r.subtype === 'markdown' || r.subtype === 'x-markdown'));
  if (!explicit) return false;
  return md > qualityOf(accept, 'text/html') || (md === qualityOf(accept, 'text/html') && md > 0 && firstExplicit(accept) === 'text/markdown');
}

/** Which of markdown/html is listed first, for ties of equal q. */
function firstExplicit(accept: string): string | undefined {
  for (const r of parseAccept(accept)) {
    const t = `${r.type}/${r.subtype}`;
    if (t === 'text/markdown' || t === 'text/html') return t;
  }
  return undefined;
}
