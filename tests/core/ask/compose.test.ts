// Stage 7, compose: quotes (a "Yes." only for the question its heading asks), links to the section, runs of text.
import { describe, expect, it } from 'vitest';
import { type TermGroup, termGroups } from '../../../src/core/ask/analyse.ts';
import {
  joinQuotes,
  partUnanswered,
  type Quote,
  quotesFrom,
  relatedOf,
  sentencesOf,
  sourceOf,
  textFragment,
  unknownWords,
} from '../../../src/core/ask/compose.ts';
import { askIndexOf } from '../../../src/core/ask-indexer/assemble.ts';
import { SITE_LEXICON, siteIndex } from './site.ts';

const index = await siteIndex();
const section = (slug: string, heading: string) => index.sectionsOf(slug).find((s) => index.heading(s) === heading)!;
const trial = section('faq', 'Is there a free trial?');
const quote = (question: string, named: string[] = []) =>
  quotesFrom(index, trial, { text: question, groups: termGroups(question, index, index.lexicon) }, named).map(
    (q) => q.plain,
  );

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

  it("lead with a sentence that answers, not a pointer whose words are a link's (See [crew app offline mode](...))", () => {
    const heading = 'Does the crew app work without signal?';
    const markdown = `# FAQ\n\n## ${heading}\n\nYes. Since February 2025, jobs and photos are saved on the phone and sync when signal returns. See [crew app offline mode](/blog/crew-app-offline-mode).\n`;
    const url = 'https://k.test/faq';
    const faq = askIndexOf(
      [{ slug: 'faq', title: 'FAQ', url, markdown, headings: [{ depth: 2, id: 'signal', text: heading }] }],
      {
        lexicon: SITE_LEXICON,
      },
    );
    const offline = faq.sectionsOf('faq').find((s) => faq.heading(s) === heading)!;
    const text = 'Does the crew app work offline?';
    const qs = quotesFrom(faq, offline, { text, groups: termGroups(text, faq, faq.lexicon) }, []);
    expect(qs.map((q) => q.plain)).toEqual([
      'Since February 2025, jobs and photos are saved on the phone and sync when signal returns.',
      'See crew app offline mode.',
    ]);
  });

  it('lead with the sentence the sentence model finds nearest the question when words alone do not tell', async () => {
    const markdown = [
      '# SMS\n\n## Reminders\n',
      'Customers get a text reminder the day before their move, with the arrival window.',
      'You can edit the text of every reminder and add your own logo.',
      'Quiet hours apply: no text is sent before 8am or after 8pm in the customer’s time zone.',
    ].join('\n\n');
    const sms = await siteIndex([], [{ slug: 'sms', title: 'SMS | Kartage', url: 'https://k.test/sms', markdown }]);
    const reminders = sms.sectionsOf('sms').find((s) => sms.heading(s) === 'Reminders')!;
    const lead = (text: string, model = true) => {
      const groups = termGroups(text, sms, sms.lexicon);
      return quotesFrom(sms, reminders, { text: model ? text : '', groups }, [])[0]!.plain;
    };
    for (const text of ['does it send texts late at night?', 'can customers get a text at 11pm?']) {
      expect(lead(text)).toMatch(/^Quiet hours/);
      expect(lead(text, false)).toMatch(/^Customers get a text/);
    }
  });

  it('quote the list a sentence announces: each item by its first sentence, and no more', async () => {
    const markdown = [
      '# Story\n\n## What they would do differently\n',
      'We asked what advice the team would give another mover making the switch. Their answers were practical:',
      '1. **Clean the customer list first.** Duplicates came across. Merging took weeks.',
      '2. **Train crews in person.** One session at the depot beat any guide.',
      '- **Set price rules early.** Stairs and long carries from day one.',
      'Next year they plan to add storage.',
    ].join('\n\n');
    const story = await siteIndex(
      [],
      [{ slug: 'story', title: 'Story | Kartage', url: 'https://k.test/story', markdown }],
    );
    const section = story.sectionsOf('story').find((s) => story.heading(s) !== null)!;
    const text = 'what advice would they give another mover?';
    const quotes = quotesFrom(story, section, { text, groups: termGroups(text, story, story.lexicon) }, []);
    expect(quotes.map((q) => q.plain.split(' ').slice(0, 3).join(' '))).toEqual([
      'We asked what',
      'Their answers were',
      'Clean the customer',
      'Train crews in',
      'Set price rules',
    ]);
    // An item's first sentence runs on past its bold lead ("Duplicates came across."); its later sentences and the
    // paragraph after the list are not quoted.
    expect(quotes.some((q) => /Merging|Next year/.test(q.plain))).toBe(false);
  });

  it('join sentences that follow each other into one run of the section, a substring of it', () => {
    const question = 'is there a free trial?';
    const qs = quotesFrom(index, trial, { text: question, groups: termGroups(question, index, index.lexicon) }, []);
    const text = joinQuotes(index, qs);
    expect(index.text(trial)).toContain(text);
  });

  it("quote table rows under their header row, as one table of the section's own lines", () => {
    // Any table of the site: its rows quoted alone would lose what their columns mean ("$45": a price ex GST?).
    const tabled = index.sectionsOf('pricing').find((s) => index.sentences(s).some((v, i) => i % 3 === 2 && v === 2))!;
    const rows = sentencesOf(index, tabled).filter((q) => q.row);
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
    const ranked = [10, 8, 7, 6.5, 1].map((score, section) => ({ section, bm25: 0, features: [], score }));
    expect(relatedOf([ranked], new Set([0]), 3)).toEqual([1, 2]);
    expect(relatedOf([ranked], new Set([0]), 1)).toEqual([]);
    expect(relatedOf([ranked])).toEqual([0, 1, 2]);
  });

  it("relate each part's runners-up by how near its own best they score, each section once", () => {
    const rankedOf = (scores: [number, number][]) =>
      scores.map(([section, score]) => ({ section, bm25: 0, features: [], score }));
    const first = rankedOf([
      [0, 10],
      [1, 7.5],
      [2, 7],
    ]);
    const second = rankedOf([
      [5, 4],
      [6, 3],
      [2, 2.5],
    ]);
    // Gaps: 1 at 2.5, 2 at 3, 6 at 1, 2 at 1.5 (second's): 6 before 1, and 2 once, at its nearest.
    expect(relatedOf([first, second], new Set([0, 5]))).toEqual([6, 2, 1]);
    expect(relatedOf([second, first], new Set([0, 5]))).toEqual([6, 2, 1]);
  });
});

