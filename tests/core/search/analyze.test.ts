import { describe, expect, it } from 'vitest';
import { analyze, analyzeSynonyms, auSpelling, isStopWord, termOf, words } from '../../../src/core/search/analyze.ts';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };

const synonyms = { entries: lexicon.synonyms };

describe('the search analyzer', () => {
  it('stems English word forms to one term (Porter2)', () => {
    for (const group of [
      ['reduce', 'reduces', 'reducing', 'reduced'],
      ['survey', 'surveys', 'surveying', 'surveyed'],
      ['quote', 'quotes', 'quoting', 'quoted'],
      ['schedule', 'schedules', 'scheduling'],
      ['label', 'labels', 'labelled', 'labelling', 'labeled'],
      ['story', 'stories'],
    ])
      expect(new Set(group.map(termOf)), group.join()).toHaveProperty('size', 1);
    expect(termOf('customs')).not.toBe(termOf('customers'));
  });

  it('folds US spellings onto Australian ones', () => {
    const pairs = [
      ['utilization', 'utilisation'],
      ['organizing', 'organising'],
      ['containerized', 'containerised'],
      ['analyze', 'analyse'],
      ['center', 'centre'],
      ['centered', 'centred'],
      ['meters', 'metres'],
      ['kilometer', 'kilometre'],
      ['color', 'colour'],
      ['favorite', 'favourite'],
      ['defense', 'defence'],
      ['license', 'licence'],
      ['catalog', 'catalogue'],
      ['program', 'programme'],
      ['harbor', 'harbour'],
    ];
    for (const [us, au] of pairs) expect(termOf(us!), us).toBe(termOf(au!));
    for (const w of ['size', 'prize', 'seize', 'citizen', 'for', 'door', 'motor', 'water'])
      expect(auSpelling(w), w).toBe(w);
  });

  it('drops stop words and single letters, keeps topic words', () => {
    expect(analyze('How do I reduce the damage claims?')).toEqual(['reduc', 'damag', 'claim']);
    expect(analyze('e-signature')).toEqual(['signatur']);
    for (const w of ['the', 'how', 'my', 'does', 'a', 's', 'offer']) expect(isStopWord(w), w).toBe(true);
    for (const w of ['storage', 'use', 'report', 'new', 'first', 'myob', 'support'])
      expect(isStopWord(w), w).toBe(false);
  });

  it('reads a thousands separator as part of its number ("$2,500" is the 2500 a visitor types)', () => {
    expect(analyze('a fee of $2,500 and 10,000 pages')).toEqual(['fee', '2500', '10000', 'page']);
    expect(words('$1,890.50 a month')).toEqual(['1890', '50', 'a', 'month']);
    // Not a thousands group: a list, a longer run, a comma and a space.
    expect(words('1,2,3 12,3456 5, 000 2,50')).toEqual(['1', '2', '3', '12', '3456', '5', '000', '2', '50']);
  });

  it('folds case, accents and superscripts', () => {
    expect(words('Crème Brûlée, m³ and ß')).toEqual(['creme', 'brulee', 'm3', 'and', 'ss']);
  });

  it('analyzes the synonym list: every entry is one term with long forms that analyze to something', () => {
    const analyzed = analyzeSynonyms(synonyms.entries);
    expect(analyzed.length).toBe(synonyms.entries.length);
    const map = new Map(analyzed);
    expect(map.get('sso')).toEqual([['singl', 'sign']]);
    expect(map.get('cor')).toEqual([['chain', 'respons']]);
    expect(map.get('m3')).toEqual([['cubic', 'metr']]);
  });
});
