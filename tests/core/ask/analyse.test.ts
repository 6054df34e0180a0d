// Stage 1, analyse: the lexicon, bounded spelling correction, parts and the earlier turn as context.
import { describe, expect, it } from 'vitest';
import { ANALYSE_BOUNDS, analyse, correct, splitParts, termGroups } from '../../../src/core/ask/analyse.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const { lexicon } = index;
const words = (text: string) => termGroups(text, index, lexicon).map((g) => g.word);

describe('term groups', () => {
  it('read chat speak as meant, drop filler and stop words, and keep each term once', () => {
    expect(words('hi mate, pls tell me abt storage billing, billing!')).toEqual(['storage', 'billing']);
    expect(words('u r gr8')).toEqual(['gr8']);
  });

  it('mark a word no section holds as unknown, and leave contact details and links out', () => {
    const groups = termGroups('hubspot storage jo@example.com https://x.example/a 0400 000 111', index, lexicon);
    expect(groups.map((g) => [g.word, g.unknown])).toEqual([
      ['hubspot', true],
      ['storage', false],
    ]);
  });

  it('give an abbreviation on the synonym list its long form as alternatives', () => {
    const sso = termGroups('sso', index, lexicon)[0]!;
    expect(sso.terms.slice(1)).toEqual(expect.arrayContaining(['singl', 'sign']));
  });

  it('correct a misspelt word to the site word one edit away, a short one only by a swap', () => {
    expect(correct('stroage', index)).toBe('storage');
    expect(correct('trail', index)).toBe('trial');
    expect(correct('lot', index)).toBeUndefined();
    expect(words('crew app stroage')).toEqual(['crew', 'app', 'storage']);
  });

  it('bound the work: a word past WORD_MAX letters is cut, at most GROUPS_MAX groups are read', () => {
    const long = 'x'.repeat(500);
    expect(termGroups(long, index, lexicon)[0]!.word).toHaveLength(ANALYSE_BOUNDS.WORD_MAX);
    const many = Array.from({ length: 200 }, (_, i) => `w${i}q`).join(' ');
    expect(termGroups(many, index, lexicon)).toHaveLength(ANALYSE_BOUNDS.GROUPS_MAX);
  });
});

describe('parts', () => {
  it('cut a message at a second question, a semicolon, or "and" before a question word', () => {
    expect(splitParts('is there a trial? where is our data stored?', lexicon)).toEqual([
      'is there a trial?',
      'where is our data stored?',
    ]);
    expect(splitParts('is there a trial and does the app work offline', lexicon)).toEqual([
      'is there a trial',
      'does the app work offline',
    ]);
    expect(splitParts('storage billing and lot tracking', lexicon)).toEqual(['storage billing and lot tracking']);
  });

  it('a later part leans on the first part’s words, weighed less', () => {
    const plan = analyse('does storage do lot tracking? and what plan is it on?', [], index, lexicon);
    expect(plan.parts).toHaveLength(2);
    expect(plan.parts[1]!.lean.map((g) => g.word)).toEqual(expect.arrayContaining(['storage']));
    expect(plan.parts[1]!.lean.every((g) => g.weight < 1)).toBe(true);
  });
});

describe('the earlier turn', () => {
  const earlier = [
    { question: 'is there a free trial?', sources: [{ slug: 'faq', heading: 'Is there a free trial?' }] },
  ];

  it('is context a follow-up leans on: its words, weighed less, and the pages it cited', () => {
    const plan = analyse('and for Professional?', earlier, index, lexicon);
    expect(plan.followUp).toBe(true);
    expect(plan.context.map((g) => g.word)).toEqual(['free', 'trial']);
    expect(plan.context.every((g) => g.weight === 0.5)).toBe(true);
    expect([...plan.cited]).toEqual(['faq']);
    expect(plan.earlier).toBe('is there a free trial?');
  });

  it('weighs little beside a question that stands on its own', () => {
    const plan = analyse('where is customer data stored and backed up in australia', earlier, index, lexicon);
    expect(plan.followUp).toBe(false);
    expect(plan.context.every((g) => g.weight < 0.5)).toBe(true);
  });
});