/** A billing page written to show how quotes are chosen: which sentence, the one after it, and one more. */
const BILLING = [
  '# Billing',
  '',
  'No lock-in contracts.',
  '',
  '## Invoices',
  '',
  'Invoices are emailed on the first business day of every month to the account owner.',
  'Each invoice lists every vault, lot and crew device on a line of its own.',
  'Part months are charged pro rata.',
  'Card payments are taken three days after the date on the invoice, by direct debit.',
  'Refunds go back to the card a payment came from within ten business days.',
  'Growth accounts can ask for quarterly invoices at no extra charge on request.',
  '',
  '## Does Growth include invoicing?',
  '',
  'Yes.',
  'Growth includes it at no extra cost.',
  'Storage, moves and add-ons each get their own line.',
  'Invoices go to the account owner by email, on the first business day of each month.',
  '',
  '## Paper invoices',
  '',
  'No.',
  '',
  'Invoices are sent by email only, as a PDF the customer can print at home.',
  '',
  '## Is there a setup fee?',
  '',
  'No, not even on Starter.',
  'A setup fee is charged only when we move your records from another system.',
  '',
  '## Who owns the invoices?',
  '',
  'You do.',
  'You can export every invoice to CSV at any time.',
  'After you leave, invoices stay available to export for 60 days.',
  '',
  '## Can we pay by card?',
  '',
  'Most customers settle their account by direct debit each month.',
  'Cards are charged through Stripe, with no surcharge.',
  '',
  '## GST',
  '',
  'Prices exclude GST.',
  'All amounts on an invoice are in Australian dollars, with the GST shown apart.',
  '',
  '## What an invoice shows',
  '',
  'Every invoice shows three things for each vault, lot and crew device on the account:',
  '',
  '- its name',
  '- its price',
  '- its dates',
  '',
  '## Quarterly invoices',
  '',
  'Growth and Professional accounts can ask for quarterly invoices.',
  'A quarterly invoice covers three months of storage and moves on one page.',
  'On Growth, add-ons get their own totals.',
  "Each add-on total lists the add-on's monthly price three times, once per month.",
  '',
  '## Contracts',
  '',
  'Plans run month to month.',
  'No contract ties you in: leave at the end of any month without paying a fee.',
  '',
  '## Cancelling',
  '',
  'You can cancel at the end of any month by writing to the support team.',
  'Your data stays available to export for ninety days after you cancel.',
  '',
  '## Rates',
  '',
  '| Insurance | $9 a month |',
  '',
  'Rates for the services we run for you.',
  '',
  '|Service|Rate|',
  '|---|---|',
  '|Packing|$60 an hour|',
  '',
  '| Storage | Rate |  ',
  '| --- | --- |',
  '| Vault | $40 a month |',
  '| Pallet | $15 a month |',
  '',
  '## Extra rates',
  '',
  '|Service|Rate|',
  '|---|---|',
  '|Unpacking|$50 an hour|',
  '',
  '## Archive rates',
  '',
  '| Archive box | Rate |',
  '| --- | --- |',
].join('\n');
const billing = askIndexOf(
  [
    {
      slug: 'billing',
      title: 'Billing | Kartage',
      url: 'https://k.test/billing',
      markdown: BILLING,
      headings: [
        { depth: 2, id: 'invoices', text: 'Invoices' },
        { depth: 2, id: 'rates', text: 'Rates' },
      ],
    },
  ],
  { lexicon: SITE_LEXICON },
);
const billed = (heading: string | null) => billing.sectionsOf('billing').find((s) => billing.heading(s) === heading)!;
const groupsOf = (question: string) => termGroups(question, billing, billing.lexicon);
/** The quotes of a billing section, each cut to its first four words. */
const picked = (heading: string | null, groups: TermGroup[], named: string[] = []) =>
  quotesFrom(billing, billed(heading), { text: '', groups }, named).map((q) =>
    q.plain.split(' ').slice(0, 4).join(' '),
  );

