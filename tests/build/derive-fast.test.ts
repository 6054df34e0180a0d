/**
 * The derive step's fast path changes no output byte: the project's rendered HTML (dist/, which `npm test`
 * builds first) derived in this thread alone and derived across worker threads give the same files, byte for
 * byte: markdown twins, page JSON, llms.txt, llms-full.txt, sitemaps, OpenAPI, discovery files, content.json,
 * the search index and the split data files (the build time in content.json and meta.json aside).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSite } from '../../src/build/derive.ts';

const ORIGIN = 'https://kartage.test';
let work: string;

function listFiles(dir: string, out: string[] = [], root = dir): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) listFiles(p, out, root);
    else out.push(relative(root, p));
  }
  return out.sort();
}

/** A copy of the rendered site (HTML and assets only) and the result of deriving it. */
async function derived(name: string, workers: number): Promise<{ dist: string; data: string }> {
  const dist = join(work, name, 'dist');
  const data = join(work, name, 'data');
  cpSync('dist', dist, { recursive: true, filter: (src) => !/\.(md|json|txt|xml|yaml)$/.test(src) && !src.includes('/pagefind') });
  await deriveSite({ distDir: dist, dataDir: data, origin: ORIGIN, pagefind: false, workers });
  return { dist, data };
}

const withoutBuildTime = (name: string, bytes: Buffer) =>
  /(^|\/)(content|meta)\.json$/.test(name) ? Buffer.from(bytes.toString('utf8').replace(/"builtAt":"[^"]*"/, '"builtAt":""')) : bytes;

beforeAll(() => {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: build first (node server/build-check.ts)');
  work = mkdtempSync(join(tmpdir(), 'kartage-derive-fast-'));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('derive step: worker threads give the same bytes as one thread', () => {
  it('every output file, byte for byte', async () => {
    const serial = await derived('serial', 1);
    const parallel = await derived('parallel', 3);
    for (const part of ['dist', 'data'] as const) {
      const a = listFiles(serial[part]);
      const b = listFiles(parallel[part]);
      expect(b, part).toEqual(a);
      for (const name of a) {
        const x = withoutBuildTime(name, readFileSync(join(serial[part], name)));
        const y = withoutBuildTime(name, readFileSync(join(parallel[part], name)));
        expect(y.equals(x), `${part}/${name} differs`).toBe(true);
      }
    }
    const data = listFiles(serial.data);
    expect(data).toEqual(expect.arrayContaining(['content.json', 'search-index.json', 'entries.json.gz', 'pages.pack', 'text.pack']));
    const dist = listFiles(serial.dist);
    expect(dist).toEqual(expect.arrayContaining(['llms.txt', 'llms-full.txt', 'sitemap.xml', 'sitemap.md', 'pricing.md', 'api/v1/pages/pricing.json']));
    expect(dist.filter((f) => f.endsWith('.md')).length).toBeGreaterThan(50);
  });

  it('content.json written piece by piece is exactly JSON.stringify of the data', async () => {
    const { data } = await derived('json', 2);
    const text = readFileSync(join(data, 'content.json'), 'utf8');
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });
});
