/**
 * The contact and demo forms end to end in Chromium against the real local server, one of each test's
 * own (its own lead table and store: helpers.ts startLeadServer): browser-side validation, a full demo
 * booking landing in the lead table once (a replay with the same Idempotency-Key adds nothing), the 400,
 * 429 and 502 states, and the form without JavaScript.
 */
import { test as base, expect, type Request as PwRequest } from '@playwright/test';
import type { RunningServer } from '../../server/main.ts';
import {
  actAs,
  clientFor,
  fillLeadForm,
  FULL_BOOKING,
  type LeadServer,
  leadSite,
  openLeadForm,
  startRecordingNowhereServer,
} from './helpers.ts';

/**
 * Each test runs against a server of its own (its own lead table and store), so what it counts of the leads is
 * what it sent, whatever ran before it or runs beside it; page and request go to that server.
 */
const test = base.extend<{ site: LeadServer }>({
  site: leadSite,
  baseURL: async ({ site }, use) => use(site.url),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isLeadPost = (r: PwRequest) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/lead';

/** Headers of a captured request that a resend may carry as they are (the HTTP layer sets the rest). */
function resendable(headers: Record<string, string>): Record<string, string> {
  const computed = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'cookie']);
  return Object.fromEntries(
    Object.entries(headers).filter(([k]) => !computed.has(k.toLowerCase()) && !k.startsWith(':')),
  );
}

test.beforeEach(async ({ page }, info) => {
  await actAs(page, clientFor(info));
});

test('the demo form checks input in the browser: field errors, an error summary, and nothing sent', async ({
  site,
  page,
}) => {
  await openLeadForm(page, '/demo');
  await expect(page.locator('#lead-form input[name="intent"]')).toHaveValue('demo');
  await expect(page.locator('#lf-dialcode')).toHaveValue('+61');
  const posts: PwRequest[] = [];
  page.on('request', (r) => isLeadPost(r) && posts.push(r));

  await page.locator('#lf-email').fill('sam at harbourline');
  await page.getByRole('button', { name: 'Request my demo' }).click();

  const summary = page.locator('#lead-form-errors');
  await expect(summary).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Please fix 2 problems');
  await expect(summary.getByRole('link')).toHaveText(['Enter your name.', /Enter a valid email address/]);
  await expect(page.locator('#lf-name-error')).toHaveText('Enter your name.');
  await expect(page.locator('#lf-email-error')).toContainText('Enter a valid email address');
  await expect(page.locator('#lf-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#lf-email')).toHaveAttribute('aria-describedby', /lf-email-error/);

  // A summary link takes the person to the field.
  await summary.getByRole('link', { name: 'Enter your name.' }).click();
  await expect(page.locator('#lf-name')).toBeFocused();

  // The contract's other rules: a dial code outside ^\+\d{1,4}$, a name with a tab in it.
  await page.locator('#lf-name').fill('Sam\tTaylor');
  await page.locator('#lf-email').fill('sam@harbourline.example');
  await page.locator('#lf-dialcode').fill('0061');
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(summary).toContainText('Please fix 2 problems');
  await expect(page.locator('#lf-name-error')).toContainText('one line');
  await expect(page.locator('#lf-dialcode-error')).toContainText('a plus sign and 1 to 4 digits');
  await expect(page.locator('#lf-email-error')).toBeHidden();
  await expect(page.locator('#lf-email')).not.toHaveAttribute('aria-invalid', 'true');

  expect(posts, 'nothing is sent while the form has errors').toHaveLength(0);
  expect((await site.leads()).length, 'the lead file did not grow').toBe(0);
});

