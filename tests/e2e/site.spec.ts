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
  const box = page.locator('#search input').first();
  await box.fill('storage billing');
  await expect(page.locator('#search').getByRole('link', { name: /storage/i }).first()).toBeVisible({ timeout: 10_000 });
});

test('pages carry the markdown alternate and read without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/blog/planning-for-peak-season');
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute('href', /\/blog\/planning-for-peak-season\.md$/);
  await context.close();
});
