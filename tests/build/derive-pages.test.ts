import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The project's own modules a module imports, transitively (relative `import … from './x.ts'` only). */
function localImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+\.ts)'/gm))
    localImports(resolve(dirname(file), m[1]!), seen);
  return seen;
}

describe('the derive page cache', () => {
  it("is salted with every module a page's derivation reads (src/build, src/contract, src/core)", () => {
    const root = resolve('src');
    for (const entry of ['src/build/page-from-html.ts', 'src/build/derive-pages.ts']) {
      for (const file of localImports(resolve(entry))) {
        const path = relative(root, file);
        expect(/^(build|contract|core)\//.test(path), `${entry} reads ${join('src', path)}`).toBe(true);
      }
    }
  });
});
