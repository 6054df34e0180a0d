/**
 * @module Counts the hand-written regex alternatives (`|` outside a character class, not escaped) of a folder's
 * TypeScript: in regex literals, and in string and template literals that are regex sources (inside a `new RegExp`
 * argument, or holding regex syntax: `(?`, a backslash, or a lone `|` joining a list). Alternatives joined from data
 * count as the one `|` written. `node scripts/regex-alternatives.ts [folder]` prints them per file (default:
 * src/core/ask).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The `|` of a regex source outside character classes and escapes. */
export function alternativesIn(source: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '|') n++;
  }
  return n;
}

const looksLikeRegex = (s: string) => s === '|' || s.includes('(?') || s.includes('\\');

/** The alternatives of one file's text. */
export function countFile(path: string, text: string): number {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  let n = 0;
  const visit = (node: ts.Node, inRegExp: boolean) => {
    if (ts.isRegularExpressionLiteral(node)) n += alternativesIn(node.text.slice(1, node.text.lastIndexOf('/')));
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (inRegExp || looksLikeRegex(node.text)) n += alternativesIn(node.text);
    } else if (ts.isTemplateExpression(node)) {
      for (const part of [node.head, ...node.templateSpans.map((s) => s.literal)])
        if (inRegExp || looksLikeRegex(part.text)) n += alternativesIn(part.text);
    }
    const regExp = ts.isNewExpression(node) && node.expression.getText(file) === 'RegExp';
    ts.forEachChild(node, (child) => visit(child, inRegExp || regExp));
  };
  visit(file, false);
  return n;
}

/** Each TypeScript file of a folder (not its subfolders) with its count. */
export function countFolder(dir: string): { file: string; count: number }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => ({ file: join(dir, f), count: countFile(f, readFileSync(join(dir, f), 'utf8')) }));
}

if (import.meta.main) {
  const rows = countFolder(process.argv[2] ?? 'src/core/ask');
  for (const r of rows) console.log(`${String(r.count).padStart(4)}  ${r.file}`);
  console.log(`${String(rows.reduce((a, r) => a + r.count, 0)).padStart(4)}  total`);
}