describe('which sentences are quoted', () => {
  // [section, question, plans named, the quotes' first words]
  const CASES: [string | null, string, string[], string[]][] = [
    // The sentence holding the question's words, weighed by how rare they are; the first of equals.
    ['Invoices', 'refunds', [], ['Refunds go back to']],
    ['Invoices', 'business days', [], ['Invoices are emailed on']],
    ['Invoices', 'how much to pay by card for refunds', [], ['Refunds go back to']],
    // A short sentence is followed by the next; one holding a word the others lack is added.
    ['Invoices', 'part months', [], ['Part months are charged', 'Card payments are taken']],
    ['Invoices', 'pro rata invoices', [], ['Part months are charged', 'Card payments are taken']],
    ['Invoices', 'refunds and quarterly invoices', [], ['Refunds go back to', 'Growth accounts can ask']],
    ['Invoices', 'refunds card business emailed invoices', [], ['Invoices are emailed on', 'Refunds go back to']],
    ['Cancelling', 'cancel', [], ['You can cancel at']],
    ['Contracts', 'contract fee', [], ['No contract ties you']],
    ['Cancelling', 'export data', [], ['Your data stays available']],
    // A sentence that announces a list ("...on the account:"): the list's every item.
    [
      'What an invoice shows',
      'what does an invoice show for a vault',
      [],
      ['Every invoice shows three', 'its name', 'its price', 'its dates'],
    ],
    // A short answer ("Yes.", "No, ...") only for the question its heading asks, and never as the sentence added.
    [
      'Does Growth include invoicing?',
      'does growth include invoicing?',
      ['growth'],
      ['Yes.', 'Growth includes it at', 'Storage, moves and add-ons'],
    ],
    [
      'Does Growth include invoicing?',
      'does growth include invoicing for storage?',
      [],
      ['Growth includes it at', 'Storage, moves and add-ons', 'Invoices go to the'],
    ],
    ['Is there a setup fee?', 'is there a setup fee?', [], ['No, not even on', 'A setup fee is']],
    ['Is there a setup fee?', 'setup fee on starter or growth', [], ['A setup fee is']],
    // Any short first sentence ("You do.") answers the question its heading asks, and only that one.
    [
      'Who owns the invoices?',
      'who owns the invoices?',
      [],
      ['You do.', 'You can export every', 'After you leave, invoices'],
    ],
    ['Who owns the invoices?', 'invoices after we leave', [], ['After you leave, invoices']],
    // A long first sentence is not the answer for being first.
    ['Can we pay by card?', 'can we pay by card?', [], ['Cards are charged through']],
    ['Paper invoices', 'paper invoices', [], ['Invoices are sent by']],
    [null, 'lock-in contracts', [], ['No lock-in contracts.']],
    // Any other short sentence is quoted as any other.
    ['GST', 'gst', [], ['Prices exclude GST.', 'All amounts on an']],
    // A plan named in the question is quoted with the first sentence naming it, unless a quote names it.
    ['Invoices', 'refunds', ['growth'], ['Refunds go back to', 'Growth accounts can ask']],
    ['Quarterly invoices', 'one page', ['growth'], ['Growth and Professional accounts', 'A quarterly invoice covers']],
    ['Quarterly invoices', 'add-ons totals', ['growth'], ['On Growth, add-ons get', 'Each add-on total lists']],
  ];
  it.each(CASES)('%s, asked "%s" (plans %j)', (heading, question, named, quotes) => {
    expect(picked(heading, groupsOf(question), named)).toEqual(quotes);
  });

  it('quote from the start of a section whose sentences hold none of the words', () => {
    const none: TermGroup = { word: 'kayak', terms: ['kayak'], weight: 1, unknown: true };
    expect(picked('Invoices', [none])).toEqual(['Invoices are emailed on']);
  });

  it('count a sentence holding any term of a word: an alternative is as good as the word', () => {
    const repay: TermGroup = { word: 'repayment', terms: ['repay', 'refund'], weight: 1, unknown: false };
    expect(picked('Invoices', [repay])).toEqual(['Refunds go back to']);
  });

  it('keep a "Yes." only when the heading holds every word the visitor means, alternatives aside', () => {
    const asked = groupsOf('does growth include invoicing?').map((g) => ({ ...g, terms: [...g.terms, 'bill'] }));
    expect(picked('Does Growth include invoicing?', asked, ['growth'])[0]).toBe('Yes.');
  });

  it("read a table row with its header row's words: a word only the header holds finds its rows", () => {
    expect(picked('Rates', groupsOf('how much is storage?'))).toEqual(['Vault $40 a month', 'Pallet $15 a month']);
    // A compact header row ("|Service|Rate|") is its cells' words too, not one word run together.
    const hourly = picked('Rates', groupsOf('which service is charged by the hour?'));
    expect(hourly).toEqual(['Rates for the services', 'Packing $60 an hour', 'Vault $40 a month']);
  });

  it('quote nothing from a section with only a table header', () => {
    expect(quotesFrom(billing, billed('Archive rates'), { text: '', groups: groupsOf('archive box') }, [])).toEqual([]);
  });

  it('read a table row as its cells, compact or spaced, and leave header rows out', () => {
    expect(sentencesOf(billing, billed('Rates')).map((q) => [q.plain, q.row])).toEqual([
      ['Insurance $9 a month', true],
      ['Rates for the services we run for you.', false],
      ['Packing $60 an hour', true],
      ['Vault $40 a month', true],
      ['Pallet $15 a month', true],
    ]);
  });
});

