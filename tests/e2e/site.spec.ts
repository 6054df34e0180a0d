import { expect, test } from '@playwright/test';

test('a visitor goes from home to a product page to pricing', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
  await page.screenshot({ path: 'test-results/home.png', fullPage: true });
  await page.locator('main a[href="/product/quoting"]').first().click();
  await expect(page).toHaveURL(/\/product\/quoting$/);
  await expect(page.locator('main h1')).toBeVisible();
  await page.locator('header a[href="/pricing"]').first().click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.locator('main table').first()).toContainText('Growth');
  await expect(page.locator('main')).toContainText('890');
  await page.screenshot({ path: 'test-results/pricing.png', fullPage: true });
});

test('site search finds a page', async ({ page }) => {
  await page.goto('/search');
  const box = page.locator('#search-q');
  await box.fill('storage billing');
  await expect(
    page
      .locator('#search-results')
      .getByRole('link', { name: /storage/i })
      .first(),
  ).toBeVisible({ timeout: 10_000 });
});

test('pages carry the markdown alternate and read without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/blog/planning-for-peak-season');
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute(
    'href',
    /\/blog\/planning-for-peak-season\.md$/,
  );
  await context.close();
});

const KEY_PAGES = ['/', '/pricing', '/demo', '/contact', '/blog', '/blog/planning-for-peak-season', '/product/quoting'];

test('the key pages read without JavaScript on a phone, and the menu opens without it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  for (const path of KEY_PAGES) {
    await page.goto(path);
    await expect(page.locator('main h1'), path).toBeVisible();
    expect((await page.locator('main').innerText()).length, `${path} has its text in the HTML`).toBeGreaterThan(300);
  }
  await page.goto('/');
  await page.locator('.nav-mobile summary').click();
  await page.locator('.nav-mobile').getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await context.close();
});

test('the key pages load with no console errors (CSP violations included)', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  for (const path of KEY_PAGES) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(errors).toEqual([]);
});

test("the home page's HTML, CSS and JavaScript stay under 100 KB", async ({ page }) => {
  const sizes: { url: string; type: string; bytes: number }[] = [];
  page.on('response', async (r) => {
    const type = r.request().resourceType();
    if (['document', 'stylesheet', 'script'].includes(type))
      sizes.push({ url: r.url(), type, bytes: (await r.body()).length });
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() => sizes.some((s) => s.type === 'stylesheet') && sizes.some((s) => s.type === 'script'))
    .toBe(true);
  const total = sizes.reduce((n, s) => n + s.bytes, 0);
  expect(total, JSON.stringify(sizes, null, 1)).toBeLessThan(100 * 1024);
});
