#!/usr/bin/env node
/**
 * House rule: no line over 120 characters outside data. Biome's formatter wraps code at 120 but never breaks a
 * string or a comment, and it does not format the markup of `.astro` files; this check covers what it leaves.
 *
 *   node scripts/long-lines.mjs            checks the project's source folders (the files Biome checks)
 *   node scripts/long-lines.mjs a.ts dir   checks these files or folders only
 *   node scripts/long-lines.mjs --allowed  also lists the long lines the exception below lets through
 *
 * Prints `file:line: N characters (kind)` for each offending line and exits 1 when there is one.
 *
 * The one exception, data-like literals: a line is allowed when it is long only because of one literal of 40
 * characters or more in it (a string, a template literal, a regex, or in `.astro` markup an attribute value or a
 * run of page text), that is, when the line with that literal left out fits in 120. These are messages a person
 * or an agent reads (errors, OpenAPI and discovery descriptions, test titles, page copy), SQL and Lua scripts,
 * code sent to a child process, header values, regexes and module paths: cut into pieces they can no longer be
 * found with a search for the text, and the pieces are easy to get wrong (a lost space). Comments, code and
 * markup structure have no exception: wrap them. Characters are counted as Unicode code points.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX = 120;
/** A literal shorter than this never excuses a long line: wrapping the code around it is enough. */
const MIN_LITERAL = 40;
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The folders and root files Biome checks (biome.json `files.includes`). */
const DEFAULT_PATHS = ['src', 'api', 'server', 'tests', 'bench', 'eval', 'scripts', 'middleware.ts'];
const ROOT_CONFIG = /\.config\.[cm]?[jt]s$/;
const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.astro']);
/** Installed tools and generated output (any depth), and the data folders (from the root): never checked. */
const SKIP_NAMES = new Set(['node_modules', '.tools', '.astro', '.vercel', 'test-results', 'playwright-report']);
const SKIP_PATHS = new Set(['dist', 'build', 'var', 'content', 'tests/data', 'tests/schemas', 'bench/results']);

/** Characters after which a `/` starts a regex rather than a division. */
const REGEX_AFTER = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const KEYWORDS = new Set('return typeof case do else in of new delete void throw yield await'.split(' '));

/**
 * Literal tokens of JavaScript or TypeScript source: strings, template literals (with what their `${}` holds)
 * and regexes, each as [start, end) offsets; comments as { start, end, comment: true }.
 */
export function scanScript(text, offset = 0) {
  const tokens = [];
  const n = text.length;
  let i = 0;
  let last = ''; // the last significant code character, to tell a regex from a division
  let word = ''; // the identifier that character ends, if it ends one
  let inWord = false;
  while (i < n) {
    const c = text[i];
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : text[i + 1] === '/' ? end : end + 2;
      tokens.push({ start: offset + i, end: offset + stop, comment: true });
      i = stop;
      continue;
    }
    const start = i;
    const regex = c === '/' && (last === '' || REGEX_AFTER.has(last) || KEYWORDS.has(word));
    if (c === "'" || c === '"') i = skipString(text, i);
    else if (c === '`') i = skipTemplate(text, i);
    else if (regex) i = skipRegex(text, i);
    else {
      if (/[\w$]/.test(c)) {
        word = inWord ? word + c : c;
        inWord = true;
      } else {
        inWord = false;
        if (!/\s/.test(c)) word = '';
      }
      if (!/\s/.test(c)) last = c;
      i++;
      continue;
    }
    tokens.push({ start: offset + start, end: offset + i });
    last = c;
    word = '';
    inWord = false;
  }
  return tokens;
}