test('a demo booked with every field lands in the lead file once; a replay of the same request adds nothing', async ({
  site,
  page,
  request,
}) => {
  await openLeadForm(page, '/demo');
  await fillLeadForm(page, FULL_BOOKING);

  const sent = page.waitForRequest(isLeadPost);
  const answered = page.waitForResponse((r) => isLeadPost(r.request()));
  await page.getByRole('button', { name: 'Request my demo' }).click();
  const req = await sent;
  const res = await answered;
  expect(res.status()).toBe(200);

  const status = page.locator('#lead-form-status');
  await expect(status).toHaveAttribute('data-state', 'success');
  await expect(status).toContainText('Thank you, Priya. Your demo request is in');
  await expect(status).toBeFocused();
  await expect(page.locator('#lf-name')).toHaveValue(''); // the form is reset for a next enquiry

  const headers = await req.allHeaders();
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(headers['idempotency-key']).toMatch(UUID);
  const body = req.postData()!;
  expect(JSON.parse(body)).toEqual({ ...FULL_BOOKING, intent: 'demo' });

  const lines = await site.leads();
  expect(lines).toHaveLength(1);
  const line = lines.at(-1)!;
  expect(line.lead).toEqual({ ...FULL_BOOKING, intent: 'demo' });
  expect(line.id).toMatch(UUID);
  expect(line.source).toMatch(/\/demo$/);

  // The same request again (same body, same headers, same key and client): the first answer, no new lead.
  const replay = await request.post(req.url(), { headers: resendable(headers), data: body });
  expect(replay.status()).toBe(200);
  expect(replay.headers()['idempotency-replayed']).toBe('true');
  expect(await replay.json()).toEqual({ ok: true });
  expect(await site.leads()).toHaveLength(1);

  // A new key with the same payload is a new submission: the replay above was the key's doing.
  const fresh = await request.post(req.url(), {
    headers: { ...resendable(headers), 'Idempotency-Key': crypto.randomUUID() },
    data: body,
  });
  expect(fresh.status()).toBe(200);
  expect(fresh.headers()['idempotency-replayed']).toBeUndefined();
  expect(await site.leads()).toHaveLength(2);
});

test('400: when the server refuses the lead, the form says why and nothing is recorded', async ({ site, page }) => {
  // The browser checks the contract's reject rules itself (the email rule is zod's own regex), so the
  // page cannot send a payload the server refuses. A route rewrites the body on its way to the real
  // server, which then really answers 400: a name with a tab in it.
  await page.route('**/api/lead', async (route) => {
    const lead = JSON.parse(route.request().postData()!);
    await route.continue({ postData: JSON.stringify({ ...lead, name: `${lead.name}\tJr` }) });
  });
  await openLeadForm(page, '/demo');
  await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example' });
  const answered = page.waitForResponse((r) => isLeadPost(r.request()));
  await page.getByRole('button', { name: 'Request my demo' }).click();
  expect((await answered).status()).toBe(400);

  const status = page.locator('#lead-form-status');
  await expect(status).toHaveAttribute('data-state', 'error');
  await expect(status).toContainText('We could not accept the form: name contains control characters');
  await expect(status).toBeFocused();
  await expect(page.locator('#lf-name')).toHaveValue('Sam Taylor'); // kept, to correct and resend
  await expect(page.getByRole('button', { name: 'Request my demo' })).toBeEnabled();
  expect(await site.leads()).toHaveLength(0);
});

