/**
 * The architecture: no import cycle anywhere in the service's code; every import goes down the layer order of
 * src/layers.json, and every file is in a layer; the docs that draw the layers draw that file as written; and
 * the domain (src/core) speaks no HTTP: no status, no header name, no request or response object, no HTTP or
 * platform package. Static and dynamic imports, type-only imports too (a type import still couples two modules).
 * Fails with the offending chain or file:line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** A layer of src/layers.json: its name, the paths it holds (a folder ends with `/`), what it holds. */
interface Layer {
  name: string;
  paths: string[];
  holds: string;
}

/** The layers, top first (src/layers.json). */
const LAYERS = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'src/layers.json'), 'utf8')) as { layers: Layer[] }).layers;

/** Where a doc draws the layers: the code block after this sentence. */
const LAYERS_INTRO = 'Layers, each importing only from those below it';

/** The layers as the docs draw them: one line each, the name padded to a column, then its paths. */
function drawLayers(layers: readonly Layer[]): string {
  const width = Math.max(...layers.map((l) => l.name.length)) + 2;
  return layers.map((l) => `${l.name.padEnd(width)}${l.paths.join(' ')}`).join('\n');
}

/** The code block after LAYERS_INTRO in `text`, or undefined when the text draws no layers. */
function drawnLayers(text: string): string | undefined {
  const at = text.indexOf(LAYERS_INTRO);
  if (at < 0) return undefined;
  const open = text.indexOf('```', at);
  const start = text.indexOf('\n', open) + 1;
  return text.slice(start, text.indexOf('```', start)).trimEnd();
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

  it('imports only down the layer order of src/layers.json, and every file is in a layer', () => {
    const layers = LAYERS;
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

describe('the layers as the docs draw them', () => {
  it('every doc that draws the layers draws src/layers.json as written, and the README does', () => {
    const docs = [
      'README.md',
      ...(existsSync(join(PROJECT_ROOT, 'docs')) ? readdirSync(join(PROJECT_ROOT, 'docs')) : [])
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const drawn = docs.flatMap((f) => {
      const block = drawnLayers(readFileSync(join(PROJECT_ROOT, f), 'utf8'));
      return block === undefined ? [] : [{ f, block }];
    });
    expect(drawn.map((d) => d.f)).toContain('README.md');
    for (const { f, block } of drawn)
      expect(block, `${f}: draw the layers of src/layers.json`).toBe(drawLayers(LAYERS));
  });

  it('names each layer once and every path once', () => {
    const names = LAYERS.map((l) => l.name);
    const paths = LAYERS.flatMap((l) => l.paths);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(paths).size).toBe(paths.length);
    for (const l of LAYERS) expect(l.holds, l.name).not.toBe('');
  });
});

/** What src/core may not say: HTTP is the pipeline's (src/http), never the domain's. */
const HTTP_IN_CORE: readonly { what: string; pattern: RegExp }[] = [
  // The acceptance check: `grep -rE "status: *[45][0-9]{2}|'(RateLimit-|Retry-After|Accept|Vary)" src/core`.
  { what: 'an HTTP status or header', pattern: /status: *[45][0-9]{2}|'(RateLimit-|Retry-After|Accept|Vary)/ },
  {
    what: 'an HTTP status',
    pattern: /\b(status|error|refuse|answer)\w*\(\s*[45][0-9]{2}\b|status: [^,}]*\b[45][0-9]{2}\b/,
  },
  {
    what: 'an HTTP header name',
    pattern:
      /['"](Accept(-[A-Za-z]+)*|Vary|Link|Location|ETag|Allow|Cache-Control|Content-(Type|Length|Signal)|User-Agent|Retry-After|RateLimit(-[A-Za-z]+)*|Deprecation|Sunset|Access-Control-[A-Za-z-]+|If-None-Match|Idempotency-Replayed|[Xx]-[A-Za-z-]+|accept|content-type|user-agent|x-forwarded-for)['"]/,
  },
  { what: 'an HTTP header', pattern: /^\s*(Deprecation|Sunset|Link|Vary|Location|ETag|Allow)\s*:/ },
  {
    what: 'a request or response object',
    pattern: /\bnew (Response|Request|Headers)\b|\.headers\.(get|set)\(|: (Request|Response)\b/,
  },
  {
    what: 'an HTTP or platform package',
    pattern: /from ['"](node:(http|https|http2|net)|@vercel\/|@upstash\/|@modelcontextprotocol\/|astro|hono|undici)/,
  },
];

describe('the domain speaks no HTTP', () => {
  const core = sources().filter((f) => rel(f).startsWith('src/core/'));

  it('no src/core file names an HTTP status or header, builds a request or response, or imports HTTP', () => {
    const found: string[] = [];
    for (const f of core) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const { what, pattern } of HTTP_IN_CORE)
            if (pattern.test(line)) found.push(`${rel(f)}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the check finds each kind of HTTP it forbids', () => {
    const caught = (line: string) => HTTP_IN_CORE.filter(({ pattern }) => pattern.test(line)).map((c) => c.what);
    expect(caught('return { status: 422, body };')).toContain('an HTTP status or header');
    expect(caught("headers: { 'Retry-After': '5' }")).toContain('an HTTP status or header');
    expect(caught("{ Vary: 'Accept' }")).toContain('an HTTP status or header');
    expect(caught("request.headers.get('x-real-ip')")).toEqual(
      expect.arrayContaining(['an HTTP header name', 'a request or response object']),
    );
    expect(caught("'Content-Type': 'text/markdown'")).toContain('an HTTP header name');
    expect(caught('return new Response(null);')).toContain('a request or response object');
    expect(caught("import { waitUntil } from '@vercel/functions';")).toContain('an HTTP or platform package');
    expect(caught('return error(400, NOT_AN_OBJECT);')).toContain('an HTTP status');
    expect(caught('return { status: problems.length ? 422 : 200, body };')).toContain('an HTTP status');
    expect(caught('    Sunset: new Date(d.sunset).toUTCString(),')).toContain('an HTTP header');
    expect(caught("return { kind: 'not-an-object', message };")).toEqual([]);
  });
});
