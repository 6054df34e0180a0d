/**
 * The markdown 404 (src/core/not-found.ts): the path asked for, cut and made safe to quote, and where an
 * agent can look instead, on the site's own origin. tests/http and tests/server check it is served; this
 * pins its text (`npm run mutate` found every line of it unchecked, bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { notFoundMarkdown } from '../../src/core/not-found.ts';

describe('the markdown 404', () => {
  it('names the path and lists every place to look instead, on the origin given', () => {
    expect(notFoundMarkdown('/no-such-page', 'https://x.test')).toBe(
      [
        '# Not found',
        '',
        'There is no page at `/no-such-page`.',
        '',
        'Where to look instead:',
        '',
        '- [llms.txt](https://x.test/llms.txt): site summary and an index of every page as markdown',
        '- [sitemap.md](https://x.test/sitemap.md): every page with its title and URL, by section',
        '- [sitemap.xml](https://x.test/sitemap.xml): every published URL',
        '- [openapi.json](https://x.test/openapi.json): the API description',
        '- [/api/v1/pages](https://x.test/api/v1/pages): the page index as JSON',
        '- [/.well-known/mcp.json](https://x.test/.well-known/mcp.json): the MCP server (POST https://x.test/mcp)',
        '- [/.well-known/ard.json](https://x.test/.well-known/ard.json): catalogue of agentic resources',
        '- [/.well-known/api-catalog](https://x.test/.well-known/api-catalog): API catalogue (RFC 9727)',
        '- [/auth.md](https://x.test/auth.md): no authentication is needed',
        '- [/api-deprecation-policy](https://x.test/api-deprecation-policy): deprecation policy',
        '- [/api/v1/sandbox](https://x.test/api/v1/sandbox): the lead validation sandbox',
        '',
      ].join('\n'),
    );
  });

  it('quotes at most 200 characters of the path, without backticks or line breaks', () => {
    const quoted = (path: string) => notFoundMarkdown(path, 'https://x.test').split('\n')[2];
    expect(quoted('/a`b\nc\rd')).toBe('There is no page at `/abcd`.');
    expect(quoted(`/${'x'.repeat(300)}`)).toBe(`There is no page at \`/${'x'.repeat(199)}\`.`);
  });
});
