/**
 * Accept negotiation (src/core/accept.ts) at the edges the other accept tests leave open: a space before a
 * range's parameters, the first of two equally specific ranges counting, and markdown only when a range
 * names it (text/markdown or text/x-markdown), never through `text/*` or another type's `markdown`.
 */
import { describe, expect, it } from 'vitest';
import { qualityOf, wantsMarkdown } from '../../src/core/accept.ts';

describe('Accept ranges', () => {
  it('reads a range with a space before its parameters', () => {
    expect(wantsMarkdown('text/markdown ;q=0.9, text/html;q=0.5')).toBe(true);
    expect(qualityOf('text/html ;q=0.3', 'text/html')).toBe(0.3);
  });

  it('takes the first of two equally specific ranges', () => {
    expect(qualityOf('text/html;q=0.5, text/html;q=0.9', 'text/html')).toBe(0.5);
    expect(wantsMarkdown('text/markdown;q=0.5, application/json;q=0.4, application/json;q=0.6')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.5, application/json;q=0.6, application/json;q=0.4')).toBe(false);
  });
});

describe('markdown must be named', () => {
  it('is not asked for by text/* ranking above HTML', () => {
    expect(qualityOf('text/*, text/html;q=0.5', 'text/markdown')).toBe(1);
    expect(wantsMarkdown('text/*, text/html;q=0.5')).toBe(false);
  });

  it('is not named by another type with a markdown subtype', () => {
    expect(wantsMarkdown('application/markdown, text/*, text/html;q=0.5')).toBe(false);
    expect(wantsMarkdown('application/x-markdown, text/*, text/html;q=0.5')).toBe(false);
  });

  it('is named by text/x-markdown', () => {
    expect(wantsMarkdown('text/x-markdown, text/html;q=0.5')).toBe(true);
  });
});
