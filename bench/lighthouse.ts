/**
 * @module Page quality: Lighthouse (mobile profile, its default: emulated phone, simulated slow 4G and a
 * 4x slower CPU) on the home page, pricing and a blog post, served by the local server over the current
 * build, in Debian's chromium. Prints the four category scores per page and what the home page's HTML,
 * CSS and JavaScript weigh on the wire, and writes everything to bench/results/lighthouse.json.
 *
 *   npm run bench:lighthouse            # one run per page
 *   LH_RUNS=3 npm run bench:lighthouse  # three runs per page; the median run (by performance) is kept
 *   LH_PAGES=/faq,/demo npm run bench:lighthouse   # other pages
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium. Needs a build (`npx astro build`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer, PROJECT_ROOT } from '../server/main.ts';
import { createDeps } from '../src/adapters/composition-root.ts';
import { createMemoryStore } from '../src/adapters/memory-store/index.ts';

/** LH_PAGES=/faq,/demo audits other pages (comma-separated paths). */
const PAGES = process.env.LH_PAGES?.split(',').filter(Boolean) ?? ['/', '/pricing', '/blog/planning-for-peak-season'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;
const RUNS = Math.max(1, Number(process.env.LH_RUNS) || 1);
const OUT = join(dirname(fileURLToPath(import.meta.url)), 'results', 'lighthouse.json');

type Category = (typeof CATEGORIES)[number];

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  mimeType?: string;
}

interface PageResult {
  path: string;
  url: string;
  scores: Record<Category, number | null>;
  metrics: Record<string, string | undefined>;
  /** Audits that lost points, by category: what to look at when a score is under 100. */
  failing: {
    category: Category;
    id: string;
    title: string;
    score: number | null;
    weight: number;
    displayValue?: string;
  }[];
  network: NetworkItem[];
  runs: number[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const pct = (score: number | null | undefined) =>
  score === null || score === undefined ? '  n/a' : String(Math.round(score * 100)).padStart(5);

async function audit(url: string, port: number): Promise<Omit<PageResult, 'path' | 'runs'> & { perf: number }> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError)
    throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? null])) as Record<
    Category,
    number | null
  >;
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([id, short]) => [short, lhr.audits[id]?.displayValue]),
  );
  const failing: PageResult['failing'] = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (
        !a ||
        a.score === null ||
        a.score >= 1 ||
        a.scoreDisplayMode === 'informative' ||
        a.scoreDisplayMode === 'notApplicable' ||
        a.scoreDisplayMode === 'manual'
      )
        continue;
      if (c !== 'performance' && ref.weight === 0) continue;
      failing.push({
        category: c,
        id: a.id,
        title: a.title,
        score: a.score,
        weight: ref.weight,
        displayValue: a.displayValue,
      });
    }
  }
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  const network = (details?.items ?? []).map(({ url: u, resourceType, transferSize, resourceSize, mimeType }) => ({
    url: u,
    resourceType,
    transferSize,
    resourceSize,
    mimeType,
  }));
  return { url, scores, metrics, failing, network, perf: scores.performance ?? 0 };
}

/** HTML, CSS and JavaScript of a page as transferred (and as decoded), images and the rest left out. */
function weight(network: NetworkItem[]) {
  const kinds = { html: ['Document'], css: ['Stylesheet'], js: ['Script'] } as const;
  const sum = (types: readonly string[], key: 'transferSize' | 'resourceSize') =>
    network.filter((n) => types.includes(n.resourceType ?? '')).reduce((s, n) => s + (n[key] ?? 0), 0);
  const out = Object.fromEntries(Object.entries(kinds).map(([k, t]) => [k, sum(t, 'transferSize')])) as Record<
    keyof typeof kinds,
    number
  >;
  const all = [...kinds.html, ...kinds.css, ...kinds.js];
  return {
    ...out,
    total: sum(all, 'transferSize'),
    decoded: sum(all, 'resourceSize'),
    files: network
      .filter((n) => all.includes(n.resourceType as never))
      .map((n) => ({ url: n.url, type: n.resourceType, transferSize: n.transferSize })),
  };
}

async function main(): Promise<void> {
  // The local server over the current build, with a store and lead file of its own (Lighthouse sends no leads).
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore(),
    sink: { name: 'none', deliver: async () => {} },
    log: () => {},
  });
  const server = await startServer({ host: '127.0.0.1', port: 0, root: PROJECT_ROOT, deps, log: () => {} });
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    logLevel: 'silent',
  });
  const results: PageResult[] = [];
  try {
    for (const path of PAGES) {
      const runs: Awaited<ReturnType<typeof audit>>[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(server.url + path, chrome.port));
      const sorted = [...runs].sort((a, b) => a.perf - b.perf);
      const { perf: _perf, ...median } = sorted[Math.floor((sorted.length - 1) / 2)]!;
      results.push({ path, ...median, runs: runs.map((r) => Math.round(r.perf * 100)) });
      process.stderr.write(`audited ${path}\n`);
    }
  } finally {
    await chrome.kill();
    await server.close();
  }

  // The weight on the wire is the home page's (or the first page's, when LH_PAGES leaves the home page out).
  const weighed = results.find((r) => r.path === '/') ?? results[0]!;
  const home = weight(weighed.network);
  const rows = results.map(
    (r) => `${r.path.padEnd(34)}${CATEGORIES.map((c) => pct(r.scores[c]).padStart(c.length + 2)).join('')}`,
  );
  console.log(
    `\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs by performance) ` : ''}— mobile profile, Debian chromium, local server\n`,
  );
  console.log(`${'page'.padEnd(34)}${CATEGORIES.map((c) => c.padStart(c.length + 2)).join('')}`);
  for (const row of rows) console.log(row);
  console.log(
    `\n${'page'.padEnd(34)}${Object.values(METRICS)
      .map((m) => m.padStart(10))
      .join('')}`,
  );
  for (const r of results)
    console.log(
      `${r.path.padEnd(34)}${Object.values(METRICS)
        .map((m) => (r.metrics[m] ?? '-').replace(/\u00a0/g, ' ').padStart(10))
        .join('')}`,
    );
  const label = weighed.path === '/' ? 'home page' : weighed.path;
  console.log(
    `\n${label} HTML+CSS+JS transferred: ${kb(home.total)} (HTML ${kb(home.html)}, CSS ${kb(home.css)}, JS ${kb(home.js)}; ${kb(home.decoded)} decoded)`,
  );
  const lost = results.flatMap((r) =>
    r.failing.map(
      (f) =>
        `  ${r.path} ${f.category}: ${f.id} (${f.title})${f.displayValue ? ` ${f.displayValue}` : ''}, audit score ${pct(f.score).trim()}${f.weight ? '' : ', no weight in the category score'}`,
    ),
  );
  if (lost.length) console.log(`\naudits under 100 (a metric's own score, or a diagnostic):\n${lost.join('\n')}`);

  await mkdir(dirname(OUT), { recursive: true });
  await writeFile(
    OUT,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        profile: 'mobile (Lighthouse default: simulated throttling)',
        runsPerPage: RUNS,
        pages: results.map(({ network: _n, ...r }) => ({
          ...r,
          scores: Object.fromEntries(
            CATEGORIES.map((c) => [c, r.scores[c] === null ? null : Math.round(r.scores[c]! * 100)]),
          ),
        })),
        homeBytes: { limit: 100 * 1024, ...home },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwritten: ${OUT}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
