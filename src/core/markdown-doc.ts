/**
 * @module The markdown twin of a page as a standalone document: YAML front matter an agent can read
 * (title, description, canonical_url, last_updated), then the page body, which starts with its H1. The
 * JSON `markdown` field is that body without the front matter ("Page body converted to markdown"), so
 * twin = frontMatter(page) + page.markdown, byte for byte, wherever it is built (build step, MCP).
 */
import type { Page } from '../contract/schemas.ts';

/** JSON strings are valid YAML scalars, and quote whatever a title or description holds. */
const scalar = (s: string) => JSON.stringify(s);

/** The front matter block of a page's twin, ending with the blank line before the body. */
export function frontMatter(page: Pick<Page, 'title' | 'description' | 'url' | 'updated'>): string {
  const lines = [
    '---',
    `title: ${scalar(page.title)}`,
    page.description ? `description: ${scalar(page.description)}` : undefined,
    `canonical_url: ${page.url}`,
    page.updated ? `last_updated: ${page.updated}` : undefined,
    '---',
  ];
  return `${lines.filter(Boolean).join('\n')}\n\n`;
}

/** The `.md` twin: front matter, then the body (the JSON's `markdown`). */
export function markdownTwin(page: Pick<Page, 'title' | 'description' | 'url' | 'updated' | 'markdown'>): string {
  return frontMatter(page) + page.markdown;
}

/**
 * Token estimate sent as `x-markdown-tokens`: about four characters a token for English text, the
 * rule of thumb tokenizers' own documentation gives; rounded up so a non-empty document is never 0.
 */
export function markdownTokens(markdown: string): number {
  return Math.ceil(markdown.length / 4);
}
