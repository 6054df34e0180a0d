/** @module Inline markdown as the page shows it: the text a citation's fragment and the chat's analyser read. */

/** Whether a heading asks a question ("Who owns the data?"): a question its section answers. */
export const asksQuestion = (heading: string | null | undefined): heading is string => heading?.endsWith('?') === true;

/**
 * Inline markdown to the text a reader sees: links and images to their text; emphasis, code marks, escapes gone.
 * `linkText` false: a link (not an image) is left out, text and all (the chat reads a sentence's words outside links).
 */
export function plainOf(md: string, linkText = true): string {
  // Escaped characters are set aside first, so that `\*` is never read as emphasis.
  const escaped: string[] = [];
  return (
    md
      .replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => `\uE000${escaped.push(c) - 1}\uE001`)
      // A blockquote's markers at the start of its lines ("> Rebecca Tan, Sales ..."): the page shows none.
      .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, linkText ? '$1' : ' ')
      .replace(/<((?:https?:|mailto:)[^>\s]+|[^>\s@]+@[^>\s]+)>/g, (_, link: string) => link.replace(/^mailto:/, ''))
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?!\w)/g, '$1$2')
      .replace(/`+([^`]*)`+/g, '$1')
      .replace(/\uE000(\d+)\uE001/g, (_, i: string) => escaped[Number(i)]!)
      .replace(/\s+/g, ' ')
      .trim()
  );
}
