/**
 * The /search page as a visitor sees it, in Chromium: it lists what the search API answers (so the page and the
 * API agree), scores the judged query sets through the page itself, falls back to Pagefind when the API is
 * unreachable, and works without JavaScript. A question also goes to POST /api/v1/ask: the site's answer,
 * quoted, shows above the results with its sources (landing on their sections) and the handoff's button to the
 * chat; the results and the answer never wait for each other; a keyword query asks nothing, and a question the
 * site cannot answer adds nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request as PwRequest, type Route, test } from '@playwright/test';
import { evaluate, loadJudged } from '../helpers/search-metrics.ts';
import { actAs, clientFor } from './helpers.ts';

const isAsk = (r: PwRequest) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/ask';
/** The box above the results: a region named by its heading. */
const answerBox = (page: Page) => page.getByRole('region', { name: 'Answer quoted from this website' });
const UNANSWERABLE = 'What is the airspeed velocity of an unladen swallow?';

interface AskBody {
  answered: boolean;
  answer: string;
  sources: { url: string; role: string; heading: string | null; slug: string }[];
  handoff: { intent: string; label: string } | null;
}

/** Submits `q` on the page and reads the ask endpoint's answer to it. */
async function askOnPage(page: Page, q: string): Promise<AskBody> {
  const asked = page.waitForResponse((r) => isAsk(r.request()) && r.request().postDataJSON()?.question === q);
  await page.locator('#search-q').fill(q);
  await page.locator('#search-q').press('Enter');
  const res = await asked;
  expect(res.status()).toBe(200);
  return (await res.json()) as AskBody;
}