/** End offset of the quoted string starting at text[i] (a string cannot span lines). */
function skipString(text, i) {
  const q = text[i++];
  while (i < text.length && text[i] !== q && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** End offset of the regex literal starting at text[i], flags included. */
function skipRegex(text, i) {
  let inClass = false;
  for (i++; i < text.length && text[i] !== '\n'; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[') inClass = true;
    else if (text[i] === ']') inClass = false;
    else if (text[i] === '/' && !inClass) break;
  }
  for (i++; i < text.length && /[a-z]/.test(text[i]); ) i++;
  return i;
}

/** End offset of the template literal starting at text[i] (a backtick), nested `${}` and templates included. */
function skipTemplate(text, i) {
  const n = text.length;
  i++;
  while (i < n) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '`') return i + 1;
    else if (c === '$' && text[i + 1] === '{') {
      i += 2;
      let depth = 1;
      while (i < n && depth > 0) {
        const d = text[i];
        if (d === '`') i = skipTemplate(text, i);
        else if (d === "'" || d === '"') i = skipString(text, i);
        else {
          if (d === '{') depth++;
          else if (d === '}') depth--;
          i++;
        }
      }
    } else i++;
  }
  return n;
}

/**
 * Literal tokens of an `.astro` file: the front matter and `<script>` bodies scanned as script; in the markup,
 * quoted attribute values and runs of text between tags (page copy) count as literals, `{…}` expressions are
 * scanned as script (as markup when they hold markup), and `<!-- -->` comments are comments.
 */
export function scanAstro(text) {
  const tokens = [];
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (fm) tokens.push(...scanScript(fm[1], fm[0].indexOf('\n') + 1));
  scanMarkup(text, fm ? fm[0].length : 0, text.length, tokens);
  return tokens;
}

/** Scans markup in text[from, to) into tokens. */
function scanMarkup(text, from, to, tokens) {
  let i = from;
  while (i < to) {
    const rest = text.slice(i, i + 8);
    if (rest.startsWith('<!--')) {
      const end = text.indexOf('-->', i);
      const stop = end < 0 || end > to ? to : end + 3;
      tokens.push({ start: i, end: stop, comment: true });
      i = stop;
    } else if (/^<(script|style)\b/i.test(rest)) {
      const name = /^<(script|style)/i.exec(rest)[1].toLowerCase();
      const open = text.indexOf('>', i);
      const close = text.indexOf(`</${name}`, open);
      const stop = close < 0 || close > to ? to : close;
      if (name === 'script') tokens.push(...scanScript(text.slice(open + 1, stop), open + 1));
      i = stop + 1;
    } else if (text[i] === '<') i = scanTag(text, i, to, tokens);
    else if (text[i] === '{') i = scanExpression(text, i, to, tokens);
    else {
      const start = i;
      while (i < to && text[i] !== '<' && text[i] !== '{' && text[i] !== '\n') i++;
      if (text.slice(start, i).trim()) tokens.push({ start, end: i });
      if (text[i] === '\n') i++;
    }
  }
}

/** Scans one markup tag from its `<`: quoted attribute values are literals, `{…}` values are expressions. */
function scanTag(text, i, to, tokens) {
  for (i++; i < to && text[i] !== '>'; ) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const start = i;
      const end = text.indexOf(c, i + 1);
      i = end < 0 || end > to ? to : end + 1;
      tokens.push({ start, end: i });
    } else if (c === '{') i = scanExpression(text, i, to, tokens);
    else i++;
  }
  return i + 1;
}

/** Scans a `{…}` expression of the markup from its `{`; returns the offset after its `}`. */
function scanExpression(text, start, to, tokens) {
  let depth = 0;
  let i = start;
  for (; i < to; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) break;
    else if (c === '`') i = skipTemplate(text, i) - 1;
    else if (c === "'" || c === '"') i = skipString(text, i) - 1;
  }
  const inner = text.slice(start + 1, i);
  if (/<[A-Za-z/>]/.test(inner)) scanMarkup(text, start + 1, i, tokens);
  else tokens.push(...scanScript(inner, start + 1));
  return i + 1;
}

/** Code-point length. */
const width = (s) => {
  let w = 0;
  for (const _ of s) w++;
  return w;
};

/** Every line over MAX characters of one file: { line, width, kind, allowed }. */
export function longLines(text, file) {
  const lines = text.split('\n');
  if (!lines.some((l) => width(l) > MAX)) return [];
  const tokens = file.endsWith('.astro') ? scanAstro(text) : scanScript(text);
  const out = [];
  let at = 0;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k].replace(/\r$/, '');
    const start = at;
    const end = at + line.length;
    at += lines[k].length + 1;
    const w = width(line);
    if (w <= MAX) continue;
    let literal = 0;
    let comment = 0;
    for (const t of tokens) {
      if (t.start >= end || t.end <= start) continue;
      const part = width(text.slice(Math.max(t.start, start), Math.min(t.end, end)));
      if (t.comment) comment += part;
      else literal = Math.max(literal, part);
    }
    const kind = comment && w - comment <= MAX ? 'comment' : literal ? 'code with literals' : 'code';
    out.push({ line: k + 1, width: w, kind, allowed: literal >= MIN_LITERAL && w - literal <= MAX });
  }
  return out;
}

function* files(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isFile()) {
    if (EXTENSIONS.has(extname(path))) yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const rel = relative(ROOT, join(path, entry.name)).split(sep).join('/');
    if (entry.isDirectory() && (SKIP_NAMES.has(entry.name) || SKIP_PATHS.has(rel))) continue;
    yield* files(join(path, entry.name));
  }
}

function main(argv) {
  const showAllowed = argv.includes('--allowed');
  const args = argv.filter((a) => a !== '--allowed');
  const roots = args.length
    ? args.map((a) => resolve(a))
    : [
        ...DEFAULT_PATHS.map((p) => join(ROOT, p)),
        ...readdirSync(ROOT)
          .filter((f) => ROOT_CONFIG.test(f))
          .map((f) => join(ROOT, f)),
      ];
  let bad = 0;
  let allowed = 0;
  let checked = 0;
  for (const root of roots) {
    for (const file of files(root)) {
      checked++;
      const name = relative(process.cwd(), file);
      for (const hit of longLines(readFileSync(file, 'utf8'), file)) {
        if (hit.allowed) {
          allowed++;
          if (showAllowed) console.log(`${name}:${hit.line}: ${hit.width} characters (allowed: one data-like literal)`);
        } else {
          bad++;
          console.log(`${name}:${hit.line}: ${hit.width} characters (${hit.kind})`);
        }
      }
    }
  }
  const summary = `long-lines: ${checked} files, ${bad} line(s) over ${MAX} characters, ${allowed} allowed as data-like literals`;
  if (bad) {
    console.error(`${summary}. Wrap them (see scripts/long-lines.mjs for the one exception).`);
    process.exitCode = 1;
  } else console.error(summary);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
