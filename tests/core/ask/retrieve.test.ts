// Stage 4, retrieve: BM25F over the section index, checked against the formula worked out here on its own.
import { describe, expect, it } from 'vitest';
import { termGroups } from '../../../src/core/ask/analyse.ts';
import { ASK_FIELDS } from '../../../src/core/ask/index.ts';
import { askIndexOf } from '../../../src/core/ask-indexer/assemble.ts';
import { retrieve } from '../../../src/core/ask/retrieve.ts';
import { analyze } from '../../../src/core/search/analyze.ts';
import { idfOf, K1 } from '../../../src/core/search/bm25f.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const name = (s: number) => `${index.pageOf(s).slug}#${index.heading(s) ?? ''}`;
const groups = (q: string) => termGroups(q, index, index.lexicon);

describe('retrieve', () => {
  it('finds the section that holds the words, best first', () => {
    expect(name(retrieve(index, groups('storage billing vault'), 3)[0]!.section)).toBe('product/storage#Billing runs');
    expect(name(retrieve(index, groups('crew app offline'), 3)[0]!.section)).toBe(
      'faq#Does the crew app work offline?',
    );
  });

  it("finds a section by its expansions: a written question's words", () => {
    expect(name(retrieve(index, groups('no signal out bush'), 1)[0]!.section)).toBe(
      'faq#Does the crew app work offline?',
    );
  });

  it('scores a one-word question as BM25F does (idf times the saturated weighted field frequency)', () => {
    const [best] = retrieve(index, groups('scanner'), 1);
    const section = best!.section;
    // The lot tracking section holds "scanner" once in its text; its heading, title and expansions do not.
    const text = analyze(index.text(section).split('\n').slice(1).join('\n'));
    const averages = index.data.averages;
    const { weight, b } = ASK_FIELDS.text;
    const tf = (weight * 1) / (1 - b + (b * text.length) / averages[0]!);
    const expected = idfOf(index.sectionCount, index.df('scanner')) * (tf / (K1 + tf));
    // Postings keep the saturation in 63 steps: equal within one step.
    expect(Math.abs(best!.bm25 - expected)).toBeLessThanOrEqual(idfOf(index.sectionCount, 1) / 63);
  });

  it('adds the groups, a group scoring by its best term, an alternative worth less than the typed word', () => {
    const [both] = retrieve(index, groups('storage billing'), 1);
    const [one] = retrieve(index, groups('billing'), 1);
    expect(both!.bm25).toBeGreaterThan(one!.bm25);
    const typed = retrieve(index, [{ word: 'x', terms: ['vault'], weight: 1, unknown: false }], 1)[0]!;
    const alternative = retrieve(index, [{ word: 'x', terms: ['nothing', 'vault'], weight: 1, unknown: false }], 1)[0]!;
    expect(alternative.bm25).toBeCloseTo(typed.bm25 * 0.8, 5);
  });

  it('scores a group by its best term in each section, and a lighter group for less', () => {
    const group = (terms: string[], weight = 1) => [{ word: 'x', terms, weight, unknown: false }];
    const billing = retrieve(index, group(['vault']), 1)[0]!.section;
    const scoreIn = (terms: string[], weight?: number) =>
      retrieve(index, group(terms, weight), 50).find((c) => c.section === billing)!.bm25;
    const [vault, storage] = [scoreIn(['vault']), scoreIn(['storag'])];
    expect(scoreIn(['vault', 'storag'])).toBeCloseTo(Math.max(vault, 0.8 * storage), 5);
    expect(scoreIn(['storag', 'vault'])).toBeCloseTo(Math.max(storage, 0.8 * vault), 5);
    expect(scoreIn(['vault'], 0.5)).toBeCloseTo(vault * 0.5, 5);
  });

  it('lists each section found once, with a score, however many groups it holds', () => {
    const found = retrieve(index, groups('storage billing vault lot scanner trial'), 50);
    expect(new Set(found.map((c) => c.section)).size).toBe(found.length);
    expect(found.every((c) => c.bm25 > 0)).toBe(true);
    expect(found.map((c) => c.bm25)).toEqual(found.map((c) => c.bm25).sort((a, b) => b - a));
  });

  it('puts the earlier of two sections scored alike first', () => {
    const page = (slug: string) => ({
      slug,
      title: 'Depots | Kartage',
      url: `https://k.test/${slug}`,
      markdown: '# Depots\n\n## Depots\n\nEvery depot has a dock and a forklift.',
    });
    const twins = askIndexOf([page('a'), page('b'), page('c')]);
    const found = retrieve(twins, [{ word: 'forklift', terms: ['forklift'], weight: 1, unknown: false }], 2);
    expect(found.map((c) => twins.pageOf(c.section).slug)).toEqual(['a', 'b']);
    expect(found[0]!.bm25).toBe(found[1]!.bm25);
    // Found in the other order, by two words as rare and as frequent: still the earlier first.
    const depot = (slug: string, thing: string) => ({
      ...page(slug),
      markdown: `# Depots\n\n## Depots\n\nEvery depot has ${thing}.`,
    });
    const pair = askIndexOf([depot('a', 'a forklift'), depot('b', 'a pallet')]);
    const word = (w: string) => ({ word: w, terms: [w], weight: 1, unknown: false });
    const both = retrieve(pair, [word('pallet'), word('forklift')], 2);
    expect(both.map((c) => pair.pageOf(c.section).slug)).toEqual(['a', 'b']);
    expect(both[0]!.bm25).toBe(both[1]!.bm25);
  });

  it('keeps at most k, and finds nothing for words on no page', () => {
    expect(retrieve(index, groups('storage trial crew data'), 2)).toHaveLength(2);
    expect(retrieve(index, groups('hubspot'), 5)).toEqual([]);
  });

  it('finds none for k 0, and leaves no score behind for the next question', () => {
    const before = retrieve(index, groups('storage billing vault'), 10);
    expect(retrieve(index, groups('storage billing vault crew app'), 0)).toEqual([]);
    expect(retrieve(index, groups('storage billing vault'), 10)).toEqual(before);
  });
});
