// The one section index: built from pages, written and loaded back, read section by section.
import { describe, expect, it } from 'vitest';
import { AskIndex, bodyOf, loadAskIndex } from '../../../src/core/ask/index.ts';
import { kept } from '../../../src/core/kept.ts';
import { askIndexOf, assembleAskIndex } from '../../../src/core/ask-indexer/assemble.ts';
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

  it("gives a section's anchor when its rendered heading has one, and no page's sections for an unknown slug", () => {
    const anchored = askIndexOf([
      { ...PAGES[0]!, headings: [{ depth: 2, id: 'trial', text: 'Is there a free trial?' }] },
    ]);
    expect(anchored.sectionsOf('faq').map((s) => anchored.anchor(s))).toEqual([
      undefined,
      'trial',
      undefined,
      undefined,
    ]);
    expect(anchored.sectionsOf('blog')).toEqual([]);
  });

  it('reads a page that cannot be read as empty text, and a section without sentences as none', () => {
    const { data, pack } = assembleAskIndex(PAGES);
    const rows = data.sections.map((row, i) => (i === 1 ? ([...row.slice(0, 6), 0] as typeof row) : row));
    const read = new AskIndex(
      { ...data, sections: rows },
      () => undefined,
      (start, length) => pack.slice(start, start + length),
      () => undefined,
    );
    expect([read.text(0), read.text(1)]).toEqual(['', '']);
    expect([...read.sentences(1)]).toEqual([]);
    expect(read.sentences(2).length).toBeGreaterThan(0);
  });

  it('reads the sentence-model table once, and keeps it when it has a row per section', () => {
    const { data } = assembleAskIndex(PAGES);
    let loads = 0;
    const table = { questionStart: new Uint32Array(data.sections.length + 1) } as never;
    const loaded = new AskIndex(
      data,
      () => '',
      () => '',
      () => {
        loads++;
        return table;
      },
    );
    expect([loaded.embedding, loaded.embedding]).toEqual([table, table]);
    expect(loads).toBe(1);
  });

  it("reads a section's body without its heading line or link targets", () => {
    expect(bodyOf('## Links\nSee [the price list](/pricing) and [plans](https://k.test/p).', true)).toBe(
      'See [the price list] and [plans].',
    );
    expect(bodyOf('Intro with [a link](/x)', false)).toBe('Intro with [a link]');
  });

  it('keeps at most `most` values, the oldest dropped first, each made once', () => {
    const map = new Map<string, number>();
    let made = 0;
    const get = (key: string) => kept(map, key, () => ++made, 2);
    expect([get('a'), get('b'), get('a'), get('c')]).toEqual([1, 2, 1, 3]);
    expect([...map.keys()]).toEqual(['b', 'c']);
    expect(get('a')).toBe(4);
  });
});
