/**
 * The import graph (issue 24, point 2): no cycle anywhere in the service's code, and every import goes down the
 * layer order the README draws (section "Layout", the block after "Layers, each importing only from those below
 * it"), so the drawing and the tree cannot drift apart. Static and dynamic imports, type-only imports too (a type
 * import still couples two modules). Fails with the offending chain or file:line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './helpers/server.ts';

/** Every TypeScript source of the service (not tests, bench, the Astro site's .astro files). */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const dir of ['src', 'api', 'server']) walk(join(PROJECT_ROOT, dir));
  out.push(join(PROJECT_ROOT, 'middleware.ts'));
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** The project files `file` imports (relative specifiers resolved), with the line of each import. */
function importsOf(file: string): { target: string; line: number }[] {
  const text = readFileSync(file, 'utf8');
  const out: { target: string; line: number }[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    const line = text.slice(0, m.index! + m[0].length).split('\n').length;
    out.push({ target, line });
  }
  return out;
}

/** The README's layers, top first: each line `name  paths...`, paths relative to the project. */
function readmeLayers(): { name: string; paths: string[] }[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('Layers, each importing only from those below it');
  expect(at, 'README "Layout" draws the layers').toBeGreaterThan(0);
  const block = readme.slice(readme.indexOf('```', at) + 3, readme.indexOf('```', readme.indexOf('```', at) + 3));
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^[|v↓]+$/.test(l))
    .map((l) => {
      const [name, ...rest] = l.split(/\s{2,}/);
      return { name: name!, paths: rest.join(' ').split(/[ ,]+/).filter(Boolean) };
    });
}

const rel = (f: string) => relative(PROJECT_ROOT, f);

describe('the import graph', () => {
  const files = sources();
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => files.includes(i.target))]));

  it('has no cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const { target } of graph.get(f) ?? []) {
        if (state.get(target) === 'open')
          cycles.push([...stack.slice(stack.indexOf(target)), target].map(rel).join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('imports only down the layer order the README draws, and every file is in a layer', () => {
    const layers = readmeLayers();
    // The order is top first: a file may import its own layer and those below.
    const layerOf = (f: string) => {
      const r = rel(f);
      let best: { rank: number; length: number } | undefined;
      layers.forEach((l, rank) => {
        for (const p of l.paths) {
          const path = p.replace(/\/$/, '');
          if (r === path || r.startsWith(`${path}/`))
            if (!best || path.length > best.length) best = { rank, length: path.length };
        }
      });
      return best?.rank;
    };
    const unplaced = files.filter((f) => layerOf(f) === undefined).map(rel);
    expect(unplaced).toEqual([]);
    const wrong: string[] = [];
    for (const [f, imports] of graph) {
      const from = layerOf(f)!;
      for (const { target, line } of imports) {
        const to = layerOf(target)!;
        if (to < from)
          wrong.push(`${rel(f)}:${line} (${layers[from]!.name}) imports ${rel(target)} (${layers[to]!.name})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no file of src/, api/ or server/ imports from tests/', () => {
    const fromTests = files.flatMap((f) =>
      importsOf(f)
        .filter((i) => rel(i.target).startsWith('tests/'))
        .map((i) => `${rel(f)}:${i.line} imports ${rel(i.target)}`),
    );
    expect(fromTests).toEqual([]);
  });

  it('the check sees static, dynamic and re-export imports', () => {
    const here = importsOf(join(PROJECT_ROOT, 'tests/architecture.test.ts')).map((i) => rel(i.target));
    expect(here).toContain('tests/helpers/server.ts');
  });
});
