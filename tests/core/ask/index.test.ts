// The one section index: built from pages, written and loaded back, read section by section.
import { describe, expect, it } from 'vitest';
import { AskIndex, loadAskIndex } from '../../../src/core/ask/index.ts';
import { assembleAskIndex } from '../../../src/core/ask-indexer/assemble.ts';
import { PAGES, siteIndex } from './site.ts';

const index = await siteIndex();

describe('the section index', () => {
  it('holds every headed section and the intro of each page, in page order', () => {
    expect(index.sectionsOf('faq').map((s) => index.heading(s))).toEqual([
      null,
      'Is there a free trial?',
      'Does the crew app work offline?',
      'Where is our data stored?',
    ]);
    expect(index.pageOf(index.sectionsOf('pricing')[0]!)).toMatchObject({ slug: 'pricing', title: 'Pricing' });
  });

  it("reads a section's text as a range of its page's markdown, and its sentences as ranges of that", () => {
    const s = index.sectionsOf('faq')[1]!;
    const text = index.text(s);
    expect(text.startsWith('## Is there a free trial?')).toBe(true);
    const r = index.sentences(s);
    expect(text.slice(r[0], r[1])).toBe('Yes.');
  });

  it('round-trips through the files the build writes', () => {
    const { data, pack } = assembleAskIndex(PAGES);
    const loaded = loadAskIndex(
      JSON.stringify(data),
      (slug) => PAGES.find((p) => p.slug === slug)?.markdown,
      (start, length) => pack.slice(start, start + length),
    );
    expect(loaded.sectionCount).toBe(data.sections.length);
    expect(loaded.df('trial')).toBeGreaterThan(0);
    expect(loaded.text(1)).toBe(index.text(1));
  });

  it('keeps written questions as their sections’ expansions, and questions no section answers as gaps', async () => {
    const gapIndex = await siteIndex([{ question: 'is there a status page?', sections: [] }]);
    expect(gapIndex.data.gaps).toEqual(['status page']);
    const offline = index.sectionsOf('faq')[2]!;
    expect(index.data.expansions[offline]).toContain('signal');
  });

  it('refuses a file of another format, and a sentence-model table of other sections', () => {
    const { data, pack } = assembleAskIndex(PAGES);
    expect(() =>
      loadAskIndex(
        JSON.stringify({ ...data, format: 'x' }),
        () => '',
        () => pack,
      ),
    ).toThrow(/format/);
    const table = { questionStart: new Uint32Array(3) } as never;
    expect(
      new AskIndex(
        data,
        () => '',
        () => '',
        () => table,
      ).embedding,
    ).toBeUndefined();
  });
});
