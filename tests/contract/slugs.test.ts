/**
 * src/contract/slugs.ts: each conversion on its own (edge cases: `index`, nested slugs, trailing and double
 * slashes, extensions, upper case; paths arrive decoded, so an escape is just characters), then round trips
 * over every page of the real build (build/content.json and dist/; `npm test` builds first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SlugSchema } from '../../src/contract/schemas.ts';
import { DATA_DIR } from '../../src/config.ts';
import { CONTENT_FILE, type ContentData } from '../../src/core/content.ts';
import {
  ancestorsOf,
  folderOf,
  HOME_SLUG,
  htmlFileOfSlug,
  isPageSlug,
  isReservedSlug,
  isSlug,
  isUnder,
  leafOf,
  pageJsonPathOfSlug,
  pathOfSlug,
  RESERVED_SLUGS,
  routeParamOfSlug,
  sectionOf,
  sitePathOfPageUrl,
  slugOfEntry,
  slugOfHtmlFile,
  slugOfPath,
  slugOfTwinPath,
  twinPathOfSlug,
  twinUrlOfSlug,
  urlOfSlug,
} from '../../src/contract/slugs.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = join(ROOT, 'dist');
const ORIGIN = 'https://kartage.com.au';

describe('site paths', () => {
  it('maps / to index and every other page path to its slug', () => {
    const cases = { '/': 'index', '/pricing': 'pricing', '/a/b/c': 'a/b/c' };
    for (const [path, slug] of Object.entries(cases)) expect(slugOfPath(path), path).toBe(slug);
    expect(slugOfPath('/blog/planning-for-peak-season')).toBe('blog/planning-for-peak-season');
    // The home page's file name is answered too, and names the home page.
    expect(slugOfPath('/index')).toBe(HOME_SLUG);
  });

  it('names no slug for what is not a page path', () => {
    for (const p of [
      '',
      'pricing',
      '/pricing/',
      '/blog/',
      '//pricing',
      '/blog//x',
      '/Pricing',
      '/pricing.md',
      '/pricing.html',
      '/api/v1/pages/x.json',
      '/pricing?x=1',
      '/pricing#top',
      '/prïcing',
      '/pricing%2F',
      '/a b',
      '/pricing\n',
      '/./pricing',
      '/../pricing',
    ]) {
      expect(slugOfPath(p), JSON.stringify(p)).toBeUndefined();
    }
  });

  it('takes paths already decoded: an escape is plain characters, never decoded here', () => {
    expect(slugOfPath('/%70ricing')).toBeUndefined();
    expect(slugOfPath(decodeURIComponent('/%70ricing'))).toBe('pricing');
  });

  it('gives the path of a slug, / for the home page', () => {
    expect(pathOfSlug('index')).toBe('/');
    expect(pathOfSlug('pricing')).toBe('/pricing');
    expect(pathOfSlug('customers/keystone-storage')).toBe('/customers/keystone-storage');
    expect(pathOfSlug('blog/index')).toBe('/blog/index');
  });

  it('gives the canonical URL on an origin', () => {
    expect(urlOfSlug(ORIGIN, 'index')).toBe(`${ORIGIN}/`);
    expect(urlOfSlug(ORIGIN, 'blog/x')).toBe(`${ORIGIN}/blog/x`);
    expect(urlOfSlug('http://localhost:4500', 'pricing')).toBe('http://localhost:4500/pricing');
  });

  it('gives the site path of a page from the URL it renders at', () => {
    const cases = { '/pricing': '/pricing', '/pricing.html': '/pricing', '/index.html': '/', '/index': '/' };
    const more = { '/': '/', '': '/', '/blog/x.html': '/blog/x', '/404': '/404' };
    for (const [url, path] of Object.entries({ ...cases, ...more })) expect(sitePathOfPageUrl(url), url).toBe(path);
  });
});

describe('the markdown twin and the getPage file', () => {
  it('puts .md after the slug, the home page included', () => {
    for (const slug of ['pricing', 'index', 'blog/x']) expect(twinPathOfSlug(slug)).toBe(`/${slug}.md`);
    expect(twinUrlOfSlug(ORIGIN, 'index')).toBe(`${ORIGIN}/index.md`);
  });

  it('reads the slug back from a twin path, and nothing else', () => {
    for (const slug of ['pricing', 'index', 'blog/x']) expect(slugOfTwinPath(`/${slug}.md`)).toBe(slug);
    for (const p of [
      '/.md',
      '/pricing',
      '/pricing.md/',
      'pricing.md',
      '/blog/.md',
      '//x.md',
      '/x.md.md',
      '/X.md',
      '/pricing.MD',
      '/sitemap.md.html',
    ]) {
      expect(slugOfTwinPath(p), p).toBeUndefined();
    }
  });

  it('names the static JSON behind getPage', () => {
    for (const slug of ['pricing', 'index', 'blog/x']) {
      expect(pageJsonPathOfSlug(slug)).toBe(`/api/v1/pages/${slug}.json`);
    }
  });
});

describe('built HTML files (build.format: file)', () => {
  it('writes every page as <slug>.html, never <slug>/index.html', () => {
    for (const slug of ['index', 'pricing', 'blog/x']) expect(htmlFileOfSlug(slug)).toBe(`${slug}.html`);
    expect(readFileSync(join(ROOT, 'astro.config.mjs'), 'utf8')).toMatch(/build: \{ format: 'file' \}/);
  });

  it('reads the slug back from a file, with or without a leading slash', () => {
    expect(slugOfHtmlFile('index.html')).toBe('index');
    expect(slugOfHtmlFile('/pricing.html')).toBe('pricing');
    expect(slugOfHtmlFile('blog/x.html')).toBe('blog/x');
    for (const f of ['pricing', 'pricing.htm', 'pricing.md', '.html', 'blog/.html', 'Pricing.html', '_astro/a.html']) {
      expect(slugOfHtmlFile(f), f).toBeUndefined();
    }
  });
});

describe('content entries and route parameters', () => {
  it('gives a pages entry its id and a blog entry blog/<id>', () => {
    expect(slugOfEntry('pages', 'index')).toBe('index');
    expect(slugOfEntry('pages', 'customers/tasman-movers')).toBe('customers/tasman-movers');
    expect(slugOfEntry('blog', 'planning-for-peak-season')).toBe('blog/planning-for-peak-season');
  });

  it('gives the [...slug] parameter: none for the home page', () => {
    expect(routeParamOfSlug('index')).toBeUndefined();
    expect(routeParamOfSlug('blog/x')).toBe('blog/x');
  });
});

describe('what a slug is', () => {
  it('uses the contract pattern, and a page slug has no empty segment', () => {
    for (const s of ['index', 'blog/x', 'a-1/b-2', '/x', 'x/', 'a//b']) {
      expect(isSlug(s), s).toBe(SlugSchema.safeParse(s).success);
    }
    expect(['index', 'blog/x', 'a-1/b-2', '404'].every(isPageSlug)).toBe(true);
    expect(['', '/x', 'x/', 'a//b', 'A', 'a_b', 'a.b', 'a b', 'é'].some(isPageSlug)).toBe(false);
  });

  it('reserves batch', () => {
    expect(RESERVED_SLUGS).toEqual(['batch']);
    expect(isReservedSlug('batch')).toBe(true);
    expect(isReservedSlug('batch/x')).toBe(false);
    expect(isReservedSlug('pricing')).toBe(false);
  });
});

describe('folders', () => {
  it('gives the folder, the top-level section, the leaf and the ancestors of a slug', () => {
    // slug: [folder, section, leaf, ancestors]
    const cases: Record<string, [string, string, string, string[]]> = {
      'blog/x': ['blog', 'blog', 'x', ['blog']],
      'a/b/c': ['a/b', 'a', 'c', ['a', 'a/b']],
      pricing: ['', '', 'pricing', []],
      'customers/keystone-storage': ['customers', 'customers', 'keystone-storage', ['customers']],
    };
    for (const [slug, [folder, section, leaf, ancestors]] of Object.entries(cases)) {
      expect([folderOf(slug), sectionOf(slug), leafOf(slug), ancestorsOf(slug)], slug).toEqual([
        folder,
        section,
        leaf,
        ancestors,
      ]);
    }
  });

  it('tells what sits under a folder: not the folder itself, not a sibling sharing its prefix', () => {
    expect(isUnder('blog/x', 'blog')).toBe(true);
    expect(isUnder('blog/a/b', 'blog')).toBe(true);
    expect(isUnder('blog', 'blog')).toBe(false);
    expect(isUnder('blogs/x', 'blog')).toBe(false);
    expect(isUnder('blog-x', 'blog')).toBe(false);
    expect(isUnder('x', '')).toBe(false);
  });
});

describe('round trips over the real build', () => {
  const data = JSON.parse(readFileSync(join(ROOT, DATA_DIR, CONTENT_FILE), 'utf8')) as ContentData;
  const files = new Set(data.files);

  function* htmlFiles(dir: string): Generator<string> {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) yield* htmlFiles(path);
      else if (e.name.endsWith('.html')) yield relative(DIST, path).split(sep).join('/');
    }
  }

  it('has pages to check', () => {
    expect(data.pages.length).toBeGreaterThan(50);
  });

  it('every page: path, URL, twin, JSON file and HTML file name the same slug, and each file exists', () => {
    for (const { slug, url, markdown_url } of data.pages) {
      expect(isPageSlug(slug) && !isReservedSlug(slug), slug).toBe(true);
      expect(slugOfPath(pathOfSlug(slug)), slug).toBe(slug);
      expect(url, slug).toBe(urlOfSlug(data.origin, slug));
      expect(new URL(url).pathname, slug).toBe(pathOfSlug(slug));
      expect(markdown_url, slug).toBe(twinUrlOfSlug(data.origin, slug));
      expect(slugOfTwinPath(twinPathOfSlug(slug)), slug).toBe(slug);
      expect(slugOfHtmlFile(htmlFileOfSlug(slug)), slug).toBe(slug);
      expect(files.has(twinPathOfSlug(slug)), slug).toBe(true);
      expect(files.has(pageJsonPathOfSlug(slug)), slug).toBe(true);
      expect(existsSync(join(DIST, htmlFileOfSlug(slug))), slug).toBe(true);
      expect(sitePathOfPageUrl(`/${htmlFileOfSlug(slug)}`), slug).toBe(pathOfSlug(slug));
    }
  });

  it('every built HTML file of a content page is the file of the slug it declares', () => {
    const declared: string[] = [];
    for (const file of htmlFiles(DIST)) {
      const slug = readFileSync(join(DIST, file), 'utf8').match(/<meta name="kartage:slug" content="([^"]+)"/)?.[1];
      if (slug === undefined) continue;
      expect(slugOfHtmlFile(file), file).toBe(slug);
      declared.push(slug);
    }
    expect(declared.sort()).toEqual(data.pages.map((p) => p.slug));
  });

  it('every content entry is a page of the build, under the slug slugOfEntry gives it', () => {
    const entries: string[] = [];
    for (const collection of ['pages', 'blog'] as const) {
      const base = join(ROOT, 'content', collection);
      const walk = (dir: string) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(dir, e.name));
          else if (/\.mdx?$/.test(e.name)) {
            const id = relative(base, join(dir, e.name))
              .split(sep)
              .join('/')
              .replace(/\.mdx?$/, '');
            entries.push(slugOfEntry(collection, id));
          }
        }
      };
      walk(base);
    }
    expect(entries.sort()).toEqual(data.pages.map((p) => p.slug));
  });
});
