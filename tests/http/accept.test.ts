import { describe, expect, it } from 'vitest';
import { isAgentUserAgent, negotiateMarkdown, wantsMarkdown, acceptParses, qualityOf } from '../../src/http/accept.ts';

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

describe('agent user agents', () => {
  const browser =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
  it.each([
    ['ClaudeBot/1.0', true],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', true],
    ['Mozilla/5.0 (compatible; Claude-User/1.0; +Claude-User@anthropic.com)', true],
    ['PerplexityBot/1.0', true],
    [browser, false],
    ['curl/8.5.0', false],
    ['Googlebot/2.1 (+http://www.google.com/bot.html)', false],
    ['', false],
  ])('%s -> %s', (ua, expected) => {
    expect(isAgentUserAgent(ua)).toBe(expected);
  });

  it.each([
    [null, 'ClaudeBot/1.0', 'agent'],
    ['*/*', 'ClaudeBot/1.0', 'agent'],
    ['text/plain, */*', 'ClaudeBot/1.0', 'agent'],
    ['text/html', 'ClaudeBot/1.0', undefined],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'GPTBot/1.2', undefined],
    ['application/json', 'GPTBot/1.2', undefined],
    ['text/markdown', browser, 'accept'],
    ['text/markdown', 'ClaudeBot/1.0', 'accept'],
    [null, browser, undefined],
    ['*/*', null, undefined],
  ])('Accept %s, User-Agent %s -> %s', (accept, ua, expected) => {
    expect(negotiateMarkdown(accept, ua)).toBe(expected);
  });
});

describe('the most specific range wins', () => {
  it.each([
    // HTML's own range ranks it, not text/* (before or after it).
    ['text/markdown;q=0.6, text/*;q=0.9, text/html;q=0.5', true],
    ['text/markdown;q=0.6, text/html;q=0.5, text/*;q=0.9', true],
    // JSON counts by its own range, not application/*.
    ['application/*;q=0.9, application/json;q=0.3, text/markdown;q=0.5', true],
    ['application/json;q=0.3, application/*;q=0.9, text/markdown;q=0.5', true],
    // x-markdown by its own range, not text/*.
    ['text/*;q=0.1, text/x-markdown;q=0.8, text/html;q=0.5', true],
    ['text/x-markdown;q=0.8, text/*;q=0.1, text/html;q=0.5', true],
  ])('%s -> %s', (accept, expected) => {
    expect(wantsMarkdown(accept)).toBe(expected);
  });

  it('qualityOf: the exact type over type/*, over */*, in any order; 0 when nothing matches', () => {
    expect(qualityOf('*/*;q=0.1, text/*;q=0.5, text/html;q=0.8', 'text/html')).toBe(0.8);
    expect(qualityOf('text/html;q=0.8, text/*;q=0.5, */*;q=0.1', 'text/html')).toBe(0.8);
    expect(qualityOf('text/*;q=0.5, */*;q=0.1', 'text/plain')).toBe(0.5);
    expect(qualityOf('*/*;q=0.1, text/*;q=0.5', 'text/plain')).toBe(0.5);
    expect(qualityOf('*/*;q=0.1', 'image/png')).toBe(0.1);
    expect(qualityOf('text/html', 'image/png')).toBe(0);
    expect(qualityOf('image/*', 'text/png')).toBe(0);
  });

  it('takes the first of two equally specific ranges', () => {
    expect(qualityOf('text/html;q=0.5, text/html;q=0.9', 'text/html')).toBe(0.5);
    expect(wantsMarkdown('text/markdown;q=0.5, application/json;q=0.4, application/json;q=0.6')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.5, application/json;q=0.6, application/json;q=0.4')).toBe(false);
  });
});

describe('parameters and ties', () => {
  it('a q parameter is read in any case and with spaces around it', () => {
    expect(wantsMarkdown('text/markdown;q=0.5, text/html;Q=0.1')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.5, text/html; q = 0.1')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.5, text/html;level=1')).toBe(false);
    expect(wantsMarkdown('text/markdown ;q=0.9, text/html;q=0.5')).toBe(true);
    expect(qualityOf('text/html ;q=0.3', 'text/html')).toBe(0.3);
  });

  it('on a tie the first named of markdown, HTML and JSON wins', () => {
    expect(wantsMarkdown('text/x-markdown, text/html')).toBe(true);
    expect(wantsMarkdown('text/html, text/x-markdown')).toBe(false);
    expect(wantsMarkdown('image/png, application/json, text/markdown')).toBe(false);
    expect(wantsMarkdown('image/png, text/markdown, application/json')).toBe(true);
  });

  it('markdown under another top-level type is not markdown', () => {
    expect(wantsMarkdown('application/markdown')).toBe(false);
    expect(wantsMarkdown('application/x-markdown, text/plain')).toBe(false);
    expect(wantsMarkdown('application/markdown, text/*, text/html;q=0.5')).toBe(false);
    expect(wantsMarkdown('application/x-markdown, text/*, text/html;q=0.5')).toBe(false);
  });

  it('markdown is not asked for by text/* ranking above HTML, and is named by text/x-markdown', () => {
    expect(qualityOf('text/*, text/html;q=0.5', 'text/markdown')).toBe(1);
    expect(wantsMarkdown('text/*, text/html;q=0.5')).toBe(false);
    expect(wantsMarkdown('text/x-markdown, text/html;q=0.5')).toBe(true);
  });
});

describe('one parse per header', () => {
  it('the same header asked about again is not parsed again; another one is', () => {
    const header = 'text/markdown, text/html;q=0.3, text/x-parsed-once';
    const before = acceptParses();
    wantsMarkdown(header);
    const once = acceptParses();
    expect(once).toBe(before + 1);
    wantsMarkdown(header);
    qualityOf(header, 'text/html');
    expect(acceptParses()).toBe(once);
    wantsMarkdown(`${header} `);
    expect(acceptParses()).toBe(once + 1);
  });
});
