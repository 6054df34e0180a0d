/**
 * The derive step's fast path changes no output byte: the project's rendered HTML (dist/, which `npm test`
 * builds first) derived in this thread alone and derived across worker threads give the same files, byte for
 * byte: markdown twins, page JSON, llms.txt, llms-full.txt, sitemaps, OpenAPI, discovery files, content.json,
 * the search index and the split data files (the build time in content.json and meta.json aside).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSite } from '../../src/build/derive.ts';
import { startEarlyDerive } from '../../src/build/derive-early.ts';

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
async function derived(name: string, workers: number, cacheDir?: string): Promise<{ dist: string; data: string }> {
  const dist = join(work, name, 'dist');
  const data = join(work, name, 'data');
  cpSync('dist', dist, {
    recursive: true,
    filter: (src) => !/\.(md|json|txt|xml|yaml)$/.test(src) && !src.includes('/pagefind'),
  });
  await deriveSite({ distDir: dist, dataDir: data, origin: ORIGIN, pagefind: false, workers, cacheDir });
  return { dist, data };
}

/** Every file of both outputs is the same, byte for byte (the build time aside). */
function expectSameOutput(a: { dist: string; data: string }, b: { dist: string; data: string }) {
  for (const part of ['dist', 'data'] as const) {
    const names = listFiles(a[part]);
    expect(listFiles(b[part]), part).toEqual(names);
    for (const name of names) {
      const x = withoutBuildTime(name, readFileSync(join(a[part], name)));
      const y = withoutBuildTime(name, readFileSync(join(b[part], name)));
      expect(y.equals(x), `${part}/${name} differs`).toBe(true);
    }
  }
}

