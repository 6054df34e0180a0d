/**
 * The chat on every page, in Chromium against the real local server (file sink under test-results/, see
 * playwright.config.ts): the launcher without JavaScript, no chat code before first use, a question answered
 * with quoted sentences and a citation that lands on its section, the keyboard alone, axe with the panel open,
 * the conversation kept across pages of the tab, a demo booked through the real lead path with the
 * conversation in its message and the lead path's 429 (each on a server and lead table of its own), its 502
 * (a server whose CRM and outbox fail, as the lead form's spec does), the ask endpoint's own 429, and the lead
 * form's 502 message opening the chat.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type Request as PwRequest } from '@playwright/test';
import type { RunningServer } from '../../server/main.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import {
  actAs,
  clientFor,
  fillLeadForm,
  type LeadServer,
  leadSite,
  openLeadForm,
  startRecordingNowhereServer,
} from './helpers.ts';

/** `site`: a server of the test's own (its own lead table and store), for the tests that count leads. */
const test = base.extend<{ site: LeadServer }>({
  site: leadSite,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pathOf = (r: PwRequest) => new URL(r.url()).pathname;
const isPost = (path: string) => (r: PwRequest) => r.method() === 'POST' && pathOf(r) === path;
const isAsk = isPost('/api/v1/ask');
const isLead = isPost('/api/lead');
const isValidate = isPost('/api/v1/lead/validate');
const isChatChunk = (r: PwRequest) => /^\/_astro\/chat\.[\w-]+\.js$/.test(pathOf(r));

test.beforeEach(async ({ page }, info) => {
  await actAs(page, clientFor(info));
});

const launcher = (page: Page) => page.getByRole('button', { name: 'Ask Kartage' });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Ask Kartage' });

async function openChat(page: Page): Promise<Locator> {
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  return panel(page);
}

/** Asks `question` in the open panel; answers the ask response. */
async function ask(page: Page, question: string) {
  const dialog = panel(page);
  await dialog.getByLabel('Your question').fill(question);
  const answered = page.waitForResponse((r) => isAsk(r.request()));
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  return answered;
}

test('without JavaScript the launcher is a link to the contact page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/pricing');
  const link = page.getByRole('link', { name: 'Ask Kartage' });
  await expect(link).toHaveAttribute('href', '/contact');
  await expect(link).toBeVisible();
  expect(await link.evaluate((a) => getComputedStyle(a).position)).toBe('fixed');
  await link.click();
  await expect(page).toHaveURL(/\/contact$/);
  await context.close();
});

test('no chat code is fetched before first use; hovering the launcher fetches it, pressing it opens the chat', async ({
  page,
}) => {
  const chunks: string[] = [];
  page.on('request', (r) => isChatChunk(r) && chunks.push(r.url()));
  for (const path of ['/', '/pricing', '/contact']) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(launcher(page)).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(page.locator('dialog')).toHaveCount(0);
  }
  expect(chunks, 'nothing of the chat before first use').toEqual([]);

  const fetched = page.waitForRequest(isChatChunk);
  await launcher(page).hover();
  await fetched;
  await expect(page.locator('dialog')).toHaveCount(0); // loaded, not opened
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
  await expect(panel(page).getByLabel('Your question')).toBeFocused();
  expect(chunks).toHaveLength(1);
});

