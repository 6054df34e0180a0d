/**
 * The markdown twin, byte for byte (src/core/markdown-doc.ts): the front matter block (title, description,
 * canonical_url, last_updated, each on its own line, absent fields left out, a blank line before the body),
 * twin = front matter + body, and the token estimate (a quarter of the characters, rounded up).
 */
import { describe, expect, it } from 'vitest';
import { frontMatter, markdownTokens, markdownTwin } from '../../src/core/markdown-doc.ts';

const FULL = {
  title: 'Quotes "fast": moves',
  description: 'Line one: a description',
  url: 'https://x.test/quotes',
  updated: '2026-01-02',
};

describe('front matter', () => {
  it('holds title, description, canonical_url and last_updated in that order, then a blank line', () => {
    expect(frontMatter(FULL)).toBe(
      '---\n' +
        'title: "Quotes \\"fast\\": moves"\n' +
        'description: "Line one: a description"\n' +
        'canonical_url: https://x.test/quotes\n' +
        'last_updated: 2026-01-02\n' +
        '---\n\n',
    );
  });

  it('leaves out a missing description and date without leaving an empty line', () => {
    expect(frontMatter({ title: 'Plain', url: 'https://x.test/plain' })).toBe(
      '---\ntitle: "Plain"\ncanonical_url: https://x.test/plain\n---\n\n',
    );
  });
});

describe('markdown twin', () => {
  it('is the front matter followed by the body, unchanged', () => {
    const body = '# Quotes\n\nText.\n';
    expect(markdownTwin({ ...FULL, markdown: body })).toBe(frontMatter(FULL) + body);
    expect(markdownTwin({ title: 'T', url: 'https://x.test/t', markdown: '# T\n' })).toBe(
      '---\ntitle: "T"\ncanonical_url: https://x.test/t\n---\n\n# T\n',
    );
  });
});

describe('markdown token estimate', () => {
  it('is a quarter of the characters, rounded up', () => {
    expect(markdownTokens('')).toBe(0);
    expect(markdownTokens('abc')).toBe(1);
    expect(markdownTokens('abcd')).toBe(1);
    expect(markdownTokens('abcde')).toBe(2);
    expect(markdownTokens('x'.repeat(400))).toBe(100);
  });
});
