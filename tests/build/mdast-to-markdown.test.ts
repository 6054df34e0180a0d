import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastMarkdown } from '../../src/build/mdast-to-markdown.ts';
import { builtPages, htmlBody, libraryMarkdown, libraryMdast, mainRoot } from '../helpers/html-trees.ts';

describe('fastMarkdown: the text remark-stringify writes, or nothing', () => {
  it('every page of the build: the same markdown as the library, and no more than one page left to it', () => {
    const pages = builtPages();
    let declined = 0;
    for (const { file, root } of pages) {
      const md = libraryMdast(root);
      const fast = fastMarkdown(md);
      if (fast === undefined) declined++;
      else expect(fast, file).toBe(libraryMarkdown(md));
    }
    expect(pages.length).toBeGreaterThan(50);
    expect(declined).toBeLessThanOrEqual(1);
  });

  it('generated bodies of our elements and plain words: the library text, and an answer for most', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(htmlBody({ ours: true, risky: false }), (body) => {
        runs++;
        const md = libraryMdast(mainRoot(body));
        const fast = fastMarkdown(md);
        if (fast === undefined) return;
        answered++;
        expect(fast).toBe(libraryMarkdown(md));
      }),
      { numRuns: 500 },
    );
    // Some bodies still hold what it declines on purpose (empty items, breaks in cells, nested strong).
    expect(answered / runs).toBeGreaterThan(0.25);
  });

  for (const [what, ours, numRuns] of [
    ['with text markdown escapes', true, 500],
    ['with elements it leaves to the library', false, 300],
  ] as const) {
    it(`generated bodies ${what}: never a different text`, () => {
      fc.assert(
        fc.property(htmlBody({ ours }), (body) => {
          const md = libraryMdast(mainRoot(body));
          const fast = fastMarkdown(md);
          if (fast !== undefined) expect(fast).toBe(libraryMarkdown(md));
        }),
        { numRuns },
      );
    });
  }

  it('writes what the library writes for lists next to lists, spread items, tables and autolinks', () => {
    for (const body of [
      '<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>c</li></ol><ol><li>d</li></ol>',
      '<ul><li><p>a</p><p>b</p></li><li>c</li></ul>',
      '<ol start="3"><li>x<ul><li>y</li></ul></li><li>z</li></ol>',
      '<table><tr><td>a</td><td></td></tr><tr><td>long cell</td></tr></table>',
      '<p><a href="https://kartage.com.au">https://kartage.com.au</a> and <a href="mailto:a@b.co">a@b.co</a></p>',
      '<p>One<br>two <strong>Three:</strong> four</p><blockquote><p>q</p><p>r</p></blockquote>',
    ]) {
      const md = libraryMdast(mainRoot(body));
      const fast = fastMarkdown(md);
      expect(fast, body).toBeDefined();
      expect(fast, body).toBe(libraryMarkdown(md));
    }
  });

  it('declines text the library would escape', () => {
    for (const body of [
      '<p>2 * 3</p>',
      '<p>snake_case</p>',
      '<p>1. first</p>',
      '<p>R&amp;D</p>',
      '<p>see www.x.io</p>',
    ])
      expect(fastMarkdown(libraryMdast(mainRoot(body))), body).toBeUndefined();
  });
});
