/**
 * The pages' analytics in Chromium. A build of its own with ANALYTICS=vercel (what a build on Vercel gets), served
 * by the real local server, loads Vercel Web Analytics and Speed Insights from the site's own /_vercel/ paths
 * after the page has loaded, sets no cookie and asks no other host. Only Vercel's edge serves those two scripts,
 * so the test answers them: Speed Insights with an empty script, Web Analytics with a stand-in that does what
 * Vercel's does with the page's calls (takes the queue, applies `beforeSend`, posts each page view and event to
 * /_vercel/insights/). Every event is checked against an allow-list written here, and each step of the funnel
 * (the demo and enquiry forms, the chat, site search) sends its event once, with no typed text in any of them.
 * Under Global Privacy Control or Do Not Track, and in the local build (the server Playwright starts), nothing is
 * loaded and nothing is sent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { PROJECT_ROOT, type RunningServer, startServer } from '../../server/main.ts';
import { createDeps } from '../../src/adapters/deps.ts';
import { createMemoryStore } from '../../src/adapters/memory-store.ts';
import { actAs, clientFor } from './helpers.ts';

/** The build with analytics, beside Playwright's other output. */
const DIST = resolve(import.meta.dirname, '../../test-results/analytics-dist');
const INSIGHTS = '/_vercel/insights/script.js';
const SPEED_INSIGHTS = '/_vercel/speed-insights/script.js';

/**
 * A stand-in for Vercel's /_vercel/insights/script.js: takes the calls queued in `window.vaq` and later ones
 * through `window.va`, applies `beforeSend` to each, counts the page view, and posts page views to
 * /_vercel/insights/view and events to /_vercel/insights/event (with the referrer, as Vercel's reports it).
 */
const INSIGHTS_STAND_IN = `(() => {
  let beforeSend = (e) => e;
  const post = (kind, body) =>
    fetch('/_vercel/insights/' + kind, { method: 'POST', body: JSON.stringify(body), keepalive: true });
  const handle = ([command, arg]) => {
    if (command === 'beforeSend') return void (beforeSend = arg);
    if (command !== 'event' && command !== 'pageview') return;
    const e = beforeSend({ type: command, url: location.href });
    if (!e) return;
    const base = { url: e.url, referrer: document.referrer };
    if (command === 'event') post('event', { ...base, name: arg.name, data: arg.data ?? {} });
    else post('view', base);
  };
  const queued = window.vaq ?? [];
  window.va = (...params) => handle(params);
  for (const call of queued) handle(call);
  handle(['pageview']);
})();`;

interface Sent {
  url: string;
  referrer: string;
  name?: string;
  data?: Record<string, unknown>;
}

/** What a page sent and fetched: events, page views, and every URL it asked for. */
interface Observed {
  events: Sent[];
  views: Sent[];
  urls: string[];
}

/** Answers the two Vercel scripts (see above) and records what the page sends to /_vercel/insights/. */
async function observe(context: BrowserContext, page: Page): Promise<Observed> {
  const seen: Observed = { events: [], views: [], urls: [] };
  page.on('request', (r) => seen.urls.push(r.url()));
  await context.route(`**${INSIGHTS}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: INSIGHTS_STAND_IN }),
  );
  await context.route(`**${SPEED_INSIGHTS}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '/* Speed Insights stand-in: measures nothing */' }),
  );
  await context.route('**/_vercel/insights/{event,view}', async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as Sent;
    (route.request().url().endsWith('/event') ? seen.events : seen.views).push(body);
    await route.fulfill({ status: 204 });
  });
  return seen;
}

