// Inline markdown to the text the page shows (src/core/markdown-plain.ts): what a citation's text fragment finds.
import { describe, expect, it } from 'vitest';
import { plainOf } from '../../src/core/markdown-plain.ts';

describe('plainOf', () => {
  it('shows links, emphasis, code and escapes as the page does', () => {
    expect(plainOf('See the [crew app](https://k.example/crew) and **bold** `code` \\*x\\*.')).toBe(
      'See the crew app and bold code *x*.',
    );
  });

  it("drops a blockquote's markers at the start of its lines, indented or nested, and keeps a > inside a line", () => {
    expect(plainOf('> Rebecca Tan, Sales, [Harbourline](/customers/harbourline-removals)')).toBe(
      'Rebecca Tan, Sales, Harbourline',
    );
    expect(plainOf('> "We went live.\n>\n> > Quoted again.')).toBe('"We went live. Quoted again.');
    expect(plainOf('  > Indented quote.')).toBe('Indented quote.');
    expect(plainOf('Jobs > 5 m³ need two crew.')).toBe('Jobs > 5 m³ need two crew.');
    expect(plainOf('a>b')).toBe('a>b');
  });

  it('shows an image as its alt text, and a link whose target has parentheses as its text', () => {
    expect(plainOf('![A crew van at the depot](/images/van-01.png) arrives.')).toBe('A crew van at the depot arrives.');
    expect(plainOf('[Removals](https://en.example/wiki/Removals_(moving)) explained')).toBe('Removals explained');
  });

  it('leaves a link out, text and all, when asked (an image stays its alt text)', () => {
    expect(plainOf('See [crew app offline mode](/blog/crew-app-offline-mode).', false)).toBe('See .');
    expect(plainOf('[Removals](https://en.example/wiki/Removals_(moving)) explained', false)).toBe('explained');
    expect(plainOf('![A van](/v.png) and \\[not a link\\](x)', false)).toBe('A van and [not a link](x)');
  });

  it('shows an autolink as its address, an email without its mailto:', () => {
    expect(plainOf('Go to <https://kartage.test/pricing>.')).toBe('Go to https://kartage.test/pricing.');
    expect(plainOf('Old <http://kartage.test/a> link')).toBe('Old http://kartage.test/a link');
    expect(plainOf('Mail <sales@kartage.test> or <mailto:help@kartage.test>.')).toBe(
      'Mail sales@kartage.test or help@kartage.test.',
    );
    expect(plainOf('<https://kartage.test/mailto:x>')).toBe('https://kartage.test/mailto:x');
    expect(plainOf('a <b> c')).toBe('a <b> c');
  });

  it('drops emphasis marks around words, over spaces, at the start of a line, and keeps snake_case', () => {
    expect(plainOf('**two words** and __more bold text__')).toBe('two words and more bold text');
    expect(plainOf('*Note:* a *big* move and _one more_ here')).toBe('Note: a big move and one more here');
    expect(plainOf('file_name_here and 2*3*4')).toBe('file_name_here and 2*3*4');
    expect(plainOf('a * b * c')).toBe('a * b * c');
  });

  it('drops code marks of any length', () => {
    expect(plainOf('Run ``npm ci`` then `npm test`.')).toBe('Run npm ci then npm test.');
  });

  it('keeps every escaped character, however many', () => {
    expect(plainOf('\\_'.repeat(12))).toBe('_'.repeat(12));
    expect(plainOf('\\[not a link\\](x)')).toBe('[not a link](x)');
  });

  it('collapses white space and trims the ends', () => {
    expect(plainOf('  one\n\ttwo   three  ')).toBe('one two three');
  });
});
