// Another website cannot create leads from its visitors' browsers: a page served from another
// loopback origin tries every way a browser can post to /api/lead (fetch JSON with CORS, no-cors text, form and
// JSON bodies, a form submission, a beacon) and no lead is created. The site's own forms and the chat are covered
// by lead-form.spec.ts and chat.spec.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from './env.ts';
import { leadLines } from './helpers.ts';

const LEAD = { name: 'Mallory Cross', email: 'mallory@evil.example', company: 'Evil Removals' };

/** The other site's page: each attempt reports how it ended; `window.done` resolves when all have. */
const attackerPage = (target: string) => `<!doctype html><html><head><title>Other site</title></head><body>
<iframe name="sink" id="sink"></iframe>
<form id="f" method="post" action="${target}/api/lead" target="sink">
  <input name="name" value="${LEAD.name}"><input name="email" value="${LEAD.email}">
</form>
<script>
const lead = ${JSON.stringify(JSON.stringify(LEAD))};
const url = ${JSON.stringify(`${target}/api/lead`)};
const outcome = (p) => p.then((r) => 'answered ' + (r.type === 'opaque' ? 'opaque' : r.status), (e) => 'failed ' + e.name);
window.attempts = {};
window.done = (async () => {
  attempts.corsJson = await outcome(fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: lead }));
  attempts.corsJsonKey = await outcome(fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'x1' }, body: lead }));
  attempts.noCorsText = await outcome(fetch(url, { method: 'POST', mode: 'no-cors', body: lead }));
  attempts.noCorsJsonType = await outcome(fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: lead }));
  attempts.noCorsForm = await outcome(fetch(url, { method: 'POST', mode: 'no-cors', body: new URLSearchParams(JSON.parse(lead)) }));
  attempts.noCorsMultipart = await outcome(fetch(url, { method: 'POST', mode: 'no-cors', body: (() => { const f = new FormData(); for (const [k, v] of Object.entries(JSON.parse(lead))) f.append(k, v); return f; })() }));
  attempts.beacon = navigator.sendBeacon(url, new Blob([lead], { type: 'text/plain' })) ? 'queued' : 'refused';
  attempts.form = await new Promise((resolve) => {
    document.getElementById('sink').addEventListener('load', () => resolve('loaded'), { once: true });
    document.getElementById('f').submit();
  });
  return attempts;
})();
</script></body></html>`;

let other: Server;
let otherOrigin: string;

test.beforeAll(async () => {
  other = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(attackerPage(E2E_BASE_URL));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  // Another port is another origin (the site is on E2E_BASE_URL's).
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

test('a page on another origin creates no lead, by any kind of post', async ({ page }) => {
  const before = (await leadLines()).length;
  const answers: { status: number; origin: string | undefined }[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/lead' && r.request().method() === 'POST')
      answers.push({ status: r.status(), origin: r.request().headers().origin });
  });
  await page.goto(otherOrigin);
  const attempts = await page.evaluate(() => (window as unknown as { done: Promise<Record<string, string>> }).done);
  // The CORS JSON posts never leave the browser (the preflight allows no other origin).
  expect(attempts.corsJson).toBe('failed TypeError');
  expect(attempts.corsJsonKey).toBe('failed TypeError');
  expect(attempts.form).toBe('loaded');
  // Wait for the beacon's answer (it is sent after the page asked for it), bounded.
  await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
  // Every post that reached the server was refused with 400.
  for (const a of answers) expect(a.status, JSON.stringify(a)).toBe(400);
  expect((await leadLines()).length).toBe(before);
  expect((await leadLines()).filter((l) => l.lead.email === LEAD.email)).toEqual([]);
});