/** Waits until the page has loaded and the browser has been idle twice: the analytics load in that window. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((ok) => requestIdleCallback(() => ok(null), { timeout: 3000 }));
  });
}

let server: RunningServer;
let varDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // The Astro build alone (the derive step writes the shared build/ data; the server reads it from there).
  await promisify(execFile)(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', DIST],
    { cwd: PROJECT_ROOT, env: { ...process.env, ANALYTICS: 'vercel', KARTAGE_SKIP_DERIVE: '1' } },
  );
  varDir = mkdtempSync(join(tmpdir(), 'kartage-analytics-'));
  const deps = createDeps({
    env: { LEAD_SINK: 'file', KARTAGE_VAR_DIR: varDir },
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore(),
    log: () => {},
  });
  server = await startServer({ port: 0, root: PROJECT_ROOT, distDir: DIST, trustProxy: true, deps, log: () => {} });
});

test.afterAll(async () => {
  await server?.close();
  if (varDir) rmSync(varDir, { recursive: true, force: true });
});

test.beforeEach(async ({ page }, info) => {
  await actAs(page, clientFor(info));
});

test('a page loads both Vercel scripts from /_vercel/ after it has loaded, sets no cookie and asks no other host', async ({
  context,
  page,
}) => {
  const seen = await observe(context, page);
  await page.goto(`${server.url}/pricing`);
  await expect.poll(() => seen.views.length).toBe(1);
  await settled(page);
  const paths = seen.urls.map((u) => new URL(u).pathname);
  expect(paths.filter((p) => p === INSIGHTS)).toHaveLength(1);
  expect(paths.filter((p) => p === SPEED_INSIGHTS)).toHaveLength(1);
  expect(seen.views[0]!.url).toBe(`${server.url}/pricing`);

  // Nothing of the analytics starts before the page's load event has finished.
  const order = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const late = performance
      .getEntriesByType('resource')
      .filter((r) => /\/_vercel\/|\/vercel-insights\./.test(r.name))
      .map((r) => ({ name: r.name, start: r.startTime }));
    return { loaded: nav.loadEventEnd, late };
  });
  expect(order.late.map((r) => new URL(r.name).pathname).sort()).toEqual(
    expect.arrayContaining([INSIGHTS, SPEED_INSIGHTS, expect.stringMatching(/^\/_astro\/vercel-insights\./)]),
  );
  for (const r of order.late) expect(r.start, r.name).toBeGreaterThanOrEqual(order.loaded);

  expect(await context.cookies()).toEqual([]);
  for (const url of seen.urls) expect(new URL(url).origin, url).toBe(server.url);
});

for (const [signal, script] of [
  ['Global Privacy Control', "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })"],
  ['Do Not Track', "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })"],
] as const) {
  test(`under ${signal} nothing is loaded and no event is sent, and the forms and the chat still work`, async ({
    context,
    page,
  }) => {
    await context.addInitScript(script);
    const seen = await observe(context, page);
    await page.goto(`${server.url}/demo`);
    await page.getByRole('button', { name: 'Request my demo' }).click();
    await expect(page.locator('.error-summary')).toBeVisible();
    await page.getByRole('button', { name: 'Ask Kartage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask Kartage' });
    await dialog.getByLabel('Your question').fill('is there a free trial?');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog.locator('.chat-a[data-answered="true"]')).toBeVisible();
    await settled(page);
    expect(seen.urls.filter((u) => /\/_vercel\/|\/vercel-insights\./.test(u))).toEqual([]);
    expect([...seen.events, ...seen.views]).toEqual([]);
  });
}

test('the local build (analytics off) names no analytics, loads no Vercel script and sends nothing', async ({
  context,
  page,
}) => {
  const seen = await observe(context, page);
  const res = await page.goto('/demo');
  expect(await res!.text()).not.toContain('kartage:analytics');
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('.error-summary')).toBeVisible();
  await page.getByRole('button', { name: 'Ask Kartage' }).click();
  await expect(page.getByRole('dialog', { name: 'Ask Kartage' })).toBeVisible();
  await settled(page);
  expect(seen.urls.filter((u) => /\/_vercel\/|\/vercel-insights\./.test(u))).toEqual([]);
  expect([...seen.events, ...seen.views]).toEqual([]);
});
