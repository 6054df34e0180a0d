/**
 * @module What `npm run gen:vercel` writes besides vercel.json (tests/operations/index.test.ts checks that one):
 * middleware.ts's generated block (its matcher and data files, from the route table and the operations' content
 * needs), and the crons, from the operations that declare a schedule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  crons,
  EDGE_NEEDS,
  MIDDLEWARE_BLOCK,
  MIDDLEWARE_FILE,
  middlewareBlock,
  middlewareDataFiles,
  middlewareMatcher,
  PUBLISHED_EXTENSIONS,
  withMiddlewareBlock,
} from '../../src/build/vercel-config.ts';
import { dataFilesFor } from '../../src/adapters/content-files.ts';
import { functionPath } from '../../src/contract/routes.ts';
import { DATA_DIR } from '../../src/config.ts';
import { CONTENT_FILE, type ContentData } from '../../src/core/content.ts';
import { functionOf } from '../../src/http/operation.ts';
import { operations, routes } from '../../src/operations/index.ts';
import { config as middlewareConfig, MIDDLEWARE_DATA } from '../../middleware.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

describe("middleware.ts's generated block", () => {
  it('is exactly what the route table generates', () => {
    const source = readFileSync(MIDDLEWARE_FILE, 'utf8');
    const stale = "middleware.ts's matcher or data files differ from the route table's: run `npm run gen:vercel`";
    expect(source, stale).toBe(withMiddlewareBlock(source));
    expect(source).toContain(middlewareBlock());
  });

  it('is what the module exports: the matcher and the data files', () => {
    expect(middlewareConfig).toEqual({ runtime: 'nodejs', matcher: middlewareMatcher().map((m) => m.pattern) });
    expect(MIDDLEWARE_DATA.map((u) => u.pathname.slice(u.pathname.lastIndexOf('/') + 1))).toEqual(
      middlewareDataFiles(),
    );
    for (const u of MIDDLEWARE_DATA) expect(u.pathname, u.href).toContain(`/${DATA_DIR}/`);
  });

  it('is replaced between its markers only, and missing markers are an error', () => {
    const around = `// before\n${MIDDLEWARE_BLOCK.start}\nstale\n${MIDDLEWARE_BLOCK.end}\n// after\n`;
    expect(withMiddlewareBlock(around)).toBe(`// before\n${middlewareBlock()}\n// after\n`);
    expect(() => withMiddlewareBlock('export const config = {};\n')).toThrow(/no generated block/);
  });
});

describe('the middleware matcher', () => {
  const patterns = () => middlewareMatcher().map((m) => new URLPattern({ pathname: m.pattern }));
  const taken = (path: string) => patterns().some((p) => p.test({ pathname: path }));

  it('leaves out every path a function answers, by its route and by its file', () => {
    for (const op of operations) {
      const fn = functionOf(op);
      if (!fn) continue;
      expect(taken(op.path), op.path).toBe(false);
      expect(taken(functionPath(fn)), functionPath(fn)).toBe(false);
    }
  });

  it('takes what the middleware decides: its operations, unknown API paths, pages, twins, odd extensions', () => {
    for (const op of operations.filter((o) => !functionOf(o))) {
      expect(taken(op.path.replace(/\{\w+\}/, 'pricing')), op.id).toBe(true);
    }
    for (const p of ['/api/v2/nope', '/api/v1/pages/batch/x', '/', '/pricing', '/pricing.md', '/wp-login.php']) {
      expect(taken(p), p).toBe(true);
    }
  });

  it('leaves out the static routes and a file of every published extension (a `.md` gets its headers)', () => {
    for (const r of routes.filter((r) => r.serve === 'static' && !r.path.includes('{') && !r.path.endsWith('.md'))) {
      expect(taken(r.path), r.path).toBe(false);
    }
    for (const ext of PUBLISHED_EXTENSIONS.filter((e) => e !== 'md')) expect(taken(`/x.${ext}`), ext).toBe(false);
    for (const p of ['/_astro/x.md', '/pagefind/x.bin', '/favicon.svg']) expect(taken(p), p).toBe(false);
  });

  it('names the published extensions of every file of the build', () => {
    const data = JSON.parse(readFileSync(join(PROJECT_ROOT, DATA_DIR, CONTENT_FILE), 'utf8')) as ContentData;
    expect(data.files.length).toBeGreaterThan(10);
    for (const file of data.files) {
      const ext = /\.([^./]+)$/.exec(file)?.[1];
      if (ext) expect(PUBLISHED_EXTENSIONS as readonly string[], file).toContain(ext);
    }
  });

  it('carries the data files of what the middleware operations and its own step read', () => {
    const needs = [...operations.filter((o) => !functionOf(o)).flatMap((o) => o.data), ...EDGE_NEEDS];
    expect(middlewareDataFiles()).toEqual(dataFilesFor(needs));
    expect(middlewareDataFiles()).toEqual(dataFilesFor(['entry', 'files']));
  });
});

describe('crons', () => {
  it('come from the operations that declare a schedule: GET operations a function serves', () => {
    const scheduled = operations.filter((op) => op.cron);
    expect(crons()).toEqual(scheduled.map((op) => ({ path: op.path, schedule: op.cron })));
    for (const op of scheduled) {
      expect(op.method, op.id).toBe('GET');
      expect(functionOf(op), op.id).toBeDefined();
      expect(op.cron, op.id).toMatch(/^\S+( \S+){4}$/);
    }
    expect(crons()).toEqual([{ path: '/api/cron/leads-flush', schedule: '*/10 * * * *' }]);
  });
});