const withoutBuildTime = (name: string, bytes: Buffer) =>
  /(^|\/)(content|meta)\.json$/.test(name)
    ? Buffer.from(bytes.toString('utf8').replace(/"builtAt":"[^"]*"/, '"builtAt":""'))
    : bytes;

beforeAll(() => {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: build first (node server/build-check.ts)');
  work = mkdtempSync(join(tmpdir(), 'kartage-derive-fast-'));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each test runs whole derive steps over the site, and the early derive's waits for its worker thread allow up to 30 s
// each: on a loaded two-core machine (CI runs two test files at once) one test took over the default 30 s.
describe('derive step: worker threads give the same bytes as one thread', { timeout: 120_000 }, () => {
  it('every output file, byte for byte', async () => {
    const serial = await derived('serial', 1);
    const parallel = await derived('parallel', 3);
    expectSameOutput(serial, parallel);
    const data = listFiles(serial.data);
    expect(data).toEqual(
      expect.arrayContaining(['content.json', 'search-index.json', 'entries.json.gz', 'pages.pack', 'text.pack']),
    );
    const dist = listFiles(serial.dist);
    expect(dist).toEqual(
      expect.arrayContaining([
        'llms.txt',
        'llms-full.txt',
        'sitemap.xml',
        'sitemap.md',
        'pricing.md',
        'api/v1/pages/pricing.json',
      ]),
    );
    expect(dist.filter((f) => f.endsWith('.md')).length).toBeGreaterThan(50);
  });

  it('the page cache: a cold and a warm cache give the same bytes as no cache, and a warm build reads it', async () => {
    const serial = await derived('reference', 1);
    const cacheDir = join(work, 'cache');
    expectSameOutput(serial, await derived('cold', 2, cacheDir));
    const entries = listFiles(cacheDir);
    expect(entries.length).toBe(listFiles(serial.dist).filter((f) => f.endsWith('.html')).length);
    expectSameOutput(serial, await derived('warm', 2, cacheDir));
    expectSameOutput(serial, await derived('warm-serial', 1, cacheDir));
    expect(listFiles(cacheDir)).toEqual(entries);
    // The warm build really reads the cache: a cached page changed by hand comes out changed.
    const pricing = entries.find((f) => readFileSync(join(cacheDir, f), 'utf8').includes('"slug":"pricing"'))!;
    const cached = readFileSync(join(cacheDir, pricing), 'utf8');
    writeFileSync(join(cacheDir, pricing), cached.replace(/"title":"[^"]*"/, '"title":"From the cache"'));
    const tampered = await derived('tampered', 2, cacheDir);
    expect(JSON.parse(readFileSync(join(tampered.dist, 'api/v1/pages/pricing.json'), 'utf8')).title).toBe(
      'From the cache',
    );
    // A cache entry no page uses any more is removed.
    writeFileSync(join(cacheDir, entries[0]!.slice(0, 2), `${'f'.repeat(64)}.json`), '{}');
    await derived('pruned', 2, cacheDir);
    expect(listFiles(cacheDir)).toEqual(entries);
  });

  it('pages derived while Astro writes them: into the cache, each once whole, none from before; same bytes', async () => {
    const reference = await derived('early-reference', 1);
    const dist = join(work, 'early', 'dist');
    const cacheDir = join(work, 'early', 'cache');
    const keep = (src: string) => !/\.(md|json|txt|xml|yaml)$/.test(src) && !src.includes('/pagefind');
    cpSync('dist', dist, { recursive: true, filter: (src) => keep(src) && !src.endsWith('.html') });
    // A page of an earlier build, still there when the build starts: not this build's, so not derived.
    writeFileSync(join(dist, 'earlier.html'), readFileSync('dist/pricing.html', 'utf8').replace('Pricing', 'Earlier'));
    utimesSync(join(dist, 'earlier.html'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const html = listFiles('dist').filter((f) => f.endsWith('.html') && keep(join('dist', f)));
    const started = Date.now();
    const early = startEarlyDerive(dist, cacheDir);
    const put = (file: string, body = readFileSync(join('dist', file), 'utf8')) => {
      mkdirSync(dirname(join(dist, file)), { recursive: true });
      writeFileSync(join(dist, file), body);
    };
    // A page read while half written (faq.html, listed right after about.html, which is derived first): not derived
    // until it is whole.
    const faq = readFileSync('dist/faq.html', 'utf8');
    put('faq.html', faq.slice(0, faq.length >> 1));
    put('about.html');
    // Written just after the start, its time read from the kernel's coarse clock can be a few ms before it: still this
    // build's.
    utimesSync(join(dist, 'about.html'), new Date(started - 5), new Date(started - 5));
    const cached = () => (existsSync(cacheDir) ? listFiles(cacheDir).length : 0);
    for (let waited = 0; !cached() && waited < 30_000; waited += 20) await sleep(20);
    await sleep(300);
    put('faq.html', faq);
    for (const [i, file] of html.entries()) {
      if (file === 'faq.html' || file === 'about.html') continue;
      put(file);
      if (i % 8 === 0) await sleep(20);
    }
    for (let waited = 0; cached() < html.length && waited < 30_000; waited += 100) await sleep(100);
    expect(await early.stop()).toBe(html.length);
    const entries = listFiles(cacheDir);
    expect(entries.length).toBe(html.length);
    expect(entries.some((f) => readFileSync(join(cacheDir, f), 'utf8').includes('Earlier'))).toBe(false);
    rmSync(join(dist, 'earlier.html'));
    // The derive step reads every page back from the cache and writes the same bytes as without it.
    await deriveSite({
      distDir: dist,
      dataDir: join(work, 'early', 'data'),
      origin: ORIGIN,
      pagefind: false,
      cacheDir,
    });
    expectSameOutput(reference, { dist, data: join(work, 'early', 'data') });
    expect(listFiles(cacheDir)).toEqual(entries);
  });

  it("content.json's files are every file of dist but _astro/ and pagefind/ at its top, sorted", async () => {
    const dist = join(work, 'files', 'dist');
    cpSync('dist', dist, { recursive: true, filter: (src) => !src.includes('/pagefind') });
    // Only the top-level folders are left out: the same names deeper down, or a file so named, are static files.
    for (const file of ['pagefind/pagefind.js', 'guides/pagefind/note.txt', 'guides/_astro/x.css', 'docs/a/b/c.txt'])
      cpSync(join(dist, 'favicon.svg'), join(dist, file));
    writeFileSync(join(dist, 'pagefind.txt'), 'x');
    const data = join(work, 'files', 'data');
    await deriveSite({ distDir: dist, dataDir: data, origin: ORIGIN, pagefind: false, workers: 1 });
    const { files } = JSON.parse(readFileSync(join(data, 'content.json'), 'utf8')) as { files: string[] };
    const expected = listFiles(dist)
      .filter((f) => !f.startsWith('_astro/') && !f.startsWith('pagefind/'))
      .map((f) => `/${f}`)
      .sort();
    expect(files).toEqual(expected);
    expect(files).toEqual(
      expect.arrayContaining(['/guides/pagefind/note.txt', '/guides/_astro/x.css', '/docs/a/b/c.txt', '/pagefind.txt']),
    );
    expect(files).not.toContain('/pagefind/pagefind.js');
    expect(listFiles(dist).some((f) => f.startsWith('_astro/'))).toBe(true);
  });

  it('content.json written piece by piece is exactly JSON.stringify of the data', async () => {
    const { data } = await derived('json', 2);
    const text = readFileSync(join(data, 'content.json'), 'utf8');
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });
});

describe('derive step: Pagefind', () => {
  it('indexes the slices the page workers write as it would index the pages, and leaves no slice behind', async () => {
    const dist = join(work, 'pagefind', 'dist');
    cpSync('dist', dist, {
      recursive: true,
      filter: (src) => !/\.(md|json|txt|xml|yaml)$/.test(src) && !src.includes('/pagefind'),
    });
    const before = existsSync('/dev/shm') ? readdirSync('/dev/shm') : [];
    await deriveSite({ distDir: dist, dataDir: join(work, 'pagefind', 'data'), origin: ORIGIN, workers: 2 });
    if (existsSync('/dev/shm')) expect(readdirSync('/dev/shm').filter((f) => !before.includes(f))).toEqual([]);

    // Pagefind over the whole pages, as a site without the derive step would run it.
    const pagefind = await import('pagefind');
    const { index } = await pagefind.createIndex({});
    await index!.addDirectory({ path: dist, glob: '**/*.html' });
    const whole = join(work, 'pagefind', 'whole');
    await index!.writeFiles({ outputPath: whole });
    await pagefind.close();

    // The same pages, word counts, text and anchors (each fragment's name is the hash of its bytes).
    const fragments = listFiles(join(dist, 'pagefind', 'fragment'));
    expect(fragments.length).toBeGreaterThan(50);
    expect(fragments).toEqual(listFiles(join(whole, 'fragment')));
  });
});
