/**
 * The long-line check of `npm run lint` (scripts/long-lines.mjs): what it reports, the one exception it makes
 * (a line long only because of one data-like literal), and its command line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { longLines } from '../../scripts/long-lines.mjs';

/** n characters of words and spaces, ending in a letter. */
const prose = (n: number) => `${'word '.repeat(Math.ceil(n / 5)).slice(0, n - 1)}s`;
/** The lines longLines reports for one file, as [line, allowed]. */
const report = (text: string, file = 'x.ts') =>
  longLines(text, file).map((h: { line: number; allowed: boolean }) => [h.line, h.allowed]);

describe('scripts and TypeScript', () => {
  it('reports nothing at 120 characters, and counts code points (an emoji is one character)', () => {
    expect(report(`const a = '${'x'.repeat(107)}';`)).toEqual([]);
    expect(`const a = '${'x'.repeat(107)}';`).toHaveLength(120);
    expect(report(`const a = '${'😀'.repeat(107)}';`)).toEqual([]);
    expect(report(`const a = 1; // ${'x'.repeat(105)}`)).toEqual([[1, false]]);
  });

  it('reports long comments, line or block, whatever they hold', () => {
    const text = [`// ${prose(130)}`, '/**', ` * '${prose(125)}'`, ' */', 'const ok = 1;'].join('\n');
    expect(report(text)).toEqual([
      [1, false],
      [3, false],
    ]);
  });

  it('reports long code: with short literals only, or still over 120 without its longest literal', () => {
    const code = `const total = ${Array.from({ length: 20 }, (_, i) => `value${i}`).join(' + ')};`;
    expect(code.length).toBeGreaterThan(120);
    const two = `call('${prose(60)}', '${prose(60)}', first.value + second.value * third.factor + fourth.more);`;
    const short = `if ('modelContext' in document || 'modelContext' in navigator) registerTheSiteTools(document.body, { all: true, now: 1 });`;
    expect(short.length).toBeGreaterThan(120);
    expect(report([code, two, short].join('\n'))).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
  });

  it('allows a line long only because of one long string, template literal or regex', () => {
    const lines = [
      `    error: '${prose(140)}',`,
      `  it(\`${prose(100)} (\${runs(1)} runs)\`, async () => {`,
      `const EMAIL = /^(?:[A-Za-z0-9_'+-]+\\.)*${'[A-Za-z0-9_+-]'.repeat(8)}@(?:[A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z]{2,}$/;`,
      `import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/${'x'.repeat(60)}.js';`,
    ];
    for (const line of lines) expect(line.length).toBeGreaterThan(120);
    expect(report(lines.join('\n'))).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
    ]);
  });

  it('reads a multi-line template literal as one literal: each long line in it is data', () => {
    const text = ['const script = `', `  ${prose(150)}`, `  const x = ${'y'.repeat(130)};`, '`;'].join('\n');
    expect(report(text)).toEqual([
      [2, true],
      [3, true],
    ]);
  });

  it('tells a division from a regex, so a division does not hide code in a fake literal', () => {
    const division = `const share = (total / ${'count'.repeat(10)}) * ratio / scale + ${Array.from({ length: 12 }, (_, i) => `w${i}`).join(' + ')};`;
    const withRegex = `return /${'a'.repeat(60)}/.test(value) && value.length > 3 && another(value) + third(value);`;
    expect(division.length).toBeGreaterThan(120);
    expect(withRegex.length).toBeGreaterThan(120);
    expect(report([division, withRegex].join('\n'))).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe('.astro files', () => {
  it('checks the front matter as script, allows page copy and attribute values, and reports markup structure', () => {
    const text = [
      '---',
      `// ${prose(125)}`,
      `const title = '${prose(130)}';`,
      '---',
      `<p>${prose(140)}</p>`,
      `<a class="btn btn-primary btn-lg" href="/demo" data-label="Book">Book a demo</a><a class="btn btn-secondary" href="/pricing">Pricing</a>`,
      `<PageHeader eyebrow="Search" title="Search the Kartage site" lead="${prose(110)}" />`,
    ].join('\n');
    expect(text.split('\n')[5]!.length).toBeGreaterThan(120);
    expect(report(text, 'x.astro')).toEqual([
      [2, false],
      [3, true],
      [5, true],
      [6, false],
      [7, true],
    ]);
  });
});

describe('command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'long-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['scripts/long-lines.mjs', ...args], { encoding: 'utf8', cwd: process.cwd() });

  it('lists file:line of each offending line and fails; passes on a clean folder; skips other extensions', () => {
    writeFileSync(join(dir, 'bad.ts'), `const a = 1;\n// ${prose(130)}\n`);
    writeFileSync(join(dir, 'notes.md'), `${prose(300)}\n`);
    const bad = run(dir);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/bad\.ts:2: 133 characters \(comment\)/);
    expect(bad.stdout).not.toMatch(/notes\.md/);
    writeFileSync(join(dir, 'bad.ts'), `const a = 1;\n// ${prose(50)}\n// ${prose(50)}\n`);
    const good = run(dir);
    expect(good.status).toBe(0);
    expect(good.stderr).toMatch(/1 files, 0 line\(s\) over 120 characters/);
  });
});
