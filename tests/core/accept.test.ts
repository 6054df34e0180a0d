import { describe, expect, it } from 'vitest';
import { wantsMarkdown } from '../../src/core/accept.ts';

describe('markdown negotiation', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html, text/markdown;q=0.5', false],
    ['text/html;q=0.5, text/markdown', true],
    ['text/markdown;q=0', false],
    ['*/*', false],
    ['text/*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['TEXT/MARKDOWN', true],
    ['text/markdown; charset=utf-8', true],
    ['text/markdown;q=0.8, */*;q=0.9', false],
    ['text/markdown;q=0.9, */*;q=0.8', true],
    ['', false],
    ['garbage;;;,,', false],
  ])('%s -> %s', (accept, expected) => {
    expect(wantsMarkdown(accept)).toBe(expected);
  });
});

describe('wantsMarkdown against JSON and x-markdown', () => {
  it.each([
    ['application/json, text/markdown;q=0.5', false],
    ['application/json, text/markdown', false],
    ['text/markdown, application/json', true],
    ['text/markdown;q=0.4, application/*;q=0.5', false],
    ['text/x-markdown', true],
    ['text/markdown, */*', true],
  ])('%s -> %s', (accept, expected) => {
    expect(wantsMarkdown(accept)).toBe(expected);
  });
});
