import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { apiFiles, buildVercelConfig } from '../../src/build/vercel-config.ts';
import { functionPath } from '../../src/contract/routes.ts';
import { functionOf } from '../../src/http/operation.ts';
import { functionRoutes, matchOperation, operations, routes } from '../../src/operations/index.ts';
import { PROJECT_ROOT } from '../../server/main.ts';
import { config as middlewareConfig } from '../../middleware.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';

describe('one operation list, everything derived from it', () => {
  it('vercel.json is exactly what the operations and routes generate (run npm run gen:vercel after changing them)', () => {
    const committed = JSON.parse(readFileSync(join(PROJECT_ROOT, 'vercel.json'), 'utf8'));
    expect(committed).toEqual(buildVercelConfig());
  });

  it('gives every function operation a Vercel function file and a rewrite when its path differs', () => {
    const cfg = buildVercelConfig();
    for (const r of functionRoutes()) {
      expect(cfg.functions).toHaveProperty(`api/${r.fn}.ts`);
      if (functionPath(r.fn) !== r.path)
        expect(cfg.rewrites).toContainEqual({ source: r.path, destination: functionPath(r.fn) });
    }
    expect(cfg.rewrites).toContainEqual({ source: '/mcp', destination: '/api/mcp' });
  });

  it('every api/ file binds a listed operation', () => {
    const files = readdirSync(join(PROJECT_ROOT, 'api'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    const bound = new Set(operations.map((op) => `${functionOf(op)}.ts`));
    for (const f of files) expect(bound.has(f.split(sep).join('/')), `api/${f}`).toBe(true);
  });

  it('the api/ files are what npm run gen:vercel writes from the operation list', () => {
    for (const [file, text] of apiFiles())
      expect(readFileSync(file, 'utf8'), `${file}: run npm run gen:vercel`).toBe(text);
  });

  it('each api/ file binds its own operation, every method included', async () => {
    const fns = operations.filter((op) => functionOf(op));
    expect(fns.map((op) => op.id).sort()).toEqual(
      functionRoutes()
        .map((r) => r.id)
        .sort(),
    );
    for (const op of fns) {
      const source = readFileSync(join(PROJECT_ROOT, 'api', `${functionOf(op)}.ts`), 'utf8');
      expect(source, op.id).toMatch(new RegExp(`vercelFunction\\(${op.id}\\)`));
      const mod = (await import(join(PROJECT_ROOT, 'api', `${functionOf(op)}.ts`))) as Record<string, unknown>;
      for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
        expect(mod[m], `${op.id} ${m}`).toBeTypeOf('function');
    }
  });

  it('every public operation is in the OpenAPI document with each declared status', () => {
    const doc = buildOpenApi('https://kartage.com.au', operations) as {
      paths: Record<string, Record<string, { operationId: string; responses: object }>>;
    };
    for (const op of operations) {
      const entry = doc.paths[op.path]?.[op.method.toLowerCase()];
      if (!op.public) {
        expect(entry, op.id).toBeUndefined();
        continue;
      }
      expect(entry?.operationId, op.id).toBe(op.id);
      expect(Object.keys(entry!.responses).sort(), op.id).toEqual(Object.keys(op.responses).sort());
    }
  });

  it('routes a path to its operation; exact paths win over parameters', () => {
    expect(matchOperation('/api/v1/pages/batch')?.op.id).toBe('getPagesBatch');
    expect(matchOperation('/api/v1/pages/blog/x')).toMatchObject({ op: { id: 'getPage' }, params: { slug: 'blog/x' } });
    expect(matchOperation('/api/v1/pages')?.op.id).toBe('listPages');
    expect(matchOperation('/api/v2/nope')).toBeUndefined();
  });

  it('the middleware matcher covers every path the middleware decides', () => {
    const m = middlewareConfig.matcher;
    const apiPattern = new URLPattern({ pathname: m[0] as string });
    for (const p of ['/api/v1/pages/pricing', '/api/v1/pages/index', '/api/v2/nope'])
      expect(apiPattern.test({ pathname: p }), p).toBe(true);
    // The function paths the matcher leaves out (each saves a middleware invocation) are all real ones; a
    // function path it does not leave out still works (the middleware passes it on), just costs one more.
    const excluded = /\(\?:([^)]*)\)/
      .exec(m[0] as string)![1]!
      .split('|')
      .map((p) => `/api/${p}`);
    const fnPaths = new Set([...functionRoutes().map((r) => functionPath(r.fn)), ...routes.map((r) => r.path)]);
    for (const p of excluded) expect(fnPaths.has(p), `${p} in the matcher's exclusions`).toBe(true);
    const pagePattern = new URLPattern({ pathname: m[1] as string });
    for (const p of ['/', '/pricing', '/blog/planning-for-peak-season'])
      expect(pagePattern.test({ pathname: p }), p).toBe(true);
    for (const p of ['/_astro/x.js', '/pagefind/pagefind.js', '/pricing.md'])
      expect(pagePattern.test({ pathname: p }), p).toBe(false);
    expect(routes.find((r) => r.id === 'getPage')!.serve).toBe('middleware');
  });
});
