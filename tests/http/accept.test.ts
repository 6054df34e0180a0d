import { describe, expect, it } from 'vitest';
import { isAgentUserAgent, negotiateMarkdown, wantsMarkdown } from '../../src/http/accept.ts';

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
