/**
 * docs/add-an-operation.md's example runs as printed: each `ts` block is written to the file the page names
 * just before it, in a copy of the tree (the project's files linked, nothing written into it); the operation and
 * its test type-check with the project's settings, the example's test passes, and the operation without its 429
 * does not type-check, as the page says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from '../helpers/fenced-blocks.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const PAGE = readFileSync(join(PROJECT_ROOT, 'docs/add-an-operation.md'), 'utf8');

/** Each `ts` block of the page with the file it names: the last `src/…` or `tests/…` path written before it. */
const EXAMPLES = fencedBlocks(PAGE)
  .filter((b) => b.info === 'ts')
  .map((b) => {
    const before = PAGE.split('\n').slice(0, b.line).join('\n');
    const path = [...before.matchAll(/`((?:src|tests)\/[\w/.-]+\.ts)`/g)].at(-1)?.[1];
    return { path, text: `${b.text}\n` };
  });

/** A copy of the project in which only the example's files are new: every other file is a link to the real one. */
function exampleTree(files: { path: string; text: string }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'add-an-operation-'));
  const link = (rel: string) => symlinkSync(join(PROJECT_ROOT, rel), join(root, rel));
  const own = new Set(files.map((f) => dirname(f.path)));
  // Each folder that gets a new file is a real folder whose other entries link to the project's.
  const mirror = (rel: string) => {
    mkdirSync(join(root, rel), { recursive: true });
    for (const entry of readdirSync(join(PROJECT_ROOT, rel))) {
      const child = rel === '.' ? entry : `${rel}/${entry}`;
      if (![...own].some((d) => d === child || d.startsWith(`${child}/`))) link(child);
      else mirror(child);
    }
  };
  mirror('.');
  for (const f of files) writeFileSync(join(root, f.path), f.text);
  writeFileSync(
    join(root, 'tsconfig.example.json'),
    JSON.stringify({
      extends: join(PROJECT_ROOT, 'tsconfig.json'),
      include: ['src/core/search/wink-porter2-stemmer.d.ts', ...files.map((f) => f.path)],
    }),
  );
  return root;
}

/** Runs a Node script of the project's node_modules in `cwd`; its exit code and output. */
function run(cwd: string, script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules', script), ...args],
      { cwd, timeout: 120_000, env: { ...process.env, TMPDIR: tmpdir() } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}`.slice(-4000) });
      },
    );
  });
}

const typeCheck = (root: string) => run(root, 'typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.example.json']);

let tree: string;

beforeAll(() => {
  tree = exampleTree(EXAMPLES.map((e) => ({ path: e.path ?? '', text: e.text })));
});

describe('docs/add-an-operation.md', () => {
  it('names a file for each example: the operation and its test', () => {
    expect(EXAMPLES.map((e) => e.path)).toEqual([
      'src/operations/get-pricing.ts',
      'tests/operations/get-pricing.test.ts',
    ]);
  });

  it('type-checks the operation and its test with the project settings', { timeout: 150_000 }, async () => {
    const { code, output } = await typeCheck(tree);
    expect(code, output).toBe(0);
  });

  it("passes the example's own test", { timeout: 150_000 }, async () => {
    const { code, output } = await run(tree, 'vitest/vitest.mjs', ['run', EXAMPLES[1]!.path!]);
    expect(code, output).toBe(0);
    expect(output).toContain('1 passed');
  });

  it('holds the operation to its 429: without it the types refuse it', { timeout: 150_000 }, async () => {
    const [operation, test] = EXAMPLES;
    const without = operation!.text.replace(/^\s*429: READ_429,.*\n/m, '');
    expect(without).not.toBe(operation!.text);
    const root = exampleTree([
      { path: operation!.path!, text: without },
      { path: test!.path!, text: test!.text },
    ]);
    const { code, output } = await typeCheck(root);
    expect(code).not.toBe(0);
    expect(output).toContain("Property '429' is missing");
  });
});