async function expectNoSeriousAxe(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

/** Types `q` into the page's search box, submits, and reads the result links (as slugs). */
async function searchOnPage(page: Page, q: string): Promise<string[]> {
  await page.locator('#search-q').fill(q);
  await page.locator('#search-q').press('Enter');
  await expect(page.locator('#search-status')).toContainText(`“${q.trim()}”`);
  const hrefs = await page
    .locator('#search-results li > a')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => h.replace(/^\//, '') || 'index');
}

test('the search page lists the API answer: titles, snippets, same-origin links, the query kept in the URL', async ({
  page,
  request,
}, info) => {
  await actAs(page, clientFor(info));
  await page.goto('/search?q=storage%20billing');
  const first = page.locator('#search-results li').first();
  await expect(first.locator('a')).toHaveAttribute('href', '/product/storage');
  await expect(first.locator('p')).toContainText(/storage/i);
  const api = await (
    await request.get('/api/v1/search?q=storage%20billing', { headers: { 'X-Forwarded-For': clientFor(info, 1) } })
  ).json();
  const slugs = await page.locator('#search-results li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(slugs).toEqual(api.results.map((r: { slug: string }) => `/${r.slug}`));
  await expectNoSeriousAxe(page);
  await searchOnPage(page, 'crew app');
  await expect(page).toHaveURL(/\/search\?q=crew\+app$/);
  await page.locator('#search-results li > a').first().click();
  await expect(page).toHaveURL(/\/product\/crew-app$/);
});

test('a question shows the answer quoted from the site above the results; its source lands on its section', async ({
  page,
}, info) => {
  await actAs(page, clientFor(info));
  await page.goto('/search');
  const body = await askOnPage(page, 'Is there a free trial?');
  expect(body.answered).toBe(true);
  const cited = body.sources.filter((s) => s.role === 'answer');
  expect(cited.length).toBeGreaterThan(0);
  // The section the answer is quoted from (the FAQ's, the pricing page's or the terms' trial section), and its anchor.
  const anchor = new URL(cited[0]!.url).hash.slice(1).split(':~:')[0]!;

  const box = answerBox(page);
  await expect(box).toBeVisible();
  await expect(box).toContainText(/30-day (free )?trial/);
  await expect(page.locator('#search-results li').first()).toBeVisible(); // the results are there too
  // Above the results, and announced once through its own polite live region.
  const [boxTop, listTop] = await Promise.all([box.boundingBox(), page.locator('#search-results').boundingBox()]);
  expect(boxTop!.y).toBeLessThan(listTop!.y);
  await expect(page.locator('#search-answer-status')).toContainText('Answer quoted from this website');
  await expect(page.locator('#search-answer-status')).toContainText(`${cited.length} source`);

  const links = box.getByRole('list', { name: /^Sources?$/ }).getByRole('link');
  await expect(links).toHaveCount(cited.length);
  const first = links.first();
  await expect(first).toContainText(cited[0]!.heading!);
  const expected = new URL(cited[0]!.url);
  const href = (await first.getAttribute('href'))!;
  expect(href).toBe(expected.pathname + expected.hash); // a path on this host, with its section and text fragment
  expect(href.startsWith(`/${cited[0]!.slug}#${anchor}`)).toBe(true);
  await expectNoSeriousAxe(page);

  await first.click();
  await expect(page).toHaveURL(new RegExp(`/${cited[0]!.slug}#${anchor}(:~:text=.*)?$`));
  await expect(page.locator(`#${anchor}`)).toBeInViewport();
});

test('a keyword query asks nothing and shows no answer box; a question the site cannot answer shows none', async ({
  page,
}, info) => {
  await actAs(page, clientFor(info));
  const asks: PwRequest[] = [];
  page.on('request', (r) => isAsk(r) && asks.push(r));
  await page.goto('/search?q=storage%20billing');
  await expect(page.locator('#search-results li').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asks).toEqual([]);
  await expect(page.locator('#search-answer')).toBeHidden();

  // An answered question, then one the site cannot answer: the first answer goes, nothing takes its place.
  expect((await askOnPage(page, 'Does the crew app work without signal?')).answered).toBe(true);
  await expect(answerBox(page)).toBeVisible();
  const body = await askOnPage(page, UNANSWERABLE);
  expect(body.answered).toBe(false);
  await expect(page.locator('#search-answer')).toBeHidden();
  await expect(page.locator('#search-status')).toContainText(`“${UNANSWERABLE}”`);
  await expect(page.locator('#search-answer-status')).toBeEmpty();

  // Back to keywords: the box stays hidden and the ask endpoint is not called again.
  const before = asks.length;
  await searchOnPage(page, 'storage billing');
  await expect(page.locator('#search-answer')).toBeHidden();
  expect(asks).toHaveLength(before);
});

test('the results and the answer each show when they arrive, neither waiting for the other', async ({ page }, info) => {
  await actAs(page, clientFor(info));
  const held: Route[] = [];
  await page.route('**/api/v1/ask', (route) => void held.push(route));
  await page.goto('/search?q=Is%20there%20a%20free%20trial%3F');
  // The ask is held: the results are listed all the same.
  await expect(page.locator('#search-results li').first()).toBeVisible();
  await expect.poll(() => held.length).toBe(1);
  await expect(page.locator('#search-answer')).toBeHidden();
  await held[0]!.continue();
  await page.unroute('**/api/v1/ask');
  await expect(answerBox(page)).toContainText(/30-day (free )?trial/);

  // The other way round: the search is held, the answer shows first.
  const search: Route[] = [];
  await page.route('**/api/v1/search**', (route) => void search.push(route));
  await page.locator('#search-q').fill('How much does the Starter plan cost a month?');
  await page.locator('#search-q').press('Enter');
  await expect(answerBox(page)).toContainText('$390');
  await expect.poll(() => search.length).toBeGreaterThan(0);
  await expect(page.locator('#search-status')).not.toContainText('How much does the Starter plan cost');
  for (const route of search) await route.continue().catch(() => {}); // an aborted one is gone already
  await page.unroute('**/api/v1/search**');
  await expect(page.locator('#search-status')).toContainText('“How much does the Starter plan cost a month?”');
});

test('an answer with a handoff shows its offer and a button that opens the chat', async ({ page }, info) => {
  await actAs(page, clientFor(info));
  await page.goto('/search');
  const body = await askOnPage(page, 'Can I book a demo?');
  expect(body.answered).toBe(true);
  expect(body.handoff, 'the site answers this with a demo handoff').not.toBeNull();
  const box = answerBox(page);
  await expect(box).toContainText(body.handoff!.label);
  const open = box.getByRole('button', { name: 'Open the chat' });
  await open.click();
  const chat = page.getByRole('dialog', { name: 'Ask Kartage' });
  await expect(chat).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chat).toBeHidden();
  await expect(open).toBeFocused(); // focus comes back to the button that opened it
});

test('a query no page answers says so; the page keeps working', async ({ page }, info) => {
  await actAs(page, clientFor(info));
  await page.goto('/search');
  expect(await searchOnPage(page, 'zqxjkv storage')).toEqual([]);
  await expect(page.locator('#search-status')).toContainText('No page holds every word');
  expect((await searchOnPage(page, 'pricing'))[0]).toBe('pricing');
});

test('the judged query sets through the page: the API bars hold and the page agrees with the API', async ({
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  await page.goto('/search');
  let n = 0;
  const viaPage = async (q: string) => {
    if (n++ % 40 === 0) await actAs(page, clientFor(info, n)); // stay inside one client's read budget
    return searchOnPage(page, q);
  };
  const judged = await evaluate(loadJudged('judged-queries'), viaPage);
  const heldOut = await evaluate(loadJudged('held-out-queries'), viaPage);
  console.log(
    `search page: judged nDCG@10 ${judged.ndcg10.toFixed(3)} MRR ${judged.mrr.toFixed(3)} P@1 ${judged.p1.toFixed(3)} ` +
      `empty ${judged.zeroShare}; held-out nDCG@10 ${heldOut.ndcg10.toFixed(3)} empty ${heldOut.zeroShare}`,
  );
  expect(judged.ndcg10).toBeGreaterThanOrEqual(0.92);
  expect(judged.zeroShare).toBe(0);
  expect(heldOut.ndcg10).toBeGreaterThanOrEqual(0.8);
  expect(heldOut.zeroShare).toBeLessThanOrEqual(0.1);
  let agree = 0;
  const all = [...judged.perQuery, ...heldOut.perQuery];
  for (const [i, { q, top }] of all.entries()) {
    const res = await request.get(`/api/v1/search?q=${encodeURIComponent(q)}`, {
      headers: { 'X-Forwarded-For': clientFor(info, 1000 + Math.floor(i / 40)) },
    });
    const api = (await res.json()) as { results: { slug: string }[] };
    if (api.results[0]?.slug === top[0]) agree++;
  }
  expect(agree / all.length).toBeGreaterThanOrEqual(0.9);
});

test('with the search API unreachable the page falls back to Pagefind', async ({ page }) => {
  await page.route('**/api/v1/search**', (route) => route.abort('connectionrefused'));
  await page.goto('/search?q=storage%20billing');
  await expect(page.locator('#search-form')).toBeHidden();
  await expect(
    page
      .locator('#search')
      .getByRole('link', { name: /storage/i })
      .first(),
  ).toBeVisible({ timeout: 15_000 });
});

test('without JavaScript the form asks the API and opens its JSON answer', async ({ browser }, info) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'X-Forwarded-For': clientFor(info) },
  });
  const page = await context.newPage();
  await page.goto('/search?q=Is%20there%20a%20free%20trial%3F');
  await expect(page.locator('#search-hint')).toBeVisible();
  await expect(page.locator('#search-answer')).toBeHidden();
  await page.locator('#search-q').fill('storage billing');
  await page.locator('#search-form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/api\/v1\/search\?q=storage\+billing$/);
  const body = JSON.parse((await page.locator('body').textContent()) ?? '{}') as { results: { slug: string }[] };
  expect(body.results[0]?.slug).toBe('product/storage');
  await context.close();
});
