import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../src/core/content.ts';
import { contentFromData } from '../../src/core/content-source.ts';
import { getPagesBatch, listPages } from '../../src/core/paging.ts';

const page = (slug: string): ContentPage => ({
  slug,
  title: slug,
  url: `https://x.test/${slug}`,
  markdown: `# ${slug}\n`,
  text: slug,
  kind: 'page',
});
const content = (slugs: string[]) =>
  contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages: slugs.sort().map(page) }, () => {
    throw new Error('no search here');
  });

describe('listPages', () => {
  const c = content(['index', 'pricing', 'blog', 'blog/a', 'blog/b', 'blog/c', 'product/crm']);

  it('pages in ascending slug order and ends without nextCursor', () => {
    const first = listPages(c, { limit: 3 });
    expect(first.pages.map((p) => p.slug)).toEqual(['blog', 'blog/a', 'blog/b']);
    expect(first.nextCursor).toBe('blog/b');
    const rest = listPages(c, { limit: 100, cursor: first.nextCursor });
    expect(rest.pages.map((p) => p.slug)).toEqual(['blog/c', 'index', 'pricing', 'product/crm']);
    expect(rest).not.toHaveProperty('nextCursor');
  });

  it('filters by prefix and has no nextCursor on the last matching page', () => {
    const r = listPages(c, { limit: 3, prefix: 'blog/' });
    expect(r.pages.map((p) => p.slug)).toEqual(['blog/a', 'blog/b', 'blog/c']);
    expect(r).not.toHaveProperty('nextCursor');
  });

  it('continues strictly after a cursor that is no longer a page', () => {
    const r = listPages(c, { limit: 2, cursor: 'blog/bb' });
    expect(r.pages.map((p) => p.slug)).toEqual(['blog/c', 'index']);
  });
});

describe('getPagesBatch', () => {
  it('answers one result per slug in request order, duplicates kept', () => {
    const c = content(['pricing', 'index']);
    const r = getPagesBatch(c, ['pricing', 'nope', 'pricing', 'BAD!']);
    expect(r.count).toBe(4);
    expect(r.results.map((x) => [x.slug, x.found])).toEqual([
      ['pricing', true],
      ['nope', false],
      ['pricing', true],
      ['BAD!', false],
    ]);
    expect(r.results[0]).toHaveProperty('page.slug', 'pricing');
    expect(r.results[0]).not.toHaveProperty('page.text');
    expect(r.results[1]).toHaveProperty('error', expect.stringMatching(/nope/));
  });
});

describe('listing by prefix', () => {
  it('no next cursor when the pages left only end with the prefix', () => {
    const c = content(['blog/a', 'blog/b', 'zblog']);
    expect(listPages(c, { limit: 2, prefix: 'blog' })).toEqual({
      count: 2,
      pages: [expect.objectContaining({ slug: 'blog/a' }), expect.objectContaining({ slug: 'blog/b' })],
    });
    expect(listPages(c, { limit: 1, prefix: 'blog' }).nextCursor).toBe('blog/a');
  });
});

describe('a batch', () => {
  it('an invalid slug is named as such, not as a page that is not there', () => {
    const c = content(['pricing']);
    expect(getPagesBatch(c, ['Bad Slug', 'gone']).results).toEqual([
      {
        slug: 'Bad Slug',
        found: false,
        error: 'Not a valid slug: use lowercase letters, digits, "-" and "/" (see /api/v1/pages)',
      },
      { slug: 'gone', found: false, error: 'No page with slug "gone"' },
    ]);
  });
});