test('429: over the lead budget, the form says in how many minutes to try again', async ({
  site,
  page,
  request,
}, info) => {
  const client = clientFor(info);
  // Spend this client's whole budget (5 leads an hour) with real submissions.
  for (let i = 1; i <= 5; i++) {
    const r = await request.post('/api/lead', {
      headers: { 'X-Forwarded-For': client },
      data: { name: `Budget Filler ${i}`, email: `filler${i}@example.com`, intent: 'enquiry' },
    });
    expect(r.status(), `lead ${i} of 5`).toBe(200);
  }

  await openLeadForm(page, '/contact');
  await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example', message: 'Sixth one.' });
  const answered = page.waitForResponse((r) => isLeadPost(r.request()));
  await page.getByRole('button', { name: 'Send enquiry' }).click();
  const res = await answered;
  expect(res.status()).toBe(429);
  const retryAfter = Number(res.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(3500); // the oldest of the five frees its slot in an hour
  const minutes = Math.ceil(retryAfter / 60);

  const status = page.locator('#lead-form-status');
  await expect(status).toHaveAttribute('data-state', 'error');
  await expect(status).toContainText(`Please try again in ${minutes} minutes`);
  await expect(status).toContainText('sales@kartage.com.au');
  await expect(status).toBeFocused();
  expect(await site.leads()).toHaveLength(5);
});

test.describe('502: neither the CRM nor the outbox takes the lead', () => {
  let down: RunningServer;
  test.beforeAll(async () => {
    down = await startRecordingNowhereServer();
  });
  test.afterAll(async () => {
    await down?.close();
  });

  test('the form points to the chat, and a retry of the same attempt keeps its Idempotency-Key', async ({ page }) => {
    await openLeadForm(page, `${down.url}/demo`);
    await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' });
    const keys: string[] = [];
    const statuses: number[] = [];
    page.on('response', async (r) => {
      if (!isLeadPost(r.request())) return;
      keys.push((await r.request().allHeaders())['idempotency-key']!);
      statuses.push(r.status());
    });

    const status = page.locator('#lead-form-status');
    const button = page.getByRole('button', { name: 'Request my demo' });
    for (const attempt of [1, 2]) {
      const answered = page.waitForResponse((r) => isLeadPost(r.request()));
      await button.click();
      expect((await answered).status(), `attempt ${attempt}`).toBe(502);
      await expect(status).toHaveAttribute('data-state', 'error');
      await expect(status).toContainText('Please use the chat on this website');
      await expect(status).toContainText('sales@kartage.com.au');
      await expect(status).toBeFocused();
      await expect(button).toBeEnabled();
    }
    await expect.poll(() => keys.length).toBe(2);
    expect(statuses).toEqual([502, 502]);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1], 'a retry of the same attempt sends the same key').toBe(keys[0]);

    // A changed form is a new attempt: a new key.
    await page.locator('#lf-company').fill('Harbourline Removals Pty Ltd');
    const answered = page.waitForResponse((r) => isLeadPost(r.request()));
    await button.click();
    await answered;
    await expect.poll(() => keys.length).toBe(3);
    expect(keys[2]).not.toBe(keys[0]);
  });

  test('without JavaScript, the answer page points to the chat and email', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${down.url}/contact`);
    await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example' });
    const answered = page.waitForResponse((r) => isLeadPost(r.request()));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const res = await answered;
    expect(res.status()).toBe(502);
    await expect(page.locator('h1')).toHaveText('We could not record your details');
    await expect(page.locator('main')).toContainText('use the chat on our website');
    await expect(page.locator('main a[href="mailto:sales@kartage.com.au"]')).toBeVisible();
    await expect(page.locator('main a[href="/contact"]')).toBeVisible();
    await context.close();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the contact form posts itself and the answer is a thank-you page; the lead is an enquiry', async ({
    site,
    page,
  }) => {
    await page.goto('/contact');
    await expect(page.locator('#lead-form')).toBeVisible();
    await expect(page.locator('main')).not.toContainText('needs JavaScript');
    // A name with markup in it: the answer page must show it as text.
    await fillLeadForm(page, { ...FULL_BOOKING, name: '<i>Ana</i> Müller', dialcode: '+61', country: 'Australia' });

    const sent = page.waitForRequest(isLeadPost);
    const answered = page.waitForResponse((r) => isLeadPost(r.request()));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const req = await sent;
    const res = await answered;
    expect(req.headers()['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers()['idempotency-key']).toBeUndefined();
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers()['content-security-policy']).toContain("script-src 'self'");

    await expect(page).toHaveURL(/\/api\/lead$/);
    await expect(page).toHaveTitle(/Thank you/);
    await expect(page.locator('h1')).toHaveText('Thank you: we have your enquiry');
    await expect(page.locator('main')).toContainText('Thanks, <i>Ana</i>.');
    await expect(page.locator('main i')).toHaveCount(0);
    await expect(page.locator('main a[href="/"]')).toBeVisible();

    const lines = await site.leads();
    expect(lines).toHaveLength(1);
    expect(lines.at(-1)!.lead).toEqual({
      ...FULL_BOOKING,
      name: '<i>Ana</i> Müller',
      dialcode: '+61',
      country: 'Australia',
      intent: 'enquiry',
    });
    expect(lines.at(-1)!.source).toMatch(/\/contact$/);
  });

  test('a lead the server refuses gets a 400 page saying what to fix, with a way back to the form', async ({
    site,
    page,
  }) => {
    await page.goto('/demo');
    // The browser's own type=email check allows a domain without a dot; the contract does not.
    await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@localhost' });
    const answered = page.waitForResponse((r) => isLeadPost(r.request()));
    await page.getByRole('button', { name: 'Request my demo' }).click();
    expect((await answered).status()).toBe(400);
    await expect(page.locator('h1')).toHaveText('Please check your details');
    await expect(page.locator('main li')).toHaveText([/^Work email: email "sam@localhost" is not a valid address/]);
    await expect(page.locator('main a[href="/demo"]')).toHaveText('Go back to the form');
    expect(await site.leads()).toHaveLength(0);
  });

  test('over the lead budget the answer page says in how many minutes to try again', async ({
    page,
    request,
  }, info) => {
    const client = clientFor(info);
    for (let i = 1; i <= 5; i++) {
      const r = await request.post('/api/lead', {
        headers: { 'X-Forwarded-For': client },
        form: { name: `Filler ${i}`, email: `f${i}@example.com` },
      });
      expect(r.status(), `lead ${i} of 5`).toBe(200);
      expect(r.headers()['ratelimit-remaining']).toBe(String(5 - i));
    }
    await page.goto('/contact');
    await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example' });
    const answered = page.waitForResponse((r) => isLeadPost(r.request()));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const res = await answered;
    expect(res.status()).toBe(429);
    const minutes = Math.ceil(Number(res.headers()['retry-after']) / 60);
    expect(minutes).toBeGreaterThanOrEqual(59);
    await expect(page.locator('h1')).toHaveText('Please try again later');
    await expect(page.locator('main')).toContainText(`Please try again in ${minutes} minutes.`);
  });
});

test.describe('form posts to /api/lead, beyond the browser', () => {
  test('a form body over 64 KB gets a 413 page and records nothing', async ({ site, request }, info) => {
    const r = await request.post('/api/lead', {
      // As a browser asks (an API client without `Accept: text/html` gets the JSON Error instead).
      headers: { 'X-Forwarded-For': clientFor(info), Accept: 'text/html,*/*;q=0.8' },
      form: { name: 'Sam Taylor', email: 'sam@harbourline.example', message: 'x'.repeat(70_000) },
    });
    expect(r.status()).toBe(413);
    expect(r.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await r.text()).toContain('Your message is too long');
    expect(await site.leads()).toHaveLength(0);
  });

  test('JSON sent with a form Content-Type (curl -d) is still handled as JSON, Idempotency-Key included', async ({
    site,
    request,
  }, info) => {
    const send = () =>
      request.post('/api/lead', {
        headers: {
          'X-Forwarded-For': clientFor(info),
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': `curl-${info.testId}`,
        },
        data: JSON.stringify({ name: 'Sam Curl', email: 'sam@harbourline.example', intent: 'demo' }),
      });
    const first = await send();
    expect(first.status()).toBe(200);
    expect(first.headers()['content-type']).toMatch(/^application\/json/);
    expect(await first.json()).toEqual({ ok: true });
    const again = await send();
    expect(again.headers()['idempotency-replayed']).toBe('true');
    const lines = await site.leads();
    expect(lines).toHaveLength(1);
    expect(lines.at(-1)!.lead).toMatchObject({ name: 'Sam Curl', intent: 'demo' });
  });
});
