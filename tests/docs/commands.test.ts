/**
 * Every `sh` block of README.md and docs/*.md runs as printed (the convention is at the top of
 * docs/testing.md): against the local server on port 4321 when it is free, else on a free port written in
 * for 4321.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from '../helpers/fenced-blocks.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';

/** The port the docs print. */
const DOCS_PORT = 4321;

/** README.md and every page of docs/, as paths from the project root. */
const DOCS = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const SH_BLOCKS = DOCS.flatMap((file) =>
  fencedBlocks(readFileSync(join(PROJECT_ROOT, file), 'utf8'))
    .filter((b) => b.info === 'sh')
    .map((b) => ({ file, ...b })),
);

/** Whether nothing listens on the loopback port yet. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The block's script with the server's port written in for the docs' one. */
function withPort(script: string, port: number): string {
  return script.replace(new RegExp(`\\b(localhost|127\\.0\\.0\\.1):${DOCS_PORT}\\b`, 'g'), `$1:${port}`);
}

/** Runs a script as a docs block runs: bash, stop on the first failing command, from the project root. */
function runBlock(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', script],
      {
        cwd: PROJECT_ROOT,
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
        // Node 24 first on PATH, as scripts/node24.mjs puts it for every npm script.
        env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}`.slice(-4000) });
      },
    );
  });
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let port: number;

beforeAll(async () => {
  server = await startTestServer((await portFree(DOCS_PORT)) ? { port: DOCS_PORT } : {});
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await new Promise((resolve) => server?.server.close(resolve));
});

describe('the command blocks of the docs', () => {
  it('finds the docs and their sh blocks, README first', () => {
    expect(existsSync(join(PROJECT_ROOT, 'docs/testing.md'))).toBe(true);
    expect(SH_BLOCKS.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(3);
  });

  it('names the kind of every fenced block, and no block swallows another', () => {
    const wrong = DOCS.flatMap((file) =>
      fencedBlocks(readFileSync(join(PROJECT_ROOT, file), 'utf8'))
        .filter((b) => b.info === '' || /^\s*(`{3,}|~{3,})/m.test(b.text))
        .map((b) => `${file}:${b.line}`),
    );
    expect(wrong, 'give each fenced block an info string (sh, text, ts, ...) and close it').toEqual([]);
  });

  it.each(SH_BLOCKS.map((b) => [`${b.file}:${b.line}`, b] as const))('%s runs as printed', async (_, block) => {
    const { code, output } = await runBlock(withPort(block.text, port));
    expect(code, `${block.file}:${block.line} exited ${code}:\n${block.text}\n--- output ---\n${output}`).toBe(0);
  });
});

describe('withPort', () => {
  it('writes the server port for the docs port, and leaves other ports alone', () => {
    expect(withPort('curl localhost:4321/x 127.0.0.1:4321 localhost:43210 example:4321', 5000)).toBe(
      'curl localhost:5000/x 127.0.0.1:5000 localhost:43210 example:4321',
    );
  });
});
