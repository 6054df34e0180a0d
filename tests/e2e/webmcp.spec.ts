/**
 * WebMCP in Chromium against the real local server, with a stand-in model context injected before any page
 * script runs: the site registers `search_site`, `ask_site` and `book_demo` with valid JSON Schemas (on
 * `document.modelContext` as the current draft has it, on `navigator.modelContext` as Chromium's preview
 * has it, and through the first drafts' `provideContext`); search_site returns the search API's real
 * results; ask_site returns the ask endpoint's JSON answer (quoted, or "no answer" with a handoff; a follow-up
 * with its conversation); book_demo fills the demo form (on /demo, or by opening /demo) and nothing is ever
 * sent. Without a model context the pages fetch nothing more and log no error or CSP violation.
 */
import { expect, test, type Page, type Request as PwRequest } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ASK_LIMITS } from '../../src/contract/ask.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { MOVES, SEGMENTS, WAREHOUSES } from '../../src/contract/schemas.ts';
import { actAs, clientFor, FULL_BOOKING, leadLines } from './helpers.ts';

type Where = 'document' | 'navigator' | 'provideContext';
interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

declare global {
  interface Window {
    __webmcpTools: { name: string; execute(input: unknown): Promise<unknown> }[];
    __cspViolations: string[];
  }
}

/** Installs the stand-in before the page's scripts: it records each tool the page registers. */
async function standIn(page: Page, where: Where): Promise<void> {
  await page.addInitScript((at: Where) => {
    window.__webmcpTools = [];
    const context =
      at === 'provideContext'
        ? {
            provideContext: (c: { tools: Window['__webmcpTools'] }) => {
              window.__webmcpTools = [...c.tools];
            },
          }
        : {
            registerTool: (tool: Window['__webmcpTools'][number]) => {
              if (window.__webmcpTools.some((t) => t.name === tool.name))
                return Promise.reject(new DOMException('duplicate', 'InvalidStateError'));
              window.__webmcpTools.push(tool);
              return Promise.resolve();
            },
          };
    Object.defineProperty(at === 'document' ? Document.prototype : Navigator.prototype, 'modelContext', {
      get: () => context,
      configurable: true,
    });
  }, where);
}

/** The registered tools as an agent sees them (everything but the callback). */
const toolsOf = (page: Page) =>
  page.evaluate(() =>
    window.__webmcpTools.map(({ execute: _, ...rest }) => JSON.parse(JSON.stringify(rest)) as ToolInfo),
  );

/** Calls a registered tool the way an agent would, with JSON input. */
const call = (page: Page, name: string, input: unknown) =>
  page.evaluate(([n, i]) => window.__webmcpTools.find((t) => t.name === n)!.execute(i), [
    name,
    input,
  ] as const) as Promise<{
    content: { type: string; text: string }[];
    structuredContent?: Record<string, any>;
    isError?: boolean;
  }>;

const isLeadPost = (r: PwRequest) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/lead';
const BOOKING = { ...FULL_BOOKING, message: 'Please show us storage billing and customs documents.' };

test.beforeEach(async ({ page }, info) => {
  await actAs(page, clientFor(info));
});

