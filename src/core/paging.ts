/** @module listPages and getPagesBatch over the loaded content (SPEC.md; order and cursor: DESIGN.md section 2). */
import type { BatchResponse, BatchResult, ListPagesQuery, ListPagesResponse } from '../contract/schemas.ts';
import { isSlug } from '../contract/slugs.ts';
import type { ContentSource, PageEntry } from './content-source.ts';

/** The contract's PageSummary of an entry. */
const summaryOf = ({ tokens: _t, kind: _k, ...summary }: PageEntry) => summary;

/** Pages in ascending slug order (byte order), strictly after `cursor`, filtered by `prefix`. */
export function listPages(content: ContentSource, q: ListPagesQuery): ListPagesResponse {
  const pages = content.entries(); // sorted by slug at build time
  let start = 0;
  if (q.cursor !== undefined) {
    // First slug strictly greater than the cursor: a page added or removed between calls cannot cause a skip or repeat.
    let lo = 0;
    let hi = pages.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pages[mid]!.slug <= q.cursor) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const picked = [];
  let i = start;
  for (; i < pages.length && picked.length < q.limit; i++) {
    const p = pages[i]!;
    if (q.prefix === undefined || p.slug.startsWith(q.prefix)) picked.push(summaryOf(p));
  }
  const more = pages.slice(i).some((p) => q.prefix === undefined || p.slug.startsWith(q.prefix));
  const out: ListPagesResponse = { count: picked.length, pages: picked };
  if (more && picked.length) out.nextCursor = picked[picked.length - 1]!.slug;
  return out;
}

/** One result per requested slug, in request order, duplicates kept. */
export function getPagesBatch(content: ContentSource, slugs: string[]): BatchResponse {
  const results = slugs.map((slug): BatchResult => {
    if (!isSlug(slug))
      return {
        slug,
        found: false,
        error: 'Not a valid slug: use lowercase letters, digits, "-" and "/" (see /api/v1/pages)',
      };
    const page = content.page(slug);
    return page ? { slug, found: true, page } : { slug, found: false, error: `No page with slug "${slug}"` };
  });
  return { count: results.length, results };
}