describe('quotes as text', () => {
  const rates = sentencesOf(billing, billed('Rates'));
  const invoices = sentencesOf(billing, billed('Invoices'));

  it("put each table's rows under its own header row, and a row of no table alone", () => {
    const [insurance, lead, packing, vault, pallet] = rates as [Quote, Quote, Quote, Quote, Quote];
    expect(joinQuotes(billing, [insurance, lead, packing, vault, pallet])).toBe(
      [
        '| Insurance | $9 a month |',
        'Rates for the services we run for you.',
        '|Service|Rate|\n|---|---|\n|Packing|$60 an hour|',
        '| Storage | Rate |  \n| --- | --- |\n| Vault | $40 a month |\n| Pallet | $15 a month |',
      ].join('\n\n'),
    );
    const [unpacking] = sentencesOf(billing, billed('Extra rates'));
    expect(joinQuotes(billing, [packing, unpacking!])).toBe(
      '|Service|Rate|\n|---|---|\n|Packing|$60 an hour|\n\n|Service|Rate|\n|---|---|\n|Unpacking|$50 an hour|',
    );
  });

  it('keep sentences of other lines, other sections or out of page order apart', () => {
    const [emailed, , , , refunds] = invoices as Quote[];
    const [yes] = sentencesOf(billing, billed('Does Growth include invoicing?'));
    expect(joinQuotes(billing, [refunds!, emailed!])).toBe(`${refunds!.plain}\n\n${emailed!.plain}`);
    expect(joinQuotes(billing, [emailed!, refunds!, yes!])).toBe(`${emailed!.plain}\n\n${refunds!.plain}\n\nYes.`);
    expect(joinQuotes(billing, [rates[2]!, rates[1]!])).toBe(
      '|Service|Rate|\n|---|---|\n|Packing|$60 an hour|\n\nRates for the services we run for you.',
    );
  });

  it("link a source to its section's anchor, with the quote's text fragment unless it is a row", () => {
    const url = (heading: string | null, quote?: Quote) => sourceOf(billing, billed(heading), 'answer', quote).url;
    expect(url('Invoices', invoices[2])).toBe(
      'https://k.test/billing#invoices:~:text=Part%20months%20are%20charged%20pro%20rata.',
    );
    expect(url('Rates', rates[2])).toBe('https://k.test/billing#rates');
    expect(url('Rates')).toBe('https://k.test/billing#rates');
    expect(url(null)).toBe('https://k.test/billing');
    expect(textFragment('Part-time staff.')).toBe(':~:text=Part%2Dtime%20staff.');
    expect(textFragment('one two three four five six seven eight')).toBe(
      ':~:text=one%20two%20three%20four%20five%20six%20seven%20eight',
    );
  });
});
