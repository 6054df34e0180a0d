/**
 * The pages' analytics in Chromium. A build of its own with ANALYTICS=vercel (what a build on Vercel gets), served
 * by the real local server, loads Vercel Web Analytics and Speed Insights from the site's own /_vercel/ paths
 * after the page has loaded, sets no cookie and asks no other host. Only Vercel's edge serves those two scripts,
 * so the test answers them: Speed Insights with an empty script, Web Analytics with a stand-in that does what
 * Vercel's does with the page's calls (takes the queue, applies `beforeSend`, posts each page view and event to
 * /_vercel/insights/). Every event is checked against an allow-list written here (a field is named by one of the
 * form's own field names, never by its value), and each step of the funnel (the demo and enquiry forms, the chat,
 * site search) sends its event once, with no typed text in any of them.
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
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { FIELDS } from '../../src/components/lead-form.ts';
import {
  actAs,
  clientFor,
  FULL_BOOKING,
  fillLeadForm,
  leadLines,
  openLeadForm,
  startRecordingNowhereServer,
} from './helpers.ts';

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

/** The allow-list: each event's properties and the values each may take. */
const FORMS = ['demo', 'enquiry'];
const INTENTS = ['demo', 'contact', 'callback', 'message'];
const oneOf = (values: readonly unknown[]) => (v: unknown) => values.includes(v);
const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= FIELDS.length;
const token = (v: unknown) => typeof v === 'string' && /^[a-z0-9][a-z0-9+_-]{0,31}$/.test(v);
const ALLOWED: Record<string, Record<string, (v: unknown) => boolean>> = {
  form_viewed: { form: oneOf(FORMS) },
  form_submitted: { form: oneOf(FORMS) },
  form_refused: { form: oneOf(FORMS), field: oneOf(FIELDS), problems: count },
  form_failed: { form: oneOf(FORMS), status: oneOf([0, 400, 429, 500, 502, 503, 504]) },
  chat_opened: {},
  chat_answered: {},
  chat_unanswered: { reason: token },
  chat_handed_off: { intent: oneOf(INTENTS), answered: oneOf([true, false]) },
  handoff_submitted: { intent: oneOf(INTENTS) },
  search_run: { results: oneOf(['0', '1-3', '4+']) },
};

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