test('a question gets the quoted answer, its citation and related pages; the citation lands on its section', async ({
  page,
}) => {
  await page.goto('/pricing');
  const dialog = await openChat(page);
  const res = await ask(page, 'is there a free trial?');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    answer: string;
    sources: { url: string; role: string; heading: string; slug: string }[];
  };
  const cited = body.sources.filter((s) => s.role === 'answer');
  expect(cited.length).toBeGreaterThan(0);
  // The section the answer is quoted from (the FAQ's, the pricing page's or the terms' trial section), and its anchor.
  const anchor = new URL(cited[0]!.url).hash.slice(1).split(':~:')[0]!;

  const answer = dialog.locator('.chat-a').last();
  await expect(answer).toContainText(TRIAL);
  // Announced once, whole, through the polite live region.
  const live = dialog.locator('[aria-live="polite"]');
  await expect(live).toContainText(TRIAL);
  await expect(live).toContainText(`${cited.length} source`);

  const citations = answer.getByRole('list', { name: /^Sources?$/ }).getByRole('link');
  await expect(citations).toHaveCount(cited.length);
  const citation = citations.first();
  await expect(citation).toContainText(cited[0]!.heading);
  const href = (await citation.getAttribute('href'))!;
  const expected = new URL(cited[0]!.url);
  expect(href).toBe(expected.pathname + expected.hash); // a path on this host, with its section and text fragment
  expect(href.startsWith(`/${cited[0]!.slug}#${anchor}`)).toBe(true);
  if (body.sources.some((s) => s.role === 'related'))
    await expect(answer.getByRole('list', { name: 'Related pages' }).getByRole('link').first()).toBeVisible();

  // Every control of the panel is at least 44 by 44 px.
  for (const target of await dialog.locator('button, a.btn, .chat-sources a, input').all()) {
    const box = await target.boundingBox();
    if (!box) continue;
    expect(box.width, await target.evaluate((e) => e.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    expect(box.height, await target.evaluate((e) => e.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
  }

  await citation.click();
  await expect(page).toHaveURL(new RegExp(`/${cited[0]!.slug}#${anchor}(:~:text=.*)?$`));
  await expect(page.locator(`#${anchor}`)).toBeInViewport();
  await expect(page.locator('dialog[open]')).toHaveCount(0);
});

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740 }],
] as const) {
  test(`the panel fits a ${device} (${viewport.width} px): within the screen, nothing wider than it`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/pricing');
    const box = (await launcher(page).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    const dialog = await openChat(page);
    await ask(page, 'is there a free trial?');
    await expect(dialog.locator('.chat-a').last()).toContainText(TRIAL);
    await dialog.getByRole('button', { name: 'Request a callback' }).click();
    const panelBox = (await dialog.boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(0);
    expect(panelBox.y).toBeGreaterThanOrEqual(0);
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(viewport.width);
    expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(viewport.height);
    if (device === 'phone') expect(panelBox).toEqual({ x: 0, y: 0, ...viewport });
    // The header and the question box stay in view; the conversation scrolls between them, never sideways.
    await expect(dialog.getByRole('heading', { name: 'Ask Kartage' })).toBeInViewport();
    await expect(dialog.getByLabel('Your question')).toBeInViewport();
    const log = dialog.getByRole('region', { name: 'Conversation' });
    expect(await log.evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0);
    await page.screenshot({ path: `test-results/chat-${device}.png` });
  });
}

test('keyboard only: Tab to the launcher, Enter, type, Enter, Escape returns focus to the launcher', async ({
  page,
}) => {
  await page.goto('/about');
  let reached = false;
  for (let i = 0; i < 200 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await launcher(page).evaluate((b) => b === document.activeElement);
  }
  expect(reached, 'the launcher is in the tab order').toBe(true);
  await page.keyboard.press('Enter');
  const dialog = panel(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Your question')).toBeFocused();
  await page.keyboard.type('is there a free trial?');
  const answered = page.waitForResponse((r) => isAsk(r.request()));
  await page.keyboard.press('Enter');
  expect((await answered).status()).toBe(200);
  await expect(dialog.locator('.chat-a').last()).toContainText(TRIAL);
  // Tab stays inside the open panel (a modal dialog): from the question box to Send, and on.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(launcher(page)).toBeFocused();
});

test('axe finds nothing with the panel open: intro, an answer, and a handoff form showing its errors', async ({
  page,
}) => {
  await page.goto('/');
  const dialog = await openChat(page);
  const axe = async () => {
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  expect(await axe()).toEqual([]);
  await ask(page, 'is there a free trial?');
  await expect(dialog.locator('.chat-a').last()).toContainText(TRIAL);
  expect(await axe()).toEqual([]);
  await dialog.getByRole('button', { name: 'Send a message' }).click();
  const form = dialog.getByRole('form', { name: 'Send a message' });
  await form.getByRole('button', { name: 'Send my message' }).click();
  await expect(form.getByText('Enter your name.')).toBeVisible();
  expect(await axe()).toEqual([]);
});

test('the conversation is kept across pages of the tab, and a follow-up carries it; another tab starts afresh', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await openChat(page);
  await ask(page, 'is there a free trial?');
  await expect(panel(page).locator('.chat-a').last()).toContainText(TRIAL);

  await page.goto('/pricing');
  const dialog = await openChat(page);
  await expect(dialog.locator('.chat-q')).toHaveText(['You asked: is there a free trial?']);
  await expect(dialog.locator('.chat-a').first()).toContainText(TRIAL);

  const sent = page.waitForRequest(isAsk);
  await ask(page, 'do prices include GST?');
  const request = (await sent).postDataJSON() as { question: string; conversation: unknown[] };
  expect(request.question).toBe('do prices include GST?');
  // The earlier turn, with the sections its answer was quoted from.
  expect(request.conversation).toEqual([
    {
      question: 'is there a free trial?',
      sources: [{ slug: expect.any(String), heading: expect.stringMatching(/[Tt]rial/) }],
    },
  ]);
  await expect(dialog.locator('.chat-q')).toHaveCount(2);

  const other = await context.newPage();
  await other.goto('/pricing');
  await launcher(other).click();
  await expect(panel(other).locator('.chat-q')).toHaveCount(0);

  // "New chat" forgets it.
  await dialog.getByRole('button', { name: 'New chat' }).click();
  await expect(dialog.locator('.chat-q')).toHaveCount(0);
  await page.reload();
  await openChat(page);
  await expect(panel(page).locator('.chat-q')).toHaveCount(0);
});

test('hand off: a demo booked in the chat lands through the lead path, with the conversation in its message', async ({
  site,
  page,
}) => {
  await page.goto(`${site.url}/pricing`);
  const dialog = await openChat(page);
  await ask(page, 'is there a free trial?');
  const res = await ask(page, "I'd like to book a demo");
  const body = (await res.json()) as { handoff: { intent: string; label: string } };
  expect(body.handoff.intent).toBe('demo');
  const turn = dialog.locator('.chat-turn').last();
  await expect(turn).toContainText(body.handoff.label);
  await expect(dialog.locator('[aria-live="polite"]')).toContainText(body.handoff.label);

  await turn.getByRole('button', { name: 'Book a demo' }).click();
  const form = dialog.getByRole('form', { name: 'Book a demo' });
  await expect(form.getByLabel('Name')).toBeFocused();
  // The browser checks what it can (a required field, the email's form)…
  await form.getByLabel('Work email').fill('priya@localhost');
  await form.getByLabel('Work email').blur();
  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(form.getByLabel('Work email')).toHaveAttribute('aria-invalid', 'true');
  // …and the sandbox checks the rest as it is typed: its problem shows beside the field.
  const checked = page.waitForRequest(isValidate);
  await form.getByLabel('Name').fill('Priya\tRaman');
  await form.getByLabel('Name').blur();
  expect((await checked).postDataJSON()).toMatchObject({ name: 'Priya\tRaman', intent: 'demo' });
  await expect(
    form.getByText('Name contains control characters (such as a line break); send it on one line.'),
  ).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Name').fill('Priya Raman');
  await form.getByLabel('Work email').fill('priya.raman@coastwide-relocations.example');
  await form.getByLabel('Company').fill('Coastwide Relocations');
  await form.getByLabel('Dial code').fill('+64');
  await form.getByLabel('Phone').fill('021 555 0142');
  await form.getByLabel('Kind of moving work').selectOption('International');
  await form.getByLabel('Warehouses').selectOption('2-5');
  await form.getByLabel('Moves per year').selectOption('2,000-10,000');
  await form.getByLabel('Anything we should know').fill('We run 24 trucks between Auckland and Sydney.');
  await expect(form.locator('.field-error:visible')).toHaveCount(0);

  const sent = page.waitForRequest(isLead);
  const answered = page.waitForResponse((r) => isLead(r.request()));
  await form.getByRole('button', { name: 'Request my demo' }).click();
  const req = await sent;
  expect((await answered).status()).toBe(200);
  expect(req.headers()['idempotency-key']).toMatch(UUID);

  const status = form.getByRole('status');
  await expect(status).toContainText('Thank you, Priya.');
  await expect(status).toContainText('within one business day');
  await expect(status).toContainText('7am to 7pm AEST, Monday to Saturday');
  await expect(status).toBeFocused();

  const lines = await site.leads();
  expect(lines).toHaveLength(1);
  const lead = lines.at(-1)!.lead;
  expect(lead).toEqual({
    name: 'Priya Raman',
    email: 'priya.raman@coastwide-relocations.example',
    company: 'Coastwide Relocations',
    dialcode: '+64',
    phone: '021 555 0142',
    segment: 'International',
    warehouses: '2-5',
    moves: '2,000-10,000',
    intent: 'demo',
    message: expect.any(String),
  });
  expect(lead.message).toMatch(
    /^We run 24 trucks between Auckland and Sydney\.\n\nQuestions asked in the chat, as the visitor's browser wrote them \(not checked by Kartage\):\n- is there a free trial\?\n/,
  );
  // Each cited section of that answer, as "  <page>: <heading> (<link>)".
  expect(lead.message).toMatch(/\n {2}[^\n]+: [^\n]*[Tt]rial[^\n]* \(http\S+#[a-z0-9-]+\S*\)\n/);
  expect(lead.message).toContain("\n- I'd like to book a demo\n");
  expect(lines.at(-1)!.source).toMatch(/\/pricing$/);
});

test('429: over the lead budget, the chat says in how many minutes to try again and keeps what was typed', async ({
  site,
  page,
  request,
}, info) => {
  const client = clientFor(info);
  for (let i = 1; i <= 5; i++) {
    const r = await request.post(`${site.url}/api/lead`, {
      headers: { 'X-Forwarded-For': client },
      data: { name: `Budget Filler ${i}`, email: `filler${i}@example.com`, intent: 'enquiry' },
    });
    expect(r.status(), `lead ${i} of 5`).toBe(200);
  }
  await page.goto(`${site.url}/`);
  const dialog = await openChat(page);
  await dialog.getByRole('button', { name: 'Send a message' }).click();
  const form = dialog.getByRole('form', { name: 'Send a message' });
  await form.getByLabel('Name').fill('Sam Taylor');
  await form.getByLabel('Email').fill('sam@harbourline.example');
  await form.getByLabel('Your message').fill('Do you import from MoveitPro?');
  const answered = page.waitForResponse((r) => isLead(r.request()));
  await form.getByRole('button', { name: 'Send my message' }).click();
  const res = await answered;
  expect(res.status()).toBe(429);
  const minutes = Math.ceil(Number(res.headers()['retry-after']) / 60);
  expect(minutes).toBeGreaterThanOrEqual(59);
  await expect(form.getByRole('status')).toContainText(`Please try again in ${minutes} minutes`);
  await expect(form.getByLabel('Your message')).toHaveValue('Do you import from MoveitPro?');
  expect(await site.leads(), 'the five that spent the budget, not the sixth').toHaveLength(5);
});

/** What every section on the free trial says (the FAQ's, the pricing page's, the terms'). */
const TRIAL = /30-day (free )?trial/;

test('429 from the chat itself: over the read budget, it says when to ask again and keeps the question', async ({
  page,
  request,
}, info) => {
  const client = clientFor(info);
  // The read budget is a sliding window over fixed minutes: spent across a minute's edge, the last minute's units
  // free one every half second or so, and the chat's question, a moment after the refusal, could be answered. So
  // the budget is spent and the question asked within one minute: with under 20 s of it left, wait for the next.
  const windowMs = LIMITS.read.windowSeconds * 1000;
  test.setTimeout(windowMs);
  const left = windowMs - (Date.now() % windowMs);
  if (left < 20_000) await page.waitForTimeout(left + 250);
  await page.goto('/');
  await openChat(page);
  // Spend this client's read budget on real reads, until it is refused; the instance then refuses
  // the client from memory until the reset it gave (this minute's end, as nothing was spent in the one before).
  let refused = false;
  for (let i = 0; i < 400 && !refused; i++) {
    const r = await request.get('/api/v1/pages?limit=1', { headers: { 'X-Forwarded-For': client } });
    refused = r.status() === 429;
  }
  expect(refused).toBe(true);
  const res = await ask(page, 'is there a free trial?');
  expect(res.status()).toBe(429);
  const error = panel(page).locator('.chat-a--error');
  await expect(error).toContainText(/Please ask again in \d+ (seconds?|minutes)/);
  await expect(panel(page).getByLabel('Your question')).toHaveValue('is there a free trial?');
  await expect(panel(page).locator('[aria-live="polite"]')).toContainText('Please ask again');
});

test.describe('502: neither the CRM nor the outbox takes the lead', () => {
  let down: RunningServer;
  test.beforeAll(async () => {
    down = await startRecordingNowhereServer();
  });
  test.afterAll(async () => {
    await down?.close();
  });

  test('a callback asked in the chat shows the phone and email, keeps what was typed, retries with its key', async ({
    page,
  }) => {
    await page.goto(`${down.url}/`);
    const dialog = await openChat(page);
    await dialog.getByRole('button', { name: 'Request a callback' }).click();
    const form = dialog.getByRole('form', { name: 'Request a callback' });
    await form.getByLabel('Name').fill('Sam Taylor');
    await form.getByLabel('Email').fill('sam@harbourline.example');
    await form.getByLabel('Phone').fill('0400 111 222');
    await form.getByLabel('When should we call?').fill('Tuesday after 2pm');

    const keys: string[] = [];
    for (const attempt of [1, 2]) {
      const sent = page.waitForRequest(isLead);
      const answered = page.waitForResponse((r) => isLead(r.request()));
      await form.getByRole('button', { name: 'Ask for the call' }).click();
      keys.push((await sent).headers()['idempotency-key']!);
      const req = await sent;
      expect(req.postDataJSON()).toEqual({
        name: 'Sam Taylor',
        email: 'sam@harbourline.example',
        dialcode: '+61',
        phone: '0400 111 222',
        message: 'Please call me back. Preferred time: Tuesday after 2pm',
        intent: 'enquiry',
      });
      expect((await answered).status(), `attempt ${attempt}`).toBe(502);
      const status = form.getByRole('status');
      await expect(status).toContainText('1300 527 824');
      await expect(status).toContainText('sales@kartage.com.au');
      await expect(status.getByRole('link', { name: 'Call 1300 527 824' })).toHaveAttribute('href', 'tel:1300527824');
      const mail = status.getByRole('link', { name: 'Email sales@kartage.com.au' });
      await expect(mail).toHaveAttribute(
        'href',
        /^mailto:sales@kartage\.com\.au\?subject=.+&body=.*Tuesday%20after%202pm/,
      );
      await expect(form.getByLabel('Name')).toHaveValue('Sam Taylor');
      await expect(form.getByLabel('When should we call?')).toHaveValue('Tuesday after 2pm');
    }
    expect(keys[0]).toMatch(UUID);
    expect(keys[1], 'the same form sends the same key').toBe(keys[0]);
    await page.screenshot({ path: 'test-results/chat-502.png' });
  });

  test("the lead form's 502 message opens the chat, and closing it returns focus there", async ({ page }) => {
    await openLeadForm(page, `${down.url}/contact`);
    await fillLeadForm(page, { name: 'Sam Taylor', email: 'sam@harbourline.example' });
    const answered = page.waitForResponse((r) => isLead(r.request()));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    expect((await answered).status()).toBe(502);
    const status = page.locator('#lead-form-status');
    await expect(status).toContainText('Please use the chat on this website or email sales@kartage.com.au');
    const open = status.getByRole('button', { name: 'the chat on this website' });
    await open.click();
    await expect(panel(page)).toBeVisible();
    await expect(panel(page).getByLabel('Your question')).toBeFocused();
    await panel(page).getByRole('button', { name: 'Close the chat' }).click();
    await expect(panel(page)).toBeHidden();
    await expect(open).toBeFocused();
  });
});