for (const where of ['document', 'navigator', 'provideContext'] as const) {
  const api = where === 'provideContext' ? 'provideContext' : `${where}.modelContext`;
  test(`the three tools register with valid JSON Schemas (${api})`, async ({ page }) => {
    await standIn(page, where);
    await page.goto('/pricing');
    await expect
      .poll(async () => (await toolsOf(page)).map((t) => t.name))
      .toEqual(['search_site', 'ask_site', 'book_demo']);
    const tools = await toolsOf(page);
    const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
    ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
    for (const tool of tools) {
      // The draft's rules for a name: 1-128 of ASCII alphanumerics, `_`, `-` and `.`; a description is required.
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(ajv.validateSchema(tool.inputSchema), JSON.stringify(ajv.errors)).toBe(true);
      ajv.compile(tool.inputSchema);
    }
    const [search, ask, book] = tools;
    expect(search!.annotations).toEqual({ readOnlyHint: true });
    expect(ask!.annotations).toEqual({ readOnlyHint: true });
    expect(book!.annotations).toEqual({ readOnlyHint: false });
    expect(search!.inputSchema).toMatchObject({
      required: ['query'],
      properties: { limit: { maximum: LIMITS.searchLimit.max } },
    });
    // ask_site takes what POST /api/v1/ask takes, with the contract's limits.
    expect(ask!.inputSchema).toMatchObject({
      required: ['question'],
      additionalProperties: false,
      properties: {
        question: { type: 'string', minLength: ASK_LIMITS.questionMin, maxLength: ASK_LIMITS.questionMax },
        conversation: {
          type: 'array',
          maxItems: ASK_LIMITS.turnsMax,
          items: { properties: { sources: { maxItems: ASK_LIMITS.sourcesMax } } },
        },
      },
    });
    const askInput = ajv.compile(ask!.inputSchema);
    const followUp = {
      question: 'and the Professional one?',
      conversation: [{ question: 'How much is Growth a month?', sources: [{ slug: 'pricing', heading: null }] }],
    };
    expect(askInput(followUp), JSON.stringify(askInput.errors)).toBe(true);
    expect(askInput({ question: 'a' })).toBe(false);
    expect(askInput({ query: 'free trial' })).toBe(false);
    const props = book!.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props).sort()).toEqual(Object.keys(FULL_BOOKING).sort());
    expect(props.segment!.enum).toEqual([...SEGMENTS]);
    expect(props.warehouses!.enum).toEqual([...WAREHOUSES]);
    expect(props.moves!.enum).toEqual([...MOVES]);
    expect(props.name!.maxLength).toBe(LIMITS.lead_fields.name);
    // The booking of the other browser tests is valid input.
    expect(ajv.validate(book!.inputSchema, BOOKING), JSON.stringify(ajv.errors)).toBe(true);
  });
}

test('search_site runs the site search and returns the real results with their URLs', async ({ page, request }) => {
  await standIn(page, 'document');
  await page.goto('/');
  await expect.poll(async () => (await toolsOf(page)).length).toBe(3);
  const result = await call(page, 'search_site', { query: 'storage billing', limit: 5 });
  expect(result.isError).toBeUndefined();
  const api = await (
    await request.get('/api/v1/search?q=storage%20billing&limit=5', { headers: { 'X-Forwarded-For': '10.250.0.1' } })
  ).json();
  expect(api.count).toBeGreaterThan(0);
  expect(result.structuredContent).toEqual(api);
  for (const r of api.results) expect(result.content[0]!.text).toContain(r.url);

  const none = await call(page, 'search_site', { query: 'zzqxj' });
  expect(none.structuredContent).toMatchObject({ count: 0, results: [] });
  const bad = await call(page, 'search_site', { query: 'a' });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toMatch(/^Search failed \(400\)/);
  // Input that is no object at all is an error the agent can read, not a throw.
  const nothing = await call(page, 'search_site', null);
  expect(nothing.isError).toBe(true);
});

