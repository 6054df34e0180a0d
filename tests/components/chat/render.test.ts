/** The chat's markdown to HTML: quoted sentences with their inline marks, table rows, and nothing executable. */
import { describe, expect, it } from 'vitest';
import {
  cellsOf,
  escapeHtml,
  plainText,
  renderAnswer,
  renderInline,
  safeHref,
} from '../../../src/components/chat/render.ts';

describe('renderInline', () => {
  it('escapes HTML before anything else', () => {
    expect(renderInline('<script>alert(1)</script> & "quotes"')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;',
    );
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
  });

  it('renders links, bold, emphasis and code', () => {
    expect(renderInline('See [pricing](/pricing#trial) for **Starter** and *Growth*.')).toBe(
      'See <a href="/pricing#trial">pricing</a> for <strong>Starter</strong> and <em>Growth</em>.',
    );
    expect(renderInline('Send an `Idempotency-Key` header.')).toBe('Send an <code>Idempotency-Key</code> header.');
    expect(renderInline('**[Book a demo](https://kartage.com.au/demo)**')).toBe(
      '<strong><a href="https://kartage.com.au/demo">Book a demo</a></strong>',
    );
    expect(renderInline('Email <mailto:sales@kartage.com.au>.')).toBe(
      'Email <a href="mailto:sales@kartage.com.au">mailto:sales@kartage.com.au</a>.',
    );
  });

  it('keeps code literal: no marks or links inside it, and markup in it escaped', () => {
    expect(renderInline('`**not bold** <b>`')).toBe('<code>**not bold** &lt;b&gt;</code>');
    expect(renderInline('``a ` b``')).toBe('<code>a ` b</code>');
  });

  it('leaves unmatched marks, snake_case and backslash escapes as text', () => {
    expect(renderInline('2 * 3 = 6 and a ** b')).toBe('2 * 3 = 6 and a ** b');
    expect(renderInline('the lead_fields limit')).toBe('the lead_fields limit');
    expect(renderInline('\\*not emphasis\\* and \\[not a link\\](x)')).toBe('*not emphasis* and [not a link](x)');
    expect(renderInline('an `open code span')).toBe('an `open code span');
  });

  it('drops the href of a link to a script or data URL, keeping its text', () => {
    expect(renderInline('[click](javascript:alert(1))')).toBe('click');
    expect(renderInline('[x](JavaScript:alert(1))')).toBe('x');
    expect(renderInline('[x](data:text/html,hi)')).toBe('x');
    expect(renderInline('[x](vbscript:msgbox)')).toBe('x');
    expect(renderInline('[a "b"](/p?q="><script>)')).not.toContain('<script>');
    expect(safeHref('tel:1300527824')).toBe('tel:1300527824');
    expect(safeHref('faq#trial')).toBe('faq#trial');
    expect(safeHref('#trial')).toBe('#trial');
    expect(safeHref('java\tscript:x')).toBeNull();
  });

  it("takes a path only with one leading / and no backslash: the browser reads the others as another site's", () => {
    for (const url of ['//evil.example/x', '/\\evil.example', '\\\\evil.example', '///evil.example', 'faq\\x'])
      expect(safeHref(url), url).toBeNull();
    expect(renderInline('[pricing](//evil.example/pricing)')).toBe('pricing');
    expect(safeHref('/')).toBe('/');
    expect(safeHref('/pricing#trial')).toBe('/pricing#trial');
    expect(safeHref('/blog/a//b')).toBe('/blog/a//b');
  });
});

describe('renderAnswer', () => {
  it('makes a paragraph of each block separated by a blank line', () => {
    expect(renderAnswer('Yes. Starter comes with a trial.\n\nAll prices exclude GST.')).toBe(
      '<p>Yes. Starter comes with a trial.</p><p>All prices exclude GST.</p>',
    );
  });

  it('shows table rows as a small table, a single row as "a · b · c", and drops the rule row', () => {
    const md = '| Plan | Price | Users |\n|---|---|---|\n| Starter | $390 | 5 |';
    expect(renderAnswer(md)).toBe(
      '<div class="chat-table"><table><tbody><tr><td>Plan</td><td>Price</td><td>Users</td></tr>' +
        '<tr><td>Starter</td><td>$390</td><td>5</td></tr></tbody></table></div>',
    );
    expect(renderAnswer('| **Growth** | $890 a month | 15 users |')).toBe(
      '<p><strong>Growth</strong> · $890 a month · 15 users</p>',
    );
    expect(cellsOf('| a \\| b | c |')).toEqual(['a \\| b', 'c']);
  });

  it("drops a list item's marker", () => {
    expect(renderAnswer('- Xero and MYOB sync\n\n2. Payroll export')).toBe(
      '<p>Xero and MYOB sync</p><p>Payroll export</p>',
    );
  });
});

describe('plainText', () => {
  it('is what a screen reader should say: marks and link targets gone', () => {
    expect(plainText('See [pricing](/pricing) for **Starter**.\n\n| Growth | $890 |\n\nUse `code` and *this*.')).toBe(
      'See pricing for Starter. Growth, $890 Use code and this.',
    );
  });
});
