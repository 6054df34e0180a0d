import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVercelConfig } from '../../src/build/vercel-config.ts';
import { functionPath, functionRoutes, routes } from '../../src/contract/routes.ts';
import { createApp } from '../../server/app.ts';
import { createDeps } from '../../src/adapters/deps.ts';
import { PROJECT_ROOT } from '../../server/main.ts';
import { config as middlewareConfig } from '../../middleware.ts';

describe('one route table', () => {
  it('vercel.json is exactly what the route table generates (run npm run gen:vercel after changing it)', () => {
    const committed = JSON.parse(readFileSync(join(PROJECT_ROOT, 'vercel.json'), 'utf8'));
    expect(committed).toEqual(buildVercelConfig());
  });

  it('gives every function route a Vercel function file and a rewrite when its path differs', () => {
    const cfg = buildVercelConfig();
    for (const r of functionRoutes()) {
      expect(cfg.functions).toHaveProperty(`api/${r.fn}.ts`);
      if (functionPath(r.fn!) !== r.path) expect(cfg.rewrites).toContainEqual({ source: r.path, destination: functionPath(r.fn!) });
    }
    expect(cfg.rewrites).toContainEqual({ source: '/mcp', destination: '/api/mcp' });
  });

  it('the local server mounts the api/ modules of the same table', async () => {
    const app = await createApp({ root: PROJECT_ROOT, distDir: join(PROJECT_ROOT, 'dist'), deps: createDeps({ dataDir: join(PROJECT_ROOT, 'build') }) });
    const mounted = [...app.functions.map((f) => f.route.id), ...app.missing.map((r) => r.id)].sort();
    expect(mounted).toEqual(functionRoutes().map((r) => r.id).sort());
    for (const f of app.functions) for (const m of f.route.methods) {
      if (m === 'GET' && f.route.id === 'mcp') continue;
      expect(f.module[m], `${f.route.id} ${m}`).toBeTypeOf('function');
    }
    expect(app.functions.map((f) => f.route.id)).toEqual(expect.arrayContaining(['listPages', 'searchSite', 'getPagesBatch']));
  });

  it('the middleware matcher covers every path the edge step decides', () => {
    const m = middlewareConfig.matcher;
    const apiPattern = new URLPattern({ pathname: m[0] as string });
    for (const p of ['/api/v1/pages/pricing', '/api/v1/pages/index', '/api/v2/nope']) expect(apiPattern.test({ pathname: p }), p).toBe(true);
    const pagePattern = new URLPattern({ pathname: m[1] as string });
    for (const p of ['/', '/pricing', '/blog/planning-for-peak-season']) expect(pagePattern.test({ pathname: p }), p).toBe(true);
    for (const p of ['/_astro/x.js', '/pagefind/pagefind.js', '/pricing.md']) expect(pagePattern.test({ pathname: p }), p).toBe(false);
    expect(routes.find((r) => r.id === 'getPage')!.serve).toBe('middleware');
  });
});
