// Every section link the assistant gives for the dev split's judged questions (eval/ask: the test split is never
// read to make a fix) lands on its section in the rendered page: the anchor names the section's heading, and the text
// fragment's words (#:~:text=start,end) are in that section as Chromium renders it.
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { askSite } from '../../src/core/ask/answer.ts';
import { loadContent } from '../../src/adapters/composition-root.ts';
import { DEV_SETS, questionsOf } from '../../eval/ask/sets.ts';

const index = loadContent(fileURLToPath(new URL('../../build', import.meta.url))).askIndex();
const pricing = PricingSchema.parse(pricingData);
const links = new Map<string, { anchor: string; start?: string; end?: string; heading: string | null }[]>();
for (const q of questionsOf(DEV_SETS)) {
  const r = askSite(
    { index, pricing, origin: 'http://x', now: 0 },
    { question: q.question, conversation: q.conversation },
  );
  for (const s of r.sources) {
    const url = new URL(s.url);
    const [anchor = '', directive] = url.hash.slice(1).split(':~:');
    const [start, end] = directive
      ? directive
          .replace(/^text=/, '')
          .split(',')
          .map(decodeURIComponent)
      : [];
    const list = links.get(url.pathname) ?? [];
    list.push({ anchor: decodeURIComponent(anchor), start, end, heading: s.heading });
    links.set(url.pathname, list);
  }
}

test('every cited section link lands on its section, with its quoted words there', async ({ page }) => {
  test.setTimeout(120_000);
  expect(links.size).toBeGreaterThan(10);
  let fragments = 0;
  for (const [path, list] of links) {
    await page.goto(path);
    const found = await page.evaluate((items) => {
      const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
      const main = document.querySelector('main')!;
      const headings = [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')];
      return items.map((item) => {
        const start = item.anchor ? document.getElementById(item.anchor) : headings[0];
        if (!start) return { ok: false, why: `no element #${item.anchor}` };
        if (item.anchor && squash(start.textContent ?? '') !== squash(item.heading ?? '')) {
          return { ok: false, why: `#${item.anchor} is "${start.textContent}", not "${item.heading}"` };
        }
        const after = headings.filter((h) => start.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
        // The intro runs to the first h2; a section to the next heading of any level.
        const next = item.anchor ? after[0] : after.find((h) => h.tagName === 'H2');
        const range = document.createRange();
        range.setStartBefore(start);
        if (next) range.setEndBefore(next);
        else range.setEndAfter(main.lastChild!);
        const text = squash(range.toString());
        if (item.start && !text.includes(squash(item.start))) return { ok: false, why: `"${item.start}" not in it` };
        // As a browser reads textStart,textEnd: the first end after the start (an earlier sentence may end alike).
        const from = text.indexOf(squash(item.start ?? '')) + squash(item.start ?? '').length;
        if (item.end && text.indexOf(squash(item.end), from) < 0) {
          return { ok: false, why: `"${item.end}" not after "${item.start}"` };
        }
        return { ok: true, why: '' };
      });
    }, list);
    for (const [i, f] of found.entries()) expect(f.ok, `${path}#${list[i]!.anchor} ${f.why}`).toBe(true);
    fragments += list.filter((l) => l.start).length;
  }
  expect(fragments).toBeGreaterThan(50);
});
