import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastMdast } from '../../src/build/html-to-mdast.ts';
import { builtPages, htmlBody, libraryMdast, mainRoot } from '../helpers/html-trees.ts';

/** The trees compared as JSON (the libraries' nodes carry no positions here, and no `undefined` fields). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('fastMdast: the tree hast-util-to-mdast makes, or nothing', () => {
  it('every page of the build: the same tree as the library, and no more than one page left to it', () => {
    const pages = builtPages();
    let declined = 0;
    for (const { file, root } of pages) {
      const fast = fastMdast(root);
      if (!fast) declined++;
      else expect(plain(fast), file).toEqual(plain(libraryMdast(root)));
    }
    expect(pages.length).toBeGreaterThan(50);
    // The one page with a code block (developers) goes through the library.
    expect(declined).toBeLessThanOrEqual(1);
  });

  it('does not change the tree it is given, even when it declines', () => {
    for (const body of ['<p> a <strong>b</strong>\n c </p><ul> <li>x</li> </ul>', '<p>a</p><pre>x\n  y</pre>']) {
      const root = mainRoot(body);
      const before = structuredClone(root);
      fastMdast(root);
      expect(root).toEqual(before);
    }
  });

  it('generated bodies of our elements: the library tree whenever it answers, and an answer for most', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(htmlBody({ ours: true }), (body) => {
        runs++;
        const root = mainRoot(body);
        const fast = fastMdast(root);
        if (!fast) return;
        answered++;
        expect(plain(fast)).toEqual(plain(libraryMdast(root)));
      }),
      { numRuns: 400 },
    );
    expect(answered / runs).toBeGreaterThan(0.6);
  });

  it('generated bodies with elements it leaves to the library: never a different tree', () => {
    let declined = 0;
    fc.assert(
      fc.property(htmlBody({ ours: false }), (body) => {
        const root = mainRoot(body);
        const fast = fastMdast(root);
        if (!fast) {
          declined++;
          return;
        }
        expect(plain(fast)).toEqual(plain(libraryMdast(root)));
      }),
      { numRuns: 300 },
    );
    expect(declined).toBeGreaterThan(0);
  });

  it('declines what it does not reproduce', () => {
    for (const body of [
      '<pre>a\n  b</pre>',
      '<p><img src="/a.png" alt=""></p>',
      '<!-- c --><p>a</p>',
      '<table><tr><td rowspan="2">a</td></tr></table>',
      '<table><tr><td align="right">a</td></tr></table>',
      '<a href="/x"><p>block in a link</p></a>',
      '<p><a href="/x" title="t">a</a></p>',
      '<p><code> a </code></p>',
      '<table><tr><td><table><tr><td>a</td></tr></table></td></tr></table>',
    ])
      expect(fastMdast(mainRoot(body)), body).toBeUndefined();
  });
});
