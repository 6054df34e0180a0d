/**
 * The chat's weight on the built site (dist/, as `node server/build-check.ts` leaves it): its code is fetched on
 * first use only, and all of it (the panel, its styles and what it imports) is at most 15 KB gzipped. Every page
 * loads the launcher's small script, which imports the chat dynamically: no page's HTML, and no script a page
 * loads statically, names the chat's chunk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '../../../dist');
const ASTRO = join(DIST, '_astro');
const BUDGET = 15 * 1024;

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '_astro' || name === 'pagefind' ? [] : htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

const read = (file: string) => readFileSync(join(ASTRO, file), 'utf8');
/** The chunks a built script imports statically (`import … from"./x.js"`, `import"./x.js"`). */
const staticImports = (code: string) =>
  [...code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1]!);
/** The chunks a built script loads with import(): the target and the dependencies Vite preloads with it. */
function dynamicImports(code: string): string[] {
  const targets = [...code.matchAll(/import\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
  const deps = /__vite__mapDeps=.*?\[((?:"[^"]*",?)*)\]/.exec(code)?.[1] ?? '';
  return [...new Set([...targets, ...[...deps.matchAll(/"_astro\/([^"]+\.js)"/g)].map((m) => m[1]!)])];
}
/** A script and every chunk it imports statically, transitively. */
function eagerClosure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const dep of staticImports(read(entry))) eagerClosure(dep, seen);
  return seen;
}

describe('the chat bundle', () => {
  const pages = htmlFiles(DIST);
  const launcher = readdirSync(ASTRO).find((f) => /^ChatLauncher\.astro_.*\.js$/.test(f));
  const chat = readdirSync(ASTRO).find((f) => /^chat\.[\w-]+\.js$/.test(f));

  it('is built: the launcher script and the chat chunk are in dist/_astro', () => {
    expect(pages.length, 'run `node server/build-check.ts` first').toBeGreaterThan(20);
    expect(launcher).toBeDefined();
    expect(chat).toBeDefined();
  });

  it('is at most 15 KB gzipped: the chat chunk and everything fetched with it on first use', () => {
    const code = read(launcher!);
    const firstUse = dynamicImports(code);
    expect(firstUse).toContain(chat);
    // Whatever the chat imports statically comes with it (Vite lists it in the preload deps; checked here too).
    const closure = new Set(firstUse.flatMap((f) => [...eagerClosure(f)]));
    const sizes = Object.fromEntries(
      [...closure].map((f) => [f, gzipSync(readFileSync(join(ASTRO, f)), { level: 9 }).length]),
    );
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    console.log(`chat on first use: ${total} bytes gzipped`, sizes);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it('is loaded by no page eagerly: every page has the launcher, none names the chat chunk', () => {
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      const name = relative(DIST, page);
      if (!html.includes('data-chat-launcher')) continue; // pages without the layout (none today but the checks)
      expect(html, name).toMatch(/<a class="chat-launcher" href="\/contact" data-chat-launcher>/);
      expect(html, name).not.toContain(chat!);
      const scripts = [...html.matchAll(/<script[^>]*\bsrc="\/_astro\/([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts, name).toContain(launcher);
      for (const s of scripts) expect([...eagerClosure(s)], `${name}: ${s}`).not.toContain(chat);
      const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
      expect(preloads.join(' '), name).not.toContain('chat.');
    }
    const withLauncher = pages.filter((p) => readFileSync(p, 'utf8').includes('data-chat-launcher'));
    expect(withLauncher.length, 'every page of the layout has the launcher').toBeGreaterThanOrEqual(pages.length - 1);
  });
});
