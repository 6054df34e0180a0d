/**
 * The company's facts (src/contract/company.ts) are defined once and the published copy agrees with them: the
 * demo's length in the pages' copy (content/pages) and on every rendered page and markdown twin (dist/, built by
 * `node server/build-check.ts`) is COMPANY.demoMinutes; the contact page and every rendered page's footer give
 * COMPANY's phone and sales email; and no source file writes one of these facts of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPANY } from '../../src/contract/company.ts';
import { leadAnswerPage } from '../../src/http/form-post.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

/** The files under `dir` (relative to the project) whose names end with one of `endings`. */
const filesOf = (dir: string, endings: readonly string[]) =>
  readdirSync(join(PROJECT_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => endings.some((e) => f.endsWith(e)))
    .map((f) => join(dir, f));

/** Every length a text gives the demo: "45-minute walkthrough", "45-minute session", "45-minute Kartage demo". */
const demoLengths = (text: string) =>
  [...text.matchAll(/\b(\d+)-minute (walkthrough(?! webinar)|session|Kartage (walkthrough|demo))/g)].map((m) =>
    Number(m[1]),
  );

/** Each file's demo lengths, for the files that give one. */
const statedIn = (files: readonly string[]) =>
  files.flatMap((f) => {
    const lengths = demoLengths(readFileSync(join(PROJECT_ROOT, f), 'utf8'));
    return lengths.length ? [{ f, lengths }] : [];
  });

describe('the demo length, defined once', () => {
  it('the pages of content/ give the demo the length of the definition, each time they give one', () => {
    const stated = statedIn(filesOf('content/pages', ['.md']));
    expect(stated.map((s) => s.f)).toEqual(
      expect.arrayContaining(['content/pages/demo.md', 'content/pages/contact.md']),
    );
    for (const { f, lengths } of stated)
      expect(
        lengths.every((n) => n === COMPANY.demoMinutes),
        f,
      ).toBe(true);
  });

  it('every rendered page and markdown twin gives the length of the definition, the call to action included', () => {
    const stated = statedIn(filesOf('dist', ['.html', '.md']));
    expect(stated.map((s) => s.f)).toEqual(expect.arrayContaining(['dist/demo.html', 'dist/pricing.html']));
    for (const { f, lengths } of stated)
      expect(
        lengths.every((n) => n === COMPANY.demoMinutes),
        f,
      ).toBe(true);
  });

  it('the form page after a demo request says the length of the definition', async () => {
    const page = await leadAnswerPage({ kind: 'accepted' }, { name: 'Sam', intent: 'demo' }).text();
    expect(demoLengths(page)).toEqual([COMPANY.demoMinutes]);
  });

  it('no source file writes a length of its own: each reads COMPANY.demoMinutes', () => {
    const written = filesOf('src', ['.ts', '.astro']).filter((f) =>
      /\b\d+-minute\b/.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')),
    );
    expect(written).toEqual([]);
  });
});

describe('the contact details, defined once', () => {
  const contact = readFileSync(join(PROJECT_ROOT, 'content/pages/contact.md'), 'utf8');
  const phoneLink = `tel:${COMPANY.phone.replace(/\s/g, '')}`;

  it("the contact page's copy gives the phone number and the sales and support addresses", () => {
    for (const fact of [COMPANY.phone, COMPANY.salesEmail, COMPANY.supportEmail]) expect(contact).toContain(fact);
  });

  it("every rendered page's footer links the phone number and the sales address", () => {
    for (const f of filesOf('dist', ['.html'])) {
      const footer = readFileSync(join(PROJECT_ROOT, f), 'utf8').match(/<p class="footer-contact">.*?<\/p>/)?.[0];
      expect(footer, f).toBe(
        `<p class="footer-contact"><a href="${phoneLink}">${COMPANY.phone}</a><br>` +
          `<a href="mailto:${COMPANY.salesEmail}">${COMPANY.salesEmail}</a></p>`,
      );
    }
  });

  it('no source file outside the chat writes the phone number or an address of its own', () => {
    const facts = [COMPANY.phone, phoneLink.slice(4), COMPANY.salesEmail, COMPANY.supportEmail];
    const written = filesOf('src', ['.ts', '.astro'])
      .filter((f) => f !== join('src', 'contract', 'company.ts') && !f.startsWith(join('src', 'core', 'ask')))
      .filter((f) => facts.some((fact) => readFileSync(join(PROJECT_ROOT, f), 'utf8').includes(fact)));
    expect(written).toEqual([]);
  });
});
