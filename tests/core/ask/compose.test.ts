// Stage 7, compose: quotes (a "Yes." only for the question its heading asks), links to the section, runs of text.
import { describe, expect, it } from 'vitest';
import { termGroups } from '../../../src/core/ask/analyse.ts';
import {
  joinQuotes,
  partUnanswered,
  quotesFrom,
  relatedOf,
  sourceOf,
  textFragment,
  unknownWords,
} from '../../../src/core/ask/compose.ts';
import * as compose from '../../../src/core/ask/compose.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const section = (slug: string, heading: string) => index.sectionsOf(slug).find((s) => index.heading(s) === heading)!;
const trial = section('faq', 'Is there a free trial?');
const quote = (question: string, named: string[] = []) =>
  quotesFrom(index, trial, termGroups(question, index, index.lexicon), named).map((q) => q.plain);

describe('quotes', () => {
  it('keep a leading "Yes." when the heading asks what the visitor asked', () => {
    expect(quote('is there a free trial?')[0]).toBe('Yes.');
  });

  it('start at the sentence that answers when the visitor asks something the heading does not', () => {
    const q = quote('is there a free trial for the professional plan?', ['professional']);
    expect(q).not.toContain('Yes.');
    expect(q).toContain('Professional and Enterprise start with a scoped proposal instead.');
  });

  it('quote a named plan with what the section says of it', () => {
    const q = quote('free trial on growth', ['growth']);
    expect(q.some((s) => s.includes('Growth'))).toBe(true);
  });

  it('join sentences that follow each other into one run of the section, a substring of it', () => {
    const qs = quotesFrom(index, trial, termGroups('is there a free trial?', index, index.lexicon), []);
    const text = joinQuotes(index, qs);
    expect(index.text(trial)).toContain(text);
  });

  it("quote table rows under their header row, as one table of the section's own lines", () => {
    // Any table of the site: its rows quoted alone would lose what their columns mean ("$45": a price ex GST?).
    const tabled = index.sectionsOf('pricing').find((s) => index.sentences(s).some((v, i) => i % 3 === 2 && v === 2))!;
    const rows = compose.sentencesOf(index, tabled).filter((q) => q.row);
    const text = joinQuotes(index, [rows.at(-1)!, rows.at(-2)!].reverse());
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(index.text(tabled)).toContain(line);
    expect(index.text(tabled).indexOf(lines[0]!)).toBeLessThan(index.text(tabled).indexOf(lines[2]!));
    expect(lines[1]).toMatch(/^\|[\s:|-]+\|$/);
    expect(lines.slice(2)).toEqual([rows.at(-2)!, rows.at(-1)!].map((q) => index.text(tabled).slice(q.start, q.end)));
  });
});

describe('links and words', () => {
  it("land on the section: its anchor and the quoted sentence's text fragment", () => {
    expect(textFragment('Short one.')).toBe(':~:text=Short%20one.');
    expect(textFragment('one two three four five six seven eight nine ten')).toBe(
      ':~:text=one%20two%20three%20four,seven%20eight%20nine%20ten',
    );
    const s = sourceOf(index, trial, 'answer', { section: trial, start: 0, end: 4, plain: 'Yes.', row: false });
    expect(s).toMatchObject({ slug: 'faq', heading: 'Is there a free trial?', role: 'answer' });
    expect(s.url).toBe('https://kartage.test/faq#:~:text=Yes.');
  });

  it('name the words of a question no page has, as the visitor typed them', () => {
    const question = 'Is Kartage SOC 2 and storage certified?';
    expect(unknownWords(question, termGroups(question, index, index.lexicon))).toEqual(['SOC', 'certified']);
    expect(partUnanswered('SOC')).toBe("The Kartage website doesn't answer “SOC”, so I won't guess.");
  });

  it('relate only candidates scored near the best', () => {
    const ranked = [10, 8, 6.5, 1].map((score, section) => ({ section, bm25: 0, features: [], score }));
    expect(relatedOf(ranked, new Set([0]), 3).map((r) => r.section)).toEqual([1]);
  });
});