/** Every event allowed, with allowed values only, and the page's address without query or fragment. */
function expectAllowed(events: Sent[]): void {
  for (const e of events) {
    const allowed = ALLOWED[e.name ?? ''];
    expect(allowed, `event ${e.name}`).toBeDefined();
    for (const [k, v] of Object.entries(e.data ?? {})) {
      expect(Object.keys(allowed!), `${e.name}: property ${k}`).toContain(k);
      expect(allowed![k]!(v), `${e.name}.${k} = ${JSON.stringify(v)}`).toBe(true);
    }
    expect(e.url, `${e.name}: page address`).not.toMatch(/[?#]/);
  }
}

/** None of `typed` (what the visitor typed) is in anything sent, whatever its case. */
function expectNoneOf(seen: Observed, typed: string[]): void {
  const sent = JSON.stringify([...seen.events, ...seen.views]).toLowerCase();
  for (const t of typed) expect(sent, `sent nothing with "${t}"`).not.toContain(t.toLowerCase());
}

/** The events sent so far, as `name {props}` lines, once `n` have arrived. */
async function eventsAfter(seen: Observed, n: number): Promise<string[]> {
  await expect.poll(() => seen.events.length, { message: `${n} events` }).toBeGreaterThanOrEqual(n);
  return seen.events.map((e) => `${e.name} ${JSON.stringify(e.data)}`);
}

/** Waits until the page has loaded and the browser has been idle twice: the analytics load in that window. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((ok) => requestIdleCallback(() => ok(null), { timeout: 3000 }));
  });
}

let server: RunningServer;
let down: RunningServer;
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
  down = await startRecordingNowhereServer(DIST);
});

test.afterAll(async () => {
  await server?.close();
  await down?.close();
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

test('the demo form: viewed, refused by its first problem field, submitted; each once, nothing typed', async ({
  context,
  page,
}) => {
  const seen = await observe(context, page);
  await openLeadForm(page, `${server.url}/demo`);
  await page.locator('#lead-form').scrollIntoViewIfNeeded();
  expect(await eventsAfter(seen, 1)).toEqual(['form_viewed {"form":"demo"}']);

  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('.error-summary')).toBeVisible();
  expect(await eventsAfter(seen, 2)).toEqual([
    'form_viewed {"form":"demo"}',
    'form_refused {"form":"demo","field":"name","problems":2}',
  ]);

  const before = (await leadLines(join(varDir, 'kartage.db'))).length;
  await fillLeadForm(page, FULL_BOOKING);
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('#lead-form-status')).toHaveAttribute('data-state', 'success');
  expect(await leadLines(join(varDir, 'kartage.db'))).toHaveLength(before + 1);
  expect(await eventsAfter(seen, 3)).toEqual([
    'form_viewed {"form":"demo"}',
    'form_refused {"form":"demo","field":"name","problems":2}',
    'form_submitted {"form":"demo"}',
  ]);
  await settled(page);
  expect(seen.events).toHaveLength(3);
  expectAllowed(seen.events);
  expectNoneOf(seen, ['Priya', 'Raman', 'coastwide', '555 0142', 'Auckland', 'customs', 'International']);
});

test('the enquiry form: a 429 and a 502 are failures with their status, once each', async ({
  context,
  page,
  request,
}, info) => {
  const client = clientFor(info);
  for (let i = 1; i <= 5; i++) {
    const r = await request.post(`${server.url}/api/lead`, {
      headers: { 'X-Forwarded-For': client },
      data: { name: `Budget Filler ${i}`, email: `filler${i}@example.com`, intent: 'enquiry' },
    });
    expect(r.status(), `lead ${i} of 5`).toBe(200);
  }
  const seen = await observe(context, page);
  const typed = { name: 'Sam Taylor', email: 'sam@harbourline.example', message: 'Sixth one, from Harbourline.' };
  for (const [origin, status] of [
    [server.url, 429],
    [down.url, 502],
  ] as const) {
    const n = seen.events.length;
    await openLeadForm(page, `${origin}/contact`);
    await fillLeadForm(page, typed);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/lead');
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    expect((await answered).status()).toBe(status);
    expect((await eventsAfter(seen, n + 2)).slice(n)).toEqual([
      'form_viewed {"form":"enquiry"}',
      `form_failed {"form":"enquiry","status":${status}}`,
    ]);
  }
  await settled(page);
  expect(seen.events).toHaveLength(4);
  expectAllowed(seen.events);
  expectNoneOf(seen, ['Taylor', 'harbourline', 'Sixth']);
});

test('the chat: opened; each question answered or unanswered, handed off with its intent; the handoff form sent', async ({
  context,
  page,
}) => {
  const seen = await observe(context, page);
  await page.goto(`${server.url}/pricing`);
  await page.getByRole('button', { name: 'Ask Kartage' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask Kartage' });
  await expect(dialog).toBeVisible();
  const lines = ['chat_opened {}'];
  expect(await eventsAfter(seen, 1)).toEqual(lines);

  const questions = ['is there a free trial?', 'what is the capital of france?', "I'd like to book a demo"];
  for (const question of questions) {
    await dialog.getByLabel('Your question').fill(question);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/ask');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    const body = (await (await answered).json()) as {
      answered: boolean;
      reason: string;
      handoff: { intent: string } | null;
    };
    lines.push(body.answered ? 'chat_answered {}' : `chat_unanswered {"reason":"${body.reason}"}`);
    if (body.handoff) lines.push(`chat_handed_off {"intent":"${body.handoff.intent}","answered":${body.answered}}`);
    expect(await eventsAfter(seen, lines.length), question).toEqual(lines);
  }
  // The three kinds were seen: answered, unanswered, and a handoff to a demo.
  expect(lines).toEqual(
    expect.arrayContaining([
      'chat_answered {}',
      expect.stringMatching(/^chat_unanswered /),
      expect.stringMatching(/"intent":"demo"/),
    ]),
  );

  const turn = dialog.locator('.chat-turn').last();
  await turn.getByRole('button', { name: 'Book a demo' }).click();
  const form = dialog.getByRole('form', { name: 'Book a demo' });
  await form.getByLabel('Name').fill('Priya Raman');
  await form.getByLabel('Work email').fill('priya.raman@coastwide-relocations.example');
  await form.getByRole('button', { name: 'Request my demo' }).click();
  await expect(form.getByRole('status')).toContainText('Thank you, Priya.');
  lines.push('handoff_submitted {"intent":"demo"}');
  expect(await eventsAfter(seen, lines.length)).toEqual(lines);

  await settled(page);
  expect(seen.events).toHaveLength(lines.length);
  expectAllowed(seen.events);
  expectNoneOf(seen, ['trial', 'capital', 'france', 'book a demo', 'Priya', 'coastwide']);
});

test('site search: one event per search, its results bucketed; the query is in no address or referrer sent', async ({
  context,
  page,
}) => {
  const seen = await observe(context, page);
  await page.goto(`${server.url}/search?q=pricing`);
  const status = page.locator('#search-status');
  await expect(status).toContainText('10 results for “pricing”');
  expect(await eventsAfter(seen, 1)).toEqual(['search_run {"results":"4+"}']);
  for (const [query, results, bucket] of [
    ['pets', '1 result', '1-3'],
    ['zzqxv', 'No page holds every word', '0'],
  ] as const) {
    const n = seen.events.length;
    await page.getByLabel('Search terms').fill(query);
    await expect(status).toContainText(results);
    expect((await eventsAfter(seen, n + 1)).slice(n)).toEqual([`search_run {"results":"${bucket}"}`]);
  }
  await expect.poll(() => seen.views.length).toBe(1);
  expect(seen.views[0]!.url).toBe(`${server.url}/search`);

  // A page opened from the results names the search page without its query as referrer.
  await page.getByLabel('Search terms').fill('pets');
  await expect(status).toContainText('1 result for “pets”');
  await page.locator('#search-results a').first().click();
  await expect.poll(() => seen.views.length).toBe(2);
  expect(seen.views[1]!.referrer).toBe(`${server.url}/`);
  expect(seen.events).toHaveLength(4);
  expectAllowed(seen.events);
  for (const view of seen.views) expect(view.url).not.toMatch(/[?#]/);
  expectNoneOf(seen, ['zzqxv', 'q=']);
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
    await openLeadForm(page, `${server.url}/demo`);
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
  // A page without a form or the chat open fetches no analytics code at all: the same scripts as before them.
  await page.goto('/pricing');
  await settled(page);
  const scripts = seen.urls.filter((u) => u.endsWith('.js')).map((u) => new URL(u).pathname);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s).not.toMatch(/BaseLayout|track\.|vercel-insights/);

  const res = await openLeadForm(page, '/demo');
  expect(await res!.text()).not.toContain('kartage:analytics');
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('.error-summary')).toBeVisible();
  await page.getByRole('button', { name: 'Ask Kartage' }).click();
  await expect(page.getByRole('dialog', { name: 'Ask Kartage' })).toBeVisible();
  await settled(page);
  expect(seen.urls.filter((u) => /\/_vercel\/|\/vercel-insights\./.test(u))).toEqual([]);
  expect([...seen.events, ...seen.views]).toEqual([]);
});
