/**
 * The assistant's search hints (src/build/ask-hints.json, src/build/ask-hints.ts): each names a section the built
 * site has (a renamed heading fails here instead of silently losing its hints), and the build indexes every word
 * of a section's hints with that section.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/adapters/deps.ts';
import { ASK_HINTS, AskHintsSchema, askHintsOf, headingKey } from '../../src/build/ask-hints.ts';
import { eachWord, isStopWord, termOf } from '../../src/core/search/analyze.ts';
import data from '../../src/build/ask-hints.json' with { type: 'json' };
import { PROJECT_ROOT } from '../helpers/server.ts';

const index = loadContent(join(PROJECT_ROOT, 'build')).askIndex();
const sectionId = new Map<string, number>();
for (let s = 0; s < index.sectionCount; s++) {
  const [page, heading] = index.data.sections[s]!;
  sectionId.set(`${index.data.pages[page]!.slug}#${headingKey(heading)}`, s);
}
const idOf = (slug: string, heading: string | null) => sectionId.get(`${slug}#${headingKey(heading)}`);

describe('the search hints', () => {
  it('are lower-case phrases, at most 12 a section, each section named once', () => {
    expect(AskHintsSchema.safeParse(data).success).toBe(true);
    expect(AskHintsSchema.safeParse([{ slug: 'faq', heading: null, hints: ['Upper Case'] }]).success).toBe(false);
    const keys = ASK_HINTS.map((h) => `${h.slug}#${headingKey(h.heading)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('each names a section the built site has', () => {
    expect(ASK_HINTS.filter((h) => idOf(h.slug, h.heading) === undefined).map((h) => `${h.slug}#${h.heading}`)).toEqual(
      [],
    );
  });

  it("the build indexes every word of a section's hints with that section", () => {
    const missing: string[] = [];
    for (const h of ASK_HINTS) {
      const id = idOf(h.slug, h.heading)!;
      for (const hint of h.hints) {
        eachWord(hint, (w) => {
          if (isStopWord(w)) return;
          const list = index.postings(termOf(w)) ?? new Int32Array();
          let found = false;
          for (let i = 0; i < list.length; i += 3) if (list[i] === id) found = true;
          if (!found) missing.push(`${h.slug}#${h.heading}: ${w}`);
        });
      }
    }
    expect(missing).toEqual([]);
  });

  it('a page or section without hints has none; curled and straight quotes name the same heading', () => {
    expect(askHintsOf('no/such-page')(null)).toEqual([]);
    const curled = ASK_HINTS.find((h) => h.heading?.includes("'"))!;
    expect(askHintsOf(curled.slug)(curled.heading!.replace(/'/g, '’'))).toBe(curled.hints);
  });
});