test('ask_site asks POST /api/v1/ask and returns its JSON answer; nothing is sent', async ({ page, request }) => {
  await standIn(page, 'document');
  const posts: PwRequest[] = [];
  page.on('request', (r) => isLeadPost(r) && posts.push(r));
  await page.goto('/faq');
  await expect.poll(async () => (await toolsOf(page)).length).toBe(3);

  const question = 'Is there a free trial?';
  const result = await call(page, 'ask_site', { question });
  expect(result.isError).toBeUndefined();
  const answer = result.structuredContent!;
  // The content is the JSON answer itself.
  expect(JSON.parse(result.content[0]!.text)).toEqual(answer);
  const api = await (
    await request.post('/api/v1/ask', { data: { question }, headers: { 'X-Forwarded-For': '10.250.0.2' } })
  ).json();
  // The handoff's label follows the hour, so the rest is compared.
  expect({ ...answer, handoff: null }).toEqual({ ...api, handoff: null });
  expect(answer).toMatchObject({ question, answered: true, mode: 'extractive' });
  expect(answer.answer).toMatch(/30-day (free )?trial/);
  const cited = (answer.sources as { url: string; role: string }[]).filter((s) => s.role === 'answer');
  expect(cited[0]!.url).toMatch(/^http\S+\/[a-z/-]+#[a-z0-9-]+/);

  // A follow-up carries its conversation.
  const followUp = await call(page, 'ask_site', {
    question: 'and the Professional one?',
    conversation: [
      { question: 'How much is Growth a month?', sources: [{ slug: 'pricing', heading: 'Compare plans' }] },
    ],
  });
  expect(followUp.isError).toBeUndefined();
  expect(followUp.structuredContent).toMatchObject({ question: 'and the Professional one?', mode: 'extractive' });

  // No answer on the site: said so, with a person to hand over to; not an error.
  const none = await call(page, 'ask_site', { question: 'What is the airspeed velocity of an unladen swallow?' });
  expect(none.isError).toBeUndefined();
  expect(none.structuredContent).toMatchObject({ answered: false, sources: [] });
  expect(none.structuredContent!.handoff).toMatchObject({ intent: expect.any(String), label: expect.any(String) });

  // Bad input is the endpoint's 400, as an error the agent can read; no object at all too.
  const bad = await call(page, 'ask_site', { question: 'a' });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toMatch(/^Ask failed \(400\): question must be at least 2 characters/);
  const nothing = await call(page, 'ask_site', null);
  expect(nothing.isError).toBe(true);

  await page.waitForLoadState('networkidle');
  expect(posts).toEqual([]);
});

test('book_demo on /demo fills the form for the person to review, and nothing is sent', async ({ page }) => {
  await standIn(page, 'document');
  const posts: PwRequest[] = [];
  page.on('request', (r) => isLeadPost(r) && posts.push(r));
  const before = (await leadLines()).length;
  await page.goto('/demo');
  await expect.poll(async () => (await toolsOf(page)).length).toBe(3);

  const result = await call(page, 'book_demo', BOOKING);
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toMatchObject({ submitted: false, missing: [] });
  expect(result.content[0]!.text).toContain('Nothing has been sent');
  for (const [field, value] of Object.entries(BOOKING)) await expect(page.locator(`#lf-${field}`)).toHaveValue(value);
  await expect(page.locator('#lead-form input[name="intent"]')).toHaveValue('demo');
  await expect(page.locator('#lead-form-status')).toBeEmpty();

  // Bad input fills nothing and says why.
  const bad = await call(page, 'book_demo', { warehouses: 'lots', submit: 'yes' });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toContain('warehouses: one of None, 1, 2-5, 6+');
  expect(bad.content[0]!.text).toContain('submit: not a field of the demo form');
  await expect(page.locator('#lf-warehouses')).toHaveValue(BOOKING.warehouses);

  await page.waitForLoadState('networkidle');
  expect(posts).toEqual([]);
  expect((await leadLines()).length).toBe(before);

  // The person sends it: the form's own script posts the filled values, once.
  await page.getByRole('button', { name: 'Request my demo' }).click();
  await expect(page.locator('#lead-form-status')).toContainText('Your demo request is in');
  expect(posts).toHaveLength(1);
  expect(posts[0]!.postDataJSON()).toMatchObject({ ...BOOKING, intent: 'demo' });
});

test('book_demo on another page opens /demo with the values filled in, and nothing is sent', async ({ page }) => {
  await standIn(page, 'navigator');
  const posts: PwRequest[] = [];
  page.on('request', (r) => isLeadPost(r) && posts.push(r));
  await page.goto('/pricing');
  await expect.poll(async () => (await toolsOf(page)).length).toBe(3);

  const values = { name: BOOKING.name, email: BOOKING.email, moves: BOOKING.moves };
  const [result] = await Promise.all([call(page, 'book_demo', values), page.waitForURL('**/demo')]);
  expect(result.structuredContent).toMatchObject({ submitted: false, filled: ['name', 'email', 'moves'] });
  expect(result.content[0]!.text).toMatch(/^Opening the demo form at http:\/\/127\.0\.0\.1:\d+\/demo/);
  for (const [field, value] of Object.entries(values)) await expect(page.locator(`#lf-${field}`)).toHaveValue(value);
  await expect(page.locator('#lf-company')).toHaveValue('');
  // The values are used once: they are gone from the tab's storage.
  expect(await page.evaluate(() => sessionStorage.getItem('kartage:book_demo'))).toBeNull();
  await page.waitForLoadState('networkidle');
  expect(posts).toEqual([]);
});

test('without a model context: no WebMCP code is fetched, no error, no CSP violation', async ({ page }) => {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  for (const path of ['/', '/pricing', '/faq', '/demo', '/blog/crew-app-offline-mode', '/search']) {
    requests.length = 0;
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => 'modelContext' in document || 'modelContext' in navigator)).toBe(false);
    expect(
      requests.filter((p) => /webmcp/.test(p)),
      path,
    ).toEqual([]);
    expect(
      requests.filter((p) => p.startsWith('/api/')),
      path,
    ).toEqual([]);
    expect(await page.evaluate(() => window.__cspViolations), path).toEqual([]);
    // The JSON-LD block is in the head and parses.
    const ld = await page.locator('script[type="application/ld+json"]').textContent();
    expect(() => JSON.parse(ld!)).not.toThrow();
  }
  expect(errors).toEqual([]);
});
