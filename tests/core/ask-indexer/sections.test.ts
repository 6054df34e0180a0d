// A page's sections and their sentences (src/core/ask-indexer/sections.ts): what an answer quotes and links to.
import { describe, expect, it } from 'vitest';
import { plainOf } from '../../../src/core/markdown-plain.ts';
import { sentencesOf, splitSections, splitSentences } from '../../../src/core/ask-indexer/sections.ts';

const sentences = (text: string) => splitSentences(text).map(({ start, end }) => text.slice(start, end));

describe('sentences', () => {
  it('splits on full stops but not after abbreviations, inside amounts or inside links', () => {
    expect(
      sentences('Use a dolly, e.g. for pianos. Kartage Pty Ltd is in Collingwood. It costs $1,890.50 a month.'),
    ).toEqual(['Use a dolly, e.g. for pianos.', 'Kartage Pty Ltd is in Collingwood.', 'It costs $1,890.50 a month.']);
    expect(sentences('See [the guide. It helps](https://x.example/a.b). Then call.')).toEqual([
      'See [the guide. It helps](https://x.example/a.b).',
      'Then call.',
    ]);
    expect(sentences('**Never log out. Really.** Restarting is fine.')).toEqual([
      '**Never log out. Really.** Restarting is fine.',
    ]);
  });

  it('splits where a lower-case word starts the next sentence after a number', () => {
    expect(sentences('Annual billing takes two months off. 30-day trial on Starter and Growth.')).toEqual([
      'Annual billing takes two months off.',
      '30-day trial on Starter and Growth.',
    ]);
    expect(sentences('Version 2.5 ships today.')).toEqual(['Version 2.5 ships today.']);
  });

  it('takes list items and table rows as units, skips fences, labels and header rows', () => {
    const text = [
      'Intro line here.',
      '',
      '- **One:** first item.',
      '- Two items here',
      '',
      '| A | B |',
      '|---|---|',
      '| x | $1 |',
      '',
      '```',
      'code. here.',
      '```',
      '',
      'Label',
    ].join('\n');
    const units = sentencesOf(text, false);
    expect(units.map((u) => text.slice(u.start, u.end))).toEqual([
      'Intro line here.',
      '**One:** first item.',
      'Two items here',
      '| A | B |',
      '| x | $1 |',
    ]);
    expect(units[3]).toMatchObject({ row: true, header: true });
    expect(units[4]).toMatchObject({ row: true });
    expect(units[4]!.header).toBeUndefined();
  });
});

describe('labels', () => {
  it("a post's date and author line is a label, never a sentence to quote", () => {
    const text =
      '### [An article](https://x.example/a)\n\n20 October 2026 · Tom Keane\n\nWhy the site does what it does.';
    expect(sentencesOf(text, true).map((u) => text.slice(u.start, u.end))).toEqual(['Why the site does what it does.']);
  });
});

describe('sections', () => {
  const md = [
    '# Title',
    '',
    'Eyebrow',
    '',
    'Lead sentence here.',
    '',
    '## First',
    '',
    'One. Two.',
    '',
    '### Sub',
    '',
    'Three.',
    '',
    '#### Deep',
    '',
    'Four.',
    '',
    '## Empty',
    '',
    '## Last',
    '',
    'Five.',
  ].join('\n');
  const sections = splitSections('p', md, [
    { depth: 2, id: 'first', text: 'First' },
    { depth: 3, id: 'sub', text: 'Sub' },
    { depth: 2, id: 'empty', text: 'Empty' },
    { depth: 2, id: 'last', text: 'Last' },
  ]);

  it('cuts the intro, ## and ### sections, up to the next heading of any level', () => {
    expect(sections.map((s) => [s.heading, s.anchor])).toEqual([
      [null, undefined],
      ['First', 'first'],
      ['Sub', 'sub'],
      ['Last', 'last'],
    ]);
    expect(sections[0]!.text).toBe('# Title\n\nEyebrow\n\nLead sentence here.');
    expect(sections[2]!.text).toBe('### Sub\n\nThree.');
    expect(sections[3]!.text).toBe('## Last\n\nFive.');
  });

  it('each sentence is a range of its section text', () => {
    for (const s of sections)
      for (const u of s.sentences) expect(s.text.slice(u.start, u.end).length).toBeGreaterThan(0);
    expect(sections[1]!.sentences.map((u) => plainOf(sections[1]!.text.slice(u.start, u.end)))).toEqual([
      'One.',
      'Two.',
    ]);
  });
});
