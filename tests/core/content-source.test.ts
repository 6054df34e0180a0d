/**
 * The in-memory content source (src/core/content-source.ts): a page's entry carries the token estimate of
 * its whole twin (front matter and body), the assistant's index is built from the pages unless one is
 * given and is loaded once, the static paths are the data's files, and a page's plain text (what search cuts
 * snippets from) is there for its slug only.
 */
import { describe, expect, it } from 'vitest';
import type { ContentData, ContentPage } from '../../src/core/content.ts';
import { contentFromData, entryOf } from '../../src/core/content-source.ts';
import { AskIndex } from '../../src/core/ask/index.ts';
import type { SearchIndex } from '../../src/core/search/compact-index.ts';

const PAGE: ContentPage = {
  slug: 'a',
  title: 'T',
  url: 'https://x.test/a',
  markdown: 'x'.repeat(400),
  text: 'plain',
  kind: 'page',
};
const DATA: ContentData = {
  origin: 'https://x.test',
  builtAt: '2026-01-02T00:00:00Z',
  pages: [PAGE],
  files: ['/x.txt'],
};
const noIndex = (): SearchIndex => {
  throw new Error('search index not expected');
};

describe('a page entry', () => {
  it('is the summary, the kind and the token estimate of the twin, front matter included', () => {
    // Twin: '---\ntitle: "T"\ncanonical_url: https://x.test/a\n---\n\n' (52 characters) + 400: 452 / 4 = 113.
    expect(entryOf(PAGE)).toEqual({ slug: 'a', title: 'T', url: 'https://x.test/a', kind: 'page', tokens: 113 });
  });
});

describe('the assistant index', () => {
  it('is built from the pages when none is given', () => {
    expect(contentFromData(DATA, noIndex).askIndex()).toBeInstanceOf(AskIndex);
  });

  it('is loaded once, on first use, from the loader given', () => {
    const made = { made: true } as unknown as AskIndex;
    let calls = 0;
    const source = contentFromData(DATA, noIndex, () => {
      calls++;
      return made;
    });
    expect(calls).toBe(0);
    expect(source.askIndex()).toBe(made);
    expect(source.askIndex()).toBe(made);
    expect(calls).toBe(1);
  });
});

describe('static files', () => {
  it('are the paths the data lists, and only those', () => {
    const source = contentFromData(DATA, noIndex);
    expect(source.hasFile('/x.txt')).toBe(true);
    expect(source.hasFile('/y.txt')).toBe(false);
  });
});

describe('the text search cuts snippets from', () => {
  it("is the page's plain text, and nothing for a slug that is not there", () => {
    const c = contentFromData({ ...DATA, pages: [{ ...PAGE, slug: 'pricing', text: 'text of pricing' }] }, noIndex);
    expect(c.snippetText('pricing')).toBe('text of pricing');
    expect(c.snippetText('gone')).toBeUndefined();
  });
});
