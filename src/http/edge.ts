/**
 * @module Page URLs in front of the static files (the middleware, src/http/middleware.ts): markdown
 * negotiation (Accept, or a known agent's user agent), the headers of the `.md` twins, and the markdown
 * 404 of a page that does not exist when markdown was asked for. Returns a decision; the middleware turns
 * it into a rewrite, a pass-through or the pipeline's not-found answer.
 */
import { canonicalLinkHeader, pageLinkHeader } from '../contract/links.ts';
import { CONTENT_SIGNAL, CORS_READ, PAGE_VARY } from '../contract/routes.ts';
import { slugOfPath, slugOfTwinPath, twinPathOfSlug } from '../contract/slugs.ts';
import { negotiateMarkdown, wantsMarkdown } from './accept.ts';
import type { ContentSource, PageEntry } from '../core/content-source.ts';

/** What the middleware does with a page URL: the markdown 404, a rewrite to the twin, or pass on with headers. */
export type EdgeDecision =
  | { type: 'not-found' }
  | { type: 'rewrite'; path: string; headers: Record<string, string> }
  | { type: 'next'; headers: Record<string, string> };

/** What the edge decision reads: the published content. */
export interface EdgeDeps {
  content: ContentSource;
}

/** Headers of every markdown answer of a page: type, CORS, canonical link, token estimate, content signals. */
export function markdownHeaders(page: Pick<PageEntry, 'url' | 'tokens'>): Record<string, string> {
  // A markdown body has no `<link rel="canonical">`: the Link header carries it.
  return {
    'Content-Type': 'text/markdown; charset=utf-8',
    ...CORS_READ,
    Link: canonicalLinkHeader(page.url),
    'x-markdown-tokens': String(page.tokens),
    'Content-Signal': CONTENT_SIGNAL,
  };
}

/** The decoded path of a URL (decoded once: `/%2561pi` stays `/%61pi`), or undefined when its encoding is broken. */
export function decodePath(pathname: string): string | undefined {
  if (!pathname.includes('%')) return pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/** The decision for `request` to the (once-decoded, `decodePath`) site `path`. */
export function handleEdge(request: Request, path: string, deps: EdgeDeps): EdgeDecision {
  const { content } = deps;
  const read = request.method === 'GET' || request.method === 'HEAD';

  // A page's `.md` twin (a static file): the headers of every markdown answer of that page, so the
  // canonical page URL and the token estimate travel with the twin too, not only with negotiation.
  if (read && path.endsWith('.md')) {
    const slug = slugOfTwinPath(path);
    const twinOf = slug === undefined ? undefined : content.entry(slug);
    if (twinOf) return { type: 'next', headers: { ...markdownHeaders(twinOf), Vary: 'Accept' } };
  }

  // Page URLs: markdown negotiation (Accept, or a known agent's user agent). Both variants carry the same
  // Vary; the HTML one carries the site's discovery links and the page's markdown alternate.
  const slug = read ? slugOfPath(path) : undefined;
  const page = slug ? content.entry(slug) : undefined;
  const negotiated = read && negotiateMarkdown(request.headers.get('accept'), request.headers.get('user-agent'));
  if (page && negotiated) {
    return { type: 'rewrite', path: twinPathOfSlug(page.slug), headers: { ...markdownHeaders(page), Vary: PAGE_VARY } };
  }
  if (read && wantsMarkdown(request.headers.get('accept')) && !page && !content.hasFile(path)) {
    return { type: 'not-found' };
  }
  if (page) return { type: 'next', headers: { Vary: PAGE_VARY, Link: pageLinkHeader(page.slug) } };
  return { type: 'next', headers: slug ? { Vary: PAGE_VARY } : {} };
}
