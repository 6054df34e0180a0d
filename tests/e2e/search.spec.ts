/**
 * The /search page as a visitor sees it, in Chromium: it lists what the search API answers (so the page and the
 * API agree), scores the judged query sets through the page itself, falls back to Pagefind when the API is
 * unreachable, and works without JavaScript.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { evaluate, loadJudged } from '../helpers/search-metrics.ts';
import { actAs, clientFor } from './helpers.ts';

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
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await searchOnPage(page, 'crew app');
  await expect(page).toHaveURL(/\/search\?q=crew\+app$/);
  await page.locator('#search-results li > a').first().click();
  await expect(page).toHaveURL(/\/product\/crew-app$/);
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
  await page.goto('/search');
  await expect(page.locator('#search-hint')).toBeVisible();
  await page.locator('#search-q').fill('storage billing');
  await page.locator('#search-form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/api\/v1\/search\?q=storage\+billing$/);
  const body = JSON.parse((await page.locator('body').textContent()) ?? '{}') as { results: { slug: string }[] };
  expect(body.results[0]?.slug).toBe('product/storage');
  await context.close();
});
