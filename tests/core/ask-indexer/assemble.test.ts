// The chat's index built from pages (src/core/ask-indexer/assemble.ts): sections, postings, what it learns.
import { describe, expect, it } from 'vitest';
import { classifyIntent } from '../../../src/core/ask/intent.ts';
import { compileLexicon } from '../../../src/core/ask-indexer/lexicon.ts';
import {
  type AskSource,
  askIndexOf,
  askPageData,
  assembleAskIndex,
  intentExamples,
  straightQuotes,
} from '../../../src/core/ask-indexer/assemble.ts';
import { EMPTY_LEXICON } from '../../../src/core/lexicon.ts';

const DEPOT: AskSource = {
  slug: 'depot',
  title: 'Depot | Kartage',
  url: 'https://k.test/depot',
  markdown: [
    '# Depot',
    '',
    'The depot opens early.',
    '',
    '## Loading dock',
    '',
    'Trucks back in at the dock.',
    '',
    '## “Cold” room',
    '',
    'Freezers hold stock.',
    '',
    '## Rates',
    '',
    '| Item | Rate |',
    '| --- | --- |',
    '| Pallet | $5 |',
  ].join('\n'),
  headings: [{ depth: 2, id: 'dock', text: 'Loading dock' }],
};
const BLOG: AskSource = {
  slug: 'blog',
  title: 'Blog | Kartage',
  url: 'https://k.test/blog',
  markdown: '# Blog\n\nNews from the depot for trucks.',
  kind: 'listing',
};
const PAGES = [DEPOT, BLOG];

const QUESTIONS = [
  // The same section twice: asked once.
  {
    question: 'when does the dock open for trucks',
    sections: [
      { slug: 'depot', heading: 'Loading dock' },
      { slug: 'depot', heading: 'Loading dock' },
    ],
  },
  // Straight quotes find the heading the page curls.
  { question: 'is the "cold" room cold?', sections: [{ slug: 'depot', heading: '"Cold" room' }] },
  { question: 'do you sell boxes', sections: [] },
  // No terms: no gap.
  { question: 'the', sections: [] },
  // A section the pages do not have: neither asked nor a gap.
  { question: 'where is the yard', sections: [{ slug: 'depot', heading: 'Yard' }] },
];

const sentencesOf = (index: ReturnType<typeof askIndexOf>, section: number) => {
  const text = index.text(section);
  const r = [...index.sentences(section)];
  return Array.from({ length: r.length / 3 }, (_, i) => [text.slice(r[3 * i], r[3 * i + 1]), r[3 * i + 2]]);
};

// Each test builds what it reads in its own body, so the build runs under the test (a build in the
// describe body runs once, before any test).
describe('the pages and their sections', () => {
  it('keeps each page with its bare title, a listing marked as one', () => {
    expect(askIndexOf(PAGES).data.pages).toEqual([
      { slug: 'depot', title: 'Depot', url: 'https://k.test/depot' },
      { slug: 'blog', title: 'Blog', url: 'https://k.test/blog', listing: true },
    ]);
  });

  it('marks a dated article (a blog post) as a post', () => {
    const post = { ...BLOG, slug: 'blog/dock-news', title: 'Dock news | Kartage', kind: 'post' };
    expect(askIndexOf([DEPOT, post]).data.pages[1]).toEqual({
      slug: 'blog/dock-news',
      title: 'Dock news',
      url: 'https://k.test/blog',
      post: true,
    });
  });

  it('holds the intro and each headed section in page order, with the anchors the page renders', () => {
    const index = askIndexOf(PAGES);
    const depot = index.sectionsOf('depot');
    expect(depot).toEqual([0, 1, 2, 3]);
    expect(depot.map((s) => [index.heading(s), index.anchor(s)])).toEqual([
      [null, undefined],
      ['Loading dock', 'dock'],
      ['“Cold” room', undefined],
      ['Rates', undefined],
    ]);
    expect(index.sectionsOf('blog')).toEqual([4]);
    expect(index.text(1)).toBe('## Loading dock\n\nTrucks back in at the dock.');
    expect(index.text(3)).toBe('## Rates\n\n| Item | Rate |\n| --- | --- |\n| Pallet | $5 |');
    expect(index.text(4)).toBe(BLOG.markdown);
  });

  it('reads each sentence as a range of its section, table rows and header rows marked', () => {
    const index = askIndexOf(PAGES);
    expect(sentencesOf(index, 0)).toEqual([['The depot opens early.', 0]]);
    expect(sentencesOf(index, 1)).toEqual([['Trucks back in at the dock.', 0]]);
    expect(sentencesOf(index, 3)).toEqual([
      ['| Item | Rate |', 2],
      ['| Pallet | $5 |', 1],
    ]);
  });

  it('writes a pack of the sections’ sentences only, each section pointing at its own', () => {
    const { data, pack } = assembleAskIndex(PAGES);
    const parts = data.sections.map(([, , , , , at, length]) => pack.slice(at, at + length));
    expect(parts.join('')).toBe(pack);
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });

  it('takes a page part the build worked out already as it is', () => {
    const own = assembleAskIndex(PAGES);
    expect(assembleAskIndex(PAGES.map((p) => ({ ...p, ask: askPageData(p) })))).toEqual(own);
    const other = askPageData(BLOG);
    expect(assembleAskIndex([{ ...DEPOT, ask: other }]).data.sections.map((s) => s[1])).toEqual([null]);
  });
});

