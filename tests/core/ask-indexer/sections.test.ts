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

  it('reads "No." as number only before a figure: before a word it is an answer, a sentence of its own', () => {
    expect(sentences('Park at No. 3 depot. Then call.')).toEqual(['Park at No. 3 depot.', 'Then call.']);
    expect(sentences('No. Prices are in Australian dollars. GST is added.')).toEqual([
      'No.',
      'Prices are in Australian dollars.',
      'GST is added.',
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

describe('sentence edges', () => {
  const ranges = (text: string) => splitSentences(text).map(({ start, end }) => [start, end]);

  it('trims a line without a full stop, and finds no sentence in white space', () => {
    expect(ranges('  no stop here  ')).toEqual([[2, 14]]);
    expect(ranges('')).toEqual([]);
    expect(ranges('   ')).toEqual([]);
    expect(ranges('  One. Two.')).toEqual([
      [2, 6],
      [7, 11],
    ]);
  });

  it('keeps lines without a stop before the end as one sentence, and splits at a stop before a line break', () => {
    expect(sentences('first line\nsecond line')).toEqual(['first line\nsecond line']);
    expect(sentences('a label line\nthen a sentence.')).toEqual(['a label line\nthen a sentence.']);
    expect(sentences('First line ends.\nSecond line.')).toEqual(['First line ends.', 'Second line.']);
    expect(sentences('Our supplier is Kartage Pty. Ltd.')).toEqual(['Our supplier is Kartage Pty. Ltd.']);
  });

  it('splits before a number after a stop, a quote closing it, or two spaces', () => {
    expect(sentences('The sign says "closed." 3 days a week it opens.')).toEqual([
      'The sign says "closed."',
      '3 days a week it opens.',
    ]);
    expect(sentences('Billing takes two months off.  30-day trial on Starter.')).toEqual([
      'Billing takes two months off.',
      '30-day trial on Starter.',
    ]);
    expect(sentences('Billing takes two months off. (30 days is the trial.)')).toEqual([
      'Billing takes two months off.',
      '(30 days is the trial.)',
    ]);
    expect(sentences('Version 2.5 is out. 3 fixes are in it.')).toEqual(['Version 2.5 is out.', '3 fixes are in it.']);
    expect(sentences('The van is off. then on Monday it runs.')).toEqual(['The van is off. then on Monday it runs.']);
  });

  it('does not split inside brackets, parentheses or code a stop falls in', () => {
    expect(sentences('Tick 1] and see [the list. It helps](/x). Done.')).toEqual([
      'Tick 1] and see [the list. It helps](/x).',
      'Done.',
    ]);
    expect(sentences('Note 1) and see (the list. It helps). Done.')).toEqual([
      'Note 1) and see (the list. It helps).',
      'Done.',
    ]);
    expect(sentences('Run `npm ci. Then` now. Done.')).toEqual(['Run `npm ci. Then` now.', 'Done.']);
  });
});

describe('units of a section', () => {
  const units = (text: string, skipFirstLine = false) =>
    sentencesOf(text, skipFirstLine).map((u) => ({ ...u, text: text.slice(u.start, u.end) }));

  it('keeps a line of five words or a bold lead as a sentence, and drops shorter labels', () => {
    expect(units('Crews start at seven daily').map((u) => u.text)).toEqual(['Crews start at seven daily']);
    expect(units('Hours: 9 to 5')).toEqual([]);
    expect(units('Our **new** depot')).toEqual([]);
    expect(units('**Heads up**').map((u) => u.text)).toEqual(['**Heads up**']);
  });

  it('gives each sentence its range in the section, a row only for table rows', () => {
    const text = 'Intro.\n\n  One here. Two here.\n\n| Plan | Price |\n| --- | --- |\n  | Starter | $1 |  ';
    expect(units(text)).toEqual([
      { start: 0, end: 6, text: 'Intro.' },
      { start: 10, end: 19, text: 'One here.' },
      { start: 20, end: 29, text: 'Two here.' },
      { start: 31, end: 47, text: '| Plan | Price |', row: true, header: true },
      { start: 64, end: 80, text: '| Starter | $1 |', row: true },
    ]);
  });

  it('skips units with no letter or digit, a rule with no row above, and the first line only when asked', () => {
    expect(units('- ...\n- Real item').map((u) => u.text)).toEqual(['Real item']);
    expect(units('|---|---|\n| a | b |').map((u) => [u.text, u.header])).toEqual([['| a | b |', undefined]]);
    expect(units('Not a heading line.\n\nBody text.', true).map((u) => u.text)).toEqual(['Body text.']);
    expect(units('Not a heading line.\nstill the same paragraph.').map((u) => u.text)).toEqual([
      'Not a heading line.',
      'still the same paragraph.',
    ]);
    expect(units('  Indented paragraph line here.\n  and more of it.').map((u) => u.text)).toEqual([
      'Indented paragraph line here.',
      'and more of it.',
    ]);
  });
});

describe('section edges', () => {
  it('reads a heading inside a fence as code, and a page with no ## as its intro only', () => {
    const md = '# T\n\nIntro text here.\n\n## Code\n\n```\n## not a heading\n```\n\nAfter the fence.';
    const sections = splitSections('p', md);
    expect(sections.map((s) => s.heading)).toEqual([null, 'Code']);
    expect(sections[1]!.text).toBe('## Code\n\n```\n## not a heading\n```\n\nAfter the fence.');
    expect(splitSections('p', '# T\n\nJust an intro here.\n\n#### Deep\n\nMore text.').map((s) => s.text)).toEqual([
      '# T\n\nJust an intro here.\n\n#### Deep\n\nMore text.',
    ]);
  });

  it('keeps an intro without a title line whole, and leaves out an intro with no sentence', () => {
    expect(splitSections('p', 'Lead without a title.\n\n## A\n\nBody.').map((s) => [s.heading, s.start])).toEqual([
      [null, 0],
      ['A', 23],
    ]);
    expect(splitSections('p', '# Title\n\n## A\n\nBody.').map((s) => s.heading)).toEqual(['A']);
  });

  it('matches anchors in page order (one passed is not gone back to), by the text the page shows', () => {
    const md = '# T\n\n## The `app`\n\nOne.\n\n## Plans\n\nTwo.\n\n## Plans\n\nThree.';
    const anchors = [
      { depth: 2, id: 'plans-1', text: 'Plans' },
      { depth: 2, id: 'the-app', text: 'The app' },
      { depth: 2, id: 'plans-2', text: 'plans' },
    ];
    expect(splitSections('p', md, anchors).map((s) => [s.heading, s.anchor])).toEqual([
      ['The app', 'the-app'],
      ['Plans', 'plans-2'],
      ['Plans', undefined],
    ]);
  });
});
