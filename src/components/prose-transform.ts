/**
 * Small string transforms over the HTML that Astro renders from markdown. They only add wrappers and
 * classes (never change the text), so the markdown version of a page reads the same.
 */

/** Plain text of an HTML fragment. */
const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Wraps each table in a focusable, horizontally scrolling region so wide tables work on phones (each
 * region is named after its column headings), and makes code blocks focusable so they can be scrolled
 * from the keyboard.
 */
export function wrapTables(html: string): string {
  const used = new Map<string, number>();
  return html
    .replace(/<table(?:\s[^>]*)?>[\s\S]*?<\/table>/g, (table) => {
      const head = table.match(/<thead>([\s\S]*?)<\/thead>/)?.[1] ?? '';
      const cols = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => text(m[1] ?? '')).filter(Boolean);
      let label = cols.length ? `Table: ${cols.join(', ')}` : 'Table';
      const n = (used.get(label) ?? 0) + 1;
      used.set(label, n);
      if (n > 1) label += ` (${n})`;
      const attr = label.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      return `<div class="table-scroll" tabindex="0" role="region" aria-label="${attr}">${table}</div>`;
    })
    .replace(/<pre(?=[\s>])/g, '<pre tabindex="0"');
}

/** Lists whose items mostly open with a bold link become card grids (home page). */
function cardLists(html: string): string {
  return html.replace(/<ul>([\s\S]*?)<\/ul>/g, (whole, inner: string) => {
    const items = inner.match(/<li>/g)?.length ?? 0;
    const linked = inner.match(/<li><strong><a /g)?.length ?? 0;
    if (items < 3 || linked / items < 0.6) return whole;
    // A title is a bold link followed by a colon: `<li><strong><a …>Title</a></strong>: text</li>`.
    const body = inner.replace(
      /<li><strong>(<a [^>]*>(?:(?!<\/a>)[\s\S])*<\/a>)<\/strong>:\s*((?:(?!<\/li>)[\s\S])*)<\/li>/g,
      '<li class="card-item"><strong class="card-title">$1</strong><span class="vh">: </span><span class="card-desc">$2</span></li>',
    );
    return `<ul class="card-list">${body.replace(/<li>/g, '<li class="card-item">')}</ul>`;
  });
}

/** Consecutive blockquotes (testimonials) sit side by side. */
function quoteGrids(html: string): string {
  return html.replace(/(?:<blockquote>[\s\S]*?<\/blockquote>\s*){2,}/g, (m) => `<div class="quote-grid">${m}</div>`);
}

/** A section made of H3 sub-sections becomes a grid of features. */
function featureGrid(html: string): string {
  const parts = html.split(/(?=<h3[\s>])/);
  if (parts.length < 3) return html;
  const [head, ...features] = parts;
  return `${head}<div class="feature-grid">${features.map((f) => `<div class="feature">${f}</div>`).join('')}</div>`;
}

/**
 * Home page: each H2 section becomes a full-width band; the text before the first H2 is an intro band.
 * The section that links to most product pages gets `id="product"` (the header's product overview link).
 */
export function homeSections(html: string): string {
  const [intro, ...sections] = html.split(/(?=<h2[\s>])/);
  let out = intro?.trim()
    ? `<section class="band band-intro"><div class="container band-inner">${intro}</div></section>`
    : '';
  const productCounts = sections.map((s) => s.match(/href="\/product\//g)?.length ?? 0);
  const productIdx = productCounts.indexOf(Math.max(...productCounts));
  sections.forEach((s, i) => {
    const last = i === sections.length - 1 && sections.length > 1;
    const cls = last ? 'band band-closing' : i % 2 === 0 ? 'band band-soft' : 'band';
    const id = i === productIdx && (productCounts[i] ?? 0) >= 5 ? ' id="product"' : '';
    out += `<section class="${cls}"${id}><div class="container band-inner">${featureGrid(quoteGrids(cardLists(s)))}</div></section>`;
  });
  return out;
}
