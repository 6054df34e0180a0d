/**
 * robots.txt (src/core/site-files.ts `robotsTxt`) part by part, built inside each test: the three comment
 * lines that tell a reader where the markdown is, each group's rules (the Content-Signal, `Disallow: /search`
 * before `Allow: /`), the blank line that ends each group, and the Sitemap line with the file's last newline.
 * The crawler names themselves are held by site-files.mutants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../src/core/site-files.ts';

const O = 'https://x.test';
const RULES = ['Content-Signal: search=yes, ai-input=yes, ai-train=yes', 'Disallow: /search', 'Allow: /'];

/** The file's groups: the runs of lines between blank lines. */
const groups = (text: string) => text.split('\n\n').map((g) => g.split('\n'));

describe('robots.txt', () => {
  it('starts with three comments: welcome, where the markdown index and llms.txt are, the content signal', () => {
    expect(robotsTxt(O).split('\n').slice(0, 3)).toEqual([
      '# Kartage welcomes search engines and AI crawlers. Markdown versions: append .md to any page URL.',
      `# Every page as a markdown index: ${O}/sitemap.md; site summary for agents: ${O}/llms.txt`,
      '# Content-Signal (https://contentsignals.org): search, AI input and AI training are all welcome.',
    ]);
  });

  it('has two groups each ending with the same three rules, then a blank line', () => {
    const [named, everyone, rest] = groups(robotsTxt(O));
    expect(named!.slice(-3)).toEqual(RULES);
    expect(named!.filter((l) => !l.startsWith('# ') && !l.startsWith('User-agent: '))).toEqual(RULES);
    expect(everyone).toEqual(['User-agent: *', ...RULES]);
    expect(rest).toEqual([`Sitemap: ${O}/sitemap.xml`, '']);
  });

  it('ends with the Sitemap line and one newline', () => {
    const text = robotsTxt(O);
    expect(text.endsWith(`\n\nSitemap: ${O}/sitemap.xml\n`)).toBe(true);
    expect(text.split('\n').at(-2)).toBe(`Sitemap: ${O}/sitemap.xml`);
    expect(text.split('\n').at(-1)).toBe('');
  });
});