describe("a page's part", () => {
  const part = () => askPageData(DEPOT);

  it('gives each section its range, anchor and sentences', () => {
    expect(
      part().rows.map(([heading, anchor, start, end]) => [heading, anchor, DEPOT.markdown.slice(start, end)]),
    ).toEqual([
      [null, '', '# Depot\n\nThe depot opens early.'],
      ['Loading dock', 'dock', '## Loading dock\n\nTrucks back in at the dock.'],
      ['“Cold” room', '', '## “Cold” room\n\nFreezers hold stock.'],
      ['Rates', '', '## Rates\n\n| Item | Rate |\n| --- | --- |\n| Pallet | $5 |'],
    ]);
  });

  it("gives each section's text terms without stop words or its heading line, and its heading's terms", () => {
    expect(part().terms).toEqual([
      [['depot', 'depot', 'open', 'earli'], []],
      [
        ['truck', 'back', 'dock'],
        ['load', 'dock'],
      ],
      [
        ['freezer', 'hold', 'stock'],
        ['cold', 'room'],
      ],
      [['item', 'rate', 'pallet'], ['rate']],
    ]);
  });

  it('lists its distinct surface words, stop words too', () => {
    const { words } = part();
    expect(words).toEqual(
      expect.arrayContaining(['depot', 'the', 'opens', 'trucks', 'at', 'dock', 'freezers', 'pallet', '5']),
    );
    expect(new Set(words).size).toBe(words.length);
  });
});

describe('what the index learns', () => {
  const hints = (slug: string, heading: string | null) =>
    slug === 'depot' && heading === 'Loading dock' ? ['forklift bays'] : [];
  const learned = () => assembleAskIndex(PAGES, { questions: QUESTIONS, hintsOf: hints }).data;

  it("keeps answered questions' terms with their sections, and unanswered ones as gaps", () => {
    const data = learned();
    expect(data.asked).toEqual([
      [1, 'dock open truck'],
      [2, 'cold room'],
    ]);
    expect(data.gaps).toEqual(['sell box']);
  });

  it("expands a section by its hints and the questions it answers, in the expansions' field", () => {
    const data = learned();
    expect(data.expansions).toEqual(['', 'forklift bay dock open truck', 'cold room cold', '', '']);
    const index = askIndexOf(PAGES, { questions: QUESTIONS, hintsOf: hints });
    expect(index.df('forklift')).toBe(1);
    expect(index.df('truck')).toBe(2);
  });

  it("averages each field's length over the sections, at least 1", () => {
    const data = learned();
    // Text: 4 + 3 + 3 + 3 + 4 terms; headings: 0 + 2 + 2 + 1 + 0; titles: 1 a section; expansions: 0 + 5 + 3.
    expect(data.averages).toEqual([17 / 5, 1, 1, 8 / 5]);
    expect(assembleAskIndex([BLOG]).data.averages).toEqual([4, 1, 1, 1]);
  });

  it('counts the pages each surface word is on, in sorted order', () => {
    const data = learned();
    expect(data.vocab).toMatchObject({ depot: 2, trucks: 2, the: 2, dock: 1, news: 1 });
    const words = Object.keys(data.vocab);
    expect(words).toEqual([...words].sort());
  });

  it('learns the labelled requests, with every question, answered or a known gap, as `none`', () => {
    const intents = [
      { text: 'book a demo', intent: 'demo' as const },
      { text: 'is a demo free', intent: 'none' as const },
      { text: 'ring me', intent: 'callback' as const },
    ];
    expect(intentExamples(intents, QUESTIONS)).toEqual([
      ...intents,
      { text: 'when does the dock open for trucks', intent: 'none' },
      { text: 'is the "cold" room cold?', intent: 'none' },
      { text: 'do you sell boxes', intent: 'none' },
      { text: 'the', intent: 'none' },
      { text: 'where is the yard', intent: 'none' },
      // Each request again after a question: the labelled ones first, then the learned, 7919 apart (7919 % 6 = 5).
      { text: 'is a demo free book a demo', intent: 'demo' },
      { text: 'where is the yard ring me', intent: 'callback' },
    ]);
    // No question to lead in with: the requests alone.
    expect(intentExamples([intents[0]!], [])).toEqual([intents[0]]);
    const requests = ['book a demo', 'a demo please', 'book a demo for us', 'can we see a demo'];
    const learning = {
      intents: requests.map((text) => ({ text, intent: 'demo' as const })),
      questions: QUESTIONS,
    };
    const trained = assembleAskIndex(PAGES, learning).data.intents;
    const lexicon = compileLexicon(EMPTY_LEXICON);
    expect(classifyIntent(trained, 'book a demo please', lexicon)).toBe('demo');
    expect(classifyIntent(trained, 'when does the dock open', lexicon)).toBe('none');
    const given = { features: {}, weights: [], bias: [] };
    expect(assembleAskIndex(PAGES, { ...learning, intentModel: given }).data.intents).toBe(given);
  });

  it('learns nothing beside the pages when given nothing: no expansions, questions or labelled requests', () => {
    const { data } = assembleAskIndex(PAGES);
    expect(data.expansions).toEqual(['', '', '', '', '']);
    expect([data.asked, data.gaps]).toEqual([[], []]);
    expect(data.intents).toEqual(assembleAskIndex(PAGES, { intents: [], questions: [] }).data.intents);
  });

  it('matches a heading whatever its quotes', () => {
    expect(straightQuotes('“Cold” room’s ‘door’')).toBe("\"Cold\" room's 'door'");
  });
});

describe('an index held in memory', () => {
  it('reads sections from the pages given and keeps the sentence-model table given', () => {
    const { data } = assembleAskIndex(PAGES);
    const table = { questionStart: new Uint32Array(data.sections.length + 1) } as never;
    const index = askIndexOf(PAGES, {}, table);
    expect(index.embedding).toBe(table);
    expect(sentencesOf(index, 4)).toEqual([['News from the depot for trucks.', 0]]);
    expect(askIndexOf(PAGES).embedding).toBeUndefined();
  });
});
