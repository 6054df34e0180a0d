/**
 * Accessibility: axe-core (WCAG 2.0/2.1 A and AA rules) on the key pages and on the lead form's own
 * states, failing on any serious or critical violation; each one is printed with its nodes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { actAs, clientFor, fillLeadForm, openLeadForm } from './helpers.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

/** Runs axe on the page as it is now; answers the serious and critical violations, printed readably. */
async function seriousViolations(page: Page): Promise<string> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) =>
      [
        `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? '' : 's'})`,
        `  ${v.helpUrl}`,
        ...v.nodes
          .slice(0, 8)
          .map((n) => `  - ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`),
        v.nodes.length > 8 ? `  … and ${v.nodes.length - 8} more` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

const PAGES = ['/', '/pricing', '/demo', '/blog/planning-for-peak-season'];

for (const path of PAGES) {
  test(`no serious or critical axe violations on ${path}`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    expect(await seriousViolations(page)).toBe('');
  });
}

test('no serious or critical axe violations in the lead form with its errors showing', async ({ page }) => {
  await openLeadForm(page, '/demo');
  await page.locator('#lf-email').fill('not an email');
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('#lead-form-errors')).toBeVisible();
  expect(await seriousViolations(page)).toBe('');
});

test('no serious or critical axe violations on the answer page of the form without JavaScript', async ({
  page,
}, info) => {
  await actAs(page, clientFor(info));
  await page.goto('/contact');
  // Refused (a domain without a dot), so no lead is recorded: the 400 page, with its list of problems.
  // form.submit() posts the form natively, as a browser without JavaScript does (no submit event for
  // the script to catch), and leaves JavaScript on for axe.
  await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@localhost' });
  await Promise.all([
    page.waitForURL(/\/api\/lead$/),
    page.locator('#lead-form').evaluate((f: HTMLFormElement) => f.submit()),
  ]);
  await expect(page.locator('h1')).toHaveText('Please check your details');
  expect(await seriousViolations(page)).toBe('');
});

test('the check itself fails on a page with serious violations', async ({ page }) => {
  // Guards the filter and the tags above: a page with an unlabelled field and unreadable text must fail.
  await page.setContent(`<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>
    <h1>Bad page</h1><p style="color:#bbb;background:#fff">Pale grey text nobody can read</p>
    <form><input type="text" name="who"></form></main></body></html>`);
  const found = await seriousViolations(page);
  expect(found).toContain('color-contrast');
  expect(found).toContain('label');
});
