/**
 * Page listing and batches at their edges (src/core/paging.ts; tests/core/paging.test.ts holds the main
 * promises): a prefix that other slugs end with, an invalid slug in a batch, and the plain text search
 * cuts snippets from (src/core/content-source.ts) for a slug that is not there. Written against the mutants
 * `npm run mutate` left (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { ContentPage } from '../../src/core/content.ts';
import { contentFromData } from '../../src/core/content-source.ts';
import { errorStack, errorText } from '../../src/core/error-text.ts';
import { getPagesBatch, listPages } from '../../src/core/paging.ts';

const page = (slug: string): ContentPage => ({
  slug,
  title: slug,
  url: `https://x.test/${slug}`,
  markdown: `# ${slug}\n`,
  text: `text of ${slug}`,
  kind: 'page',
});
const content = (slugs: string[]) =>
  contentFromData({ origin: 'https://x.test', builtAt: '', files: [], pages: slugs.sort().map(page) }, () => {
    throw new Error('no search here');
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

describe('the text search cuts snippets from', () => {
  it("is the page's plain text, and nothing for a slug that is not there", () => {
    const c = content(['pricing']);
    expect(c.snippetText('pricing')).toBe('text of pricing');
    expect(c.snippetText('gone')).toBeUndefined();
  });
});

describe('what a caught value says', () => {
  it("an error's message or stack, anything else as text, null included", () => {
    const e = new Error('boom');
    expect(errorText(e)).toBe('boom');
    expect(errorStack(e)).toBe(e.stack);
    expect(errorStack({ stack: 'at here' })).toBe('at here');
    expect(errorStack({ stack: '' })).toBe('');
    expect(errorStack(null)).toBe('null');
    expect(errorStack('plain')).toBe('plain');
    expect(errorText(null)).toBe('null');
    expect(errorText({ message: '' })).toBe('');
  });
});
