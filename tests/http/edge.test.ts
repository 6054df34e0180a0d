/**
 * The edge decision for page URLs (src/http/edge.ts) in process, for every kind of path: a page's `.md`
 * twin, a page negotiated to markdown (Accept, or a known agent), a page as HTML, an unknown page or file
 * asked for as markdown (the markdown 404), and anything else. tests/http/middleware.test.ts holds it
 * through the built middleware, whose copy of this module the mutation run does not reach
 * (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { pageLinkHeader } from '../../src/contract/links.ts';
import { CONTENT_SIGNAL, CORS_READ, PAGE_VARY } from '../../src/contract/routes.ts';
import type { ContentPage } from '../../src/core/content.ts';
import { contentFromData } from '../../src/core/content-source.ts';
import { decodePath, handleEdge, markdownHeaders } from '../../src/http/edge.ts';

const page = (slug: string): ContentPage => ({
  slug,
  title: slug,
  url: `https://x.test/${slug === 'index' ? '' : slug}`,
  markdown: `# ${slug}\n\nSome words about ${slug}.\n`,
  text: slug,
  kind: 'page',
});
const content = contentFromData(
  { origin: 'https://x.test', builtAt: '', files: ['/robots.txt', '/old-page'], pages: ['index', 'pricing'].map(page) },
  () => {
    throw new Error('no search here');
  },
);
const deps = { content };
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handleEdge(new Request(`https://x.test${path}`, { method, headers }), path, deps);
const MD = { accept: 'text/markdown' };

describe('markdown headers of a page', () => {
  it('markdown type, CORS, the canonical page URL, the token estimate and the content signals', () => {
    expect(markdownHeaders({ url: 'https://x.test/pricing', tokens: 42 })).toEqual({
      'Content-Type': 'text/markdown; charset=utf-8',
      ...CORS_READ,
      Link: '<https://x.test/pricing>; rel="canonical"',
      'x-markdown-tokens': '42',
      'Content-Signal': CONTENT_SIGNAL,
    });
  });
});

describe('the edge decision', () => {
  const pricing = content.entry('pricing')!;

  it("a page's .md twin passes with the page's markdown headers, read by GET or HEAD only", () => {
    const twin = { type: 'next', headers: { ...markdownHeaders(pricing), Vary: 'Accept' } };
    expect(get('/pricing.md')).toEqual(twin);
    expect(get('/pricing.md', {}, 'HEAD')).toEqual(twin);
    expect(get('/pricing.md', {}, 'POST')).toEqual({ type: 'next', headers: {} });
    expect(pricing.tokens).toBeGreaterThan(0);
  });

  it('a page asked for as markdown, by Accept or by a known agent, is rewritten to its twin', () => {
    const rewrite = (slug: string) => ({
      type: 'rewrite',
      path: `/${slug}.md`,
      headers: { ...markdownHeaders(content.entry(slug)!), Vary: PAGE_VARY },
    });
    expect(get('/pricing', MD)).toEqual(rewrite('pricing'));
    expect(get('/', MD)).toEqual(rewrite('index'));
    expect(get('/pricing', { 'user-agent': 'Mozilla/5.0 (compatible; ClaudeBot/1.0)' })).toEqual(rewrite('pricing'));
    expect(get('/pricing', MD, 'HEAD')).toEqual(rewrite('pricing'));
  });

  it('a page as HTML passes with Vary and its discovery links; a POST to it gets nothing added', () => {
    expect(get('/pricing')).toEqual({ type: 'next', headers: { Vary: PAGE_VARY, Link: pageLinkHeader('pricing') } });
    expect(get('/pricing', { accept: 'text/html', 'user-agent': 'ClaudeBot' })).toEqual({
      type: 'next',
      headers: { Vary: PAGE_VARY, Link: pageLinkHeader('pricing') },
    });
    expect(get('/pricing', MD, 'POST')).toEqual({ type: 'next', headers: {} });
  });

  it('markdown asked for where there is no page and no file: the markdown 404', () => {
    expect(get('/no-such-page', MD)).toEqual({ type: 'not-found' });
    expect(get('/no-such-page.md', MD)).toEqual({ type: 'not-found' });
    expect(get('/a/b.png', MD)).toEqual({ type: 'not-found' });
    expect(get('/no-such-page.md')).toEqual({ type: 'next', headers: {} });
  });

  it('a file passes even when markdown is asked for; an unknown page URL passes with Vary only', () => {
    expect(get('/robots.txt', MD)).toEqual({ type: 'next', headers: {} });
    expect(get('/old-page', MD)).toEqual({ type: 'next', headers: { Vary: PAGE_VARY } });
    expect(get('/no-such-page')).toEqual({ type: 'next', headers: { Vary: PAGE_VARY } });
    expect(get('/no-such-page', MD, 'DELETE')).toEqual({ type: 'next', headers: {} });
  });
});

describe('decoding a path once', () => {
  it('decodes percent-escapes exactly once; a path without any is as it is; broken escapes are undefined', () => {
    expect(decodePath('/api/v1/pages')).toBe('/api/v1/pages');
    expect(decodePath('/%61pi/v1/pages')).toBe('/api/v1/pages');
    expect(decodePath('/%2561pi')).toBe('/%61pi');
    expect(decodePath('/%E0%A4%A')).toBeUndefined();
  });
});
