// Stage 1, analyse: the lexicon, bounded spelling correction, parts and the earlier turn as context.
import { describe, expect, it } from 'vitest';
import lexiconData from '../../../content/data/lexicon.json' with { type: 'json' };
import {
  ANALYSE_BOUNDS,
  analyse,
  correct,
  modelText,
  type Part,
  splitParts,
  termGroups,
} from '../../../src/core/ask/analyse.ts';
import { compileLexicon } from '../../../src/core/ask-indexer/lexicon.ts';
import { askIndexOf } from '../../../src/core/ask-indexer/assemble.ts';
import { siteIndex } from './site.ts';

const index = await siteIndex();
const { lexicon } = index;
/** The site's lexicon with one alternative: a visitor's "logins" are the price list's users. */
const withLogins = compileLexicon({
  ...lexiconData,
  alternatives: [{ visitor: ['logins'], site: ['users'], note: 'the price list counts office users' }],
});
const words = (text: string) => termGroups(text, index, lexicon).map((g) => g.word);

describe('term groups', () => {
  it('read chat speak as meant, drop filler and stop words, and keep each term once', () => {
    expect(words('hi mate, pls tell me abt storage billing, billing!')).toEqual(['storage', 'billing']);
    expect(words('u r gr8')).toEqual(['gr8']);
    // "anytime" asks when, as "at any time" does: no topic of its own ("can we cancel anytime?").
    expect(words('can we cancel anytime?')).toEqual(['cancel']);
  });

  it('mark a word no section holds as unknown, and leave contact details and links out', () => {
    const text = '0400 000 111 hubspot storage jonas@example.com https://x.example/a http://vault.example/b logins';
    const groups = termGroups(text, index, withLogins);
    expect(groups.map((g) => [g.word, g.unknown])).toEqual([
      ['hubspot', true],
      ['storage', false],
      // Known by its alternative: the site says "users".
      ['logins', false],
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

  // [typed, corrected]: one edit of any kind from 6 letters; under 6 a delete, swap or insert; two deletes or swaps
  // from 8 letters up to TWO_EDIT_MAX; nothing past CORRECT_MAX letters, with a digit, or whose stem a section holds.
  const SPELLINGS: [string, string | undefined][] = [
    ['vaut', 'vault'],
    ['storagee', 'storage'],
    ['storge', 'storage'],
    ['storege', 'storage'],
    ['scanne', 'scanner'],
    ['crwe', 'crew'],
    ['trual', undefined],
    ['stroagee', 'storage'],
    ['sotrgae', undefined],
    ['warxhousee', undefined],
    ['storag3', undefined],
    ['trials', undefined],
    ['pap', undefined],
  ];
  it.each(SPELLINGS)('correct %s to %s', (typed, corrected) => {
    expect(correct(typed, index)).toBe(corrected);
  });

  it('correct long words within the bounds: two edits up to TWO_EDIT_MAX letters, one up to CORRECT_MAX', () => {
    const long = askIndexOf([
      {
        slug: 'words',
        title: 'Words',
        url: 'https://k.test/words',
        markdown:
          '# Words\n\n## Long words\n\nEvery organisation with subscriptions needs internationalisation. There are three.',
      },
    ]);
    expect(ANALYSE_BOUNDS).toMatchObject({ TWO_EDIT_MAX: 12, CORRECT_MAX: 20 });
    expect(correct('orgainsatoin', long)).toBe('organisation');
    expect(correct('subscirptoins', long)).toBeUndefined();
    expect(correct('internationalisaiton', long)).toBe('internationalisation');
    expect(correct('internationalisationn', long)).toBeUndefined();
    // A word a page has is not misspelt, even one search leaves out ("there" is a swap from "three").
    expect(correct('there', long)).toBeUndefined();
  });

  it('read a misspelt stop word as one from five letters (nothing to look up); a shorter word stays a word', () => {
    expect(correct('someon', index, lexicon)).toBeNull();
    expect(correct('theyd', index, lexicon)).toBeNull();
    expect(correct('hero', index, lexicon)).toBeUndefined();
    expect(words('someon from storage')).toEqual(['storage']);
    expect(termGroups('hero storage', index, lexicon).map((g) => [g.word, g.unknown])).toEqual([
      ['hero', true],
      ['storage', false],
    ]);
    // A content word one edit away wins over a stop word ("vaut" is "vault", not "vat"... nor "but").
    expect(correct('vaut', index, lexicon)).toBe('vault');
  });

  it('read a number run on with a plural or a thousand ("429s", "15k") as the number, when no page has it whole', () => {
    expect(words('429s from the vault, 15k quote, 2fa, 3m')).toEqual(['429', 'vault', '15', 'quote', '2fa', '3m']);
    expect(words('a15k 15kg')).toEqual(['a15k', '15kg']);
  });

  it('correct at most CORRECTIONS_MAX words of a message', () => {
    const unknown = ['qqqq', 'zzzz', 'xxxx', 'jjjj', 'kkkk', 'vvvv', 'wwww', 'yyyy'];
    expect(ANALYSE_BOUNDS.CORRECTIONS_MAX).toBe(unknown.length);
    expect(words([...unknown.slice(1), 'stroage'].join(' ')).at(-1)).toBe('storage');
    expect(words([...unknown, 'stroage'].join(' ')).at(-1)).toBe('stroage');
  });

  it('bound the work: a word past WORD_MAX letters is cut, at most GROUPS_MAX groups are read', () => {
    const long = 'x'.repeat(500);
    expect(termGroups(long, index, lexicon)[0]!.word).toHaveLength(ANALYSE_BOUNDS.WORD_MAX);
    const many = Array.from({ length: 200 }, (_, i) => `w${i}q`).join(' ');
    expect(termGroups(many, index, lexicon)).toHaveLength(ANALYSE_BOUNDS.GROUPS_MAX);
  });
});

describe('parts', () => {
  const texts = (message: string) => splitParts(message, lexicon).map((p) => p.text);

  it('cut a message at a second question, a semicolon, or "and" before a question word', () => {
    expect(texts('is there a trial? where is our data stored?')).toEqual([
      'is there a trial?',
      'where is our data stored?',
    ]);
    expect(texts('is there a trial and does the app work offline')).toEqual([
      'is there a trial',
      'does the app work offline',
    ]);
    expect(texts('storage billing and lot tracking')).toEqual(['storage billing and lot tracking']);
  });

  it('mark a part that "or" joins as an alternative to the one before, and no other', () => {
    const alternatives = (message: string) => splitParts(message, lexicon).map((p) => p.alternative === true);
    expect(alternatives('do you do payroll or do we keep our own?')).toEqual([false, true]);
    expect(alternatives('is the data in sydney? or is it overseas?')).toEqual([false, true]);
    expect(alternatives('is there a trial, or, does the app work offline')).toEqual([false, true]);
    expect(alternatives('is there a trial and does the app work offline or is it online only')).toEqual([
      false,
      false,
      true,
    ]);
    expect(alternatives('(a) is there a trial (b) where is our data stored')).toEqual([false, false]);
    // "or" inside a question cuts nothing: no part, no alternative.
    expect(splitParts('can we pay by card or by bank transfer?', lexicon)).toEqual([
      { text: 'can we pay by card or by bank transfer?', said: '' },
    ]);
    const plan = analyse('do you do payroll or do we keep our own?', [], index, lexicon);
    expect(plan.parts.map((p) => [p.text, p.alternative === true])).toEqual([
      ['do you do payroll', false],
      ['do we keep our own?', true],
    ]);
  });

  // [message, its parts]
  const PARTS: [string, string[]][] = [
    ['is there a trial? and does the app work offline?', ['is there a trial?', 'does the app work offline?']],
    ['is there a trial  and  does the app work offline', ['is there a trial', 'does the app work offline']],
    ['is there a trial?  and does the app work offline', ['is there a trial?', 'does the app work offline']],
    ['is there a trial and, where is our data stored', ['is there a trial', 'where is our data stored']],
    // A question word contracted ("where's", "what’s") starts a question as the word does.
    ['when was it founded and where’s the head office?', ['when was it founded', 'where’s the head office?']],
    ["is there a trial? what's the price", ['is there a trial?', "what's the price"]],
    ["is there a trial? it's too short", ['is there a trial?']],
    ['is there a trial? ', ['is there a trial?']],
    ['where is our data stored ', ['where is our data stored']],
    ['storage billing and', ['storage billing and']],
    // A piece of greetings and thanks only is no need of its own.
    ['cheers; is there a free trial?', ['cheers; is there a free trial?']],
    // A piece that asks (`?`, a question word, a joiner) is a need; a statement after a question is not.
    ['is there a trial? vaults billed by the week?', ['is there a trial?', 'vaults billed by the week?']],
    ['is there a trial? and the crew app', ['is there a trial?', 'the crew app']],
    ['is there a trial? also, the crew app', ['is there a trial?', 'the crew app']],
    ['is there a trial? vaults billed weekly? ', ['is there a trial?', 'vaults billed weekly?']],
    ['vault billing; crew app', ['vault billing;', 'crew app']],
    // A list's numbers or letters: a joiner before one cuts as before a question word, and a part starts after it.
    [
      'please confirm (a) the governing law and (b) whether prices are fixed',
      ['please confirm (a) the governing law', 'whether prices are fixed'],
    ],
    [
      '(i) how long to export our data, and (ii) when is it deleted',
      ['how long to export our data,', 'when is it deleted'],
    ],
    ['compare (a) starter with (b) growth', ['compare (a) starter with (b) growth']],
    // Numbered or lettered questions (two or more) are cut at each number before a question word, without a joiner
    // (a lead-in before them is said of each: below); a number before no question word, or alone, cuts nothing.
    [
      'two questions: 1) is there a free trial 2) where is the data stored',
      ['is there a free trial', 'where is the data stored'],
    ],
    ['A) does the app work offline B) do you sync to xero', ['does the app work offline', 'do you sync to xero']],
    ['1. does the app work offline 2. do you sync to xero', ['does the app work offline', 'do you sync to xero']],
    ['see 2) does the app work offline', ['see 2) does the app work offline']],
    ['compare (a) starter with (b) growth', ['compare (a) starter with (b) growth']],
    // Sentences or lines that each ask are needs apart (a bullet before one dropped), unless the second refers back;
    // a statement before a question is no need of its own.
    ['Is there a free trial.\nWhere is our data stored?', ['Is there a free trial.', 'Where is our data stored?']],
    ['is there a free trial. where is our data stored', ['is there a free trial.', 'where is our data stored']],
    ['- does the app work offline\n- do you sync to xero', ['does the app work offline', 'do you sync to xero']],
    ['is there a free trial. is it 30 days', ['is there a free trial. is it 30 days']],
    ['we bill vaults weekly. does the app work offline', ['we bill vaults weekly. does the app work offline']],
    ['we bill vaults weekly.\n\ndoes the app work offline', ['we bill vaults weekly. does the app work offline']],
    // "n" and "&", as typed on a phone, join as "and" does; a name with "&" in it is no joiner.
    ['hw long is ur demo n is it on zoom', ['hw long is ur demo', 'is it on zoom']],
    ['does starter come with storage? n is there a trial', ['does starter come with storage?', 'is there a trial']],
    ['is walsh & sons on kartage', ['is walsh & sons on kartage']],
    ['is it hosted here and whether it is certified', ['is it hosted here', 'whether it is certified']],
    // Up to PARTS_MAX needs; more is read as one.
    ['trial? vault? crew?', ['trial?', 'vault?', 'crew?']],
    ['trial? vault? crew? gst?', ['trial? vault? crew? gst?']],
  ];
  it.each(PARTS)('cut "%s" into %j', (message, parts) => {
    expect(texts(message)).toEqual(parts);
  });

  // [message, its parts with what is said after each]
  const SAID: [string, { text: string; said: string }[]][] = [
    [
      'no lock in contract right? got burnt by a phone company',
      [{ text: 'no lock in contract right?', said: 'got burnt by a phone company' }],
    ],
    ['is there a free trial? thanks!', [{ text: 'is there a free trial?', said: 'thanks!' }]],
    [
      'is there a trial? the small plan i mean. vaults?  by the week',
      [
        { text: 'is there a trial?', said: '' },
        { text: 'the small plan i mean. vaults?', said: 'by the week' },
      ],
    ],
    // Said after a part that has no content word of its own: said after the part it joins.
    ['storage billing? hi? by the week', [{ text: 'storage billing? hi?', said: 'by the week' }]],
    // More than PARTS_MAX needs: the message, as one, with nothing said after it.
    ['trial? vault? crew? gst?', [{ text: 'trial? vault? crew? gst?', said: '' }]],
    // A lead-in before numbered questions is said of each of them, not a need of its own.
    [
      'on storage billing: 1) do you bill by the week 2) can customers pay online?',
      [
        { text: 'do you bill by the week', said: 'on storage billing:' },
        { text: 'can customers pay online?', said: 'on storage billing:' },
      ],
    ],
    // A message that is a lead-in alone is its own need.
    ['storage billing:', [{ text: 'storage billing:', said: '' }]],
    // After a semicolon a piece is a need, as before.
    [
      'vault billing; by the week',
      [
        { text: 'vault billing;', said: '' },
        { text: 'by the week', said: '' },
      ],
    ],
  ];
  it.each(SAID)('read "%s" as %j', (message, parts) => {
    expect(splitParts(message, lexicon)).toEqual(parts);
  });

  it('a part leans on what is said after it, weighed as a part leans on the first', () => {
    const plan = analyse('is there a free trial? we run storage vaults', [], index, lexicon);
    expect(plan.parts.map((p) => p.text)).toEqual(['is there a free trial?']);
    expect(plan.parts[0]!.groups.map((g) => g.word)).not.toContain('vaults');
    const vaults = plan.parts[0]!.lean.find((g) => g.word === 'vaults')!;
    expect(vaults.weight).toBeCloseTo(0.4, 9);
  });

  it('a later part leans on the first part’s words, and the first on the later ones, weighed less', () => {
    const plan = analyse('does storage do lot tracking? and what plan is it on?', [], index, lexicon);
    expect(plan.parts).toHaveLength(2);
    expect(plan.parts[1]!.lean.map((g) => g.word)).toEqual(expect.arrayContaining(['storage']));
    expect(plan.parts[0]!.lean.map((g) => g.word)).toEqual(['plan']);
    expect(plan.parts.flatMap((p) => p.lean).every((g) => g.weight < 1)).toBe(true);
  });

  it('a part leans only on known words it does not have itself, in any form', () => {
    // [message, each part's text and the words it leans on (the other parts', then what is said after it), at 0.4; at
    // 0.85 in a part that leans as a follow-up does: "what does it cost?"]
    const LEANS: [string, [string, string[]][]][] = [
      [
        'does storage do lot tracking? and what does storage cost?',
        [
          ['does storage do lot tracking?', ['cost']],
          ['what does storage cost?', ['tracking']],
        ],
      ],
      [
        'does hubspot sync with storage billing? and what does it cost?',
        [
          ['does hubspot sync with storage billing?', ['cost']],
          ['what does it cost?', ['sync', 'storage', 'billing']],
        ],
      ],
      [
        'how many logins come with starter? and what does an extra user cost?',
        [
          ['how many logins come with starter?', ['extra', 'cost']],
          ['what does an extra user cost?', ['come', 'starter']],
        ],
      ],
      // A word of the first part said again after the second is leaned on once.
      [
        'does storage do lot tracking? and what does storage cost? tracking matters',
        [
          ['does storage do lot tracking?', ['cost']],
          ['what does storage cost?', ['tracking']],
        ],
      ],
    ];
    for (const [message, parts] of LEANS) {
      const plan = analyse(message, [], index, withLogins);
      expect(
        plan.parts.map((p) => [p.text, p.lean.map((g) => g.word)]),
        message,
      ).toEqual(parts);
      const weights = plan.parts.map((p) => [...new Set(p.lean.map((g) => g.weight))]);
      expect(weights, message).toEqual(parts.map(([text]) => [text.includes(' it ') ? 0.85 : 0.4]));
      // A part that leans as a follow-up does says so (the price stage reads it).
      expect(
        plan.parts.map((p) => p.leaning),
        message,
      ).toEqual(parts.map(([text]) => (text.includes(' it ') ? 'refers' : undefined)));
    }
  });

  it('a part of few known words leans too; the sentence model reads one that refers back after the parts before it', () => {
    const plan = analyse('does storage do lot tracking? and which plan are they on?', [], index, lexicon);
    expect(plan.parts.map((p) => p.leaning)).toEqual([undefined, 'refers']);
    const [first, second] = plan.parts as [Part, Part];
    expect(modelText(plan, second)).toBe(`${first.text} ${second.text} ${second.text} ${second.text}`);
    expect(modelText(plan, first)).toBe(first.text);
    // A pronoun in the first part points at nothing before it ("their" customers are the visitor's own).
    const own = analyse(
      'can storage customers see their invoices? and does lot tracking work offline?',
      [],
      index,
      lexicon,
    );
    expect(own.parts.map((p) => p.leaning)).toEqual(['refers', undefined]);
    expect(modelText(own, own.parts[0]!)).toBe(own.parts[0]!.text);
    // A part of one known word leans on the others, but refers to none of them: the sentence model reads it alone.
    const short = analyse('does storage do lot tracking? is there a trial?', [], index, lexicon);
    expect(short.parts.map((p) => p.leaning)).toEqual([undefined, 'short']);
    expect(modelText(short, short.parts[1]!)).toBe('is there a trial?');
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

  it('is none for a first question', () => {
    const plan = analyse('is there a free trial?', [], index, lexicon);
    expect(plan).toMatchObject({ followUp: false, context: [], earlier: '' });
    expect(plan.cited.size).toBe(0);
  });

  // [question, whether it leans on the earlier turn]: few known words of its own, a pronoun anywhere, or an
  // opening ("and", "what about") at its start only.
  const FOLLOW_UPS: [string, boolean][] = [
    ['does it work offline?', true],
    ['does the crew app keep that data offline', true],
    ['and what about lot tracking for storage?', true],
    ['does storage billing charge part months then', false],
    ['where is customer data stored and backed up in australia', false],
  ];
  it.each(FOLLOW_UPS)('reads "%s" as a follow-up: %s', (question, followUp) => {
    const plan = analyse(question, earlier, index, lexicon);
    expect(plan.followUp).toBe(followUp);
    // The earlier turn's pages are the place to look only for a question that leans on it.
    expect([...plan.cited]).toEqual(followUp ? ['faq'] : []);
    expect(plan.context.map((g) => [g.word, g.weight])).toEqual([
      ['free', followUp ? 0.5 : 0.15],
      ['trial', followUp ? 0.5 : 0.15],
    ]);
  });

  it('gives as context only known words the question does not have in any form, and cites no page unsaid', () => {
    const plan = analyse(
      'what about extra users on growth?',
      [{ question: 'do logins for hubspot come with starter?' }],
      index,
      withLogins,
    );
    expect(plan.context.map((g) => g.word)).toEqual(['come', 'starter']);
    expect(plan.cited.size).toBe(0);
  });

  it('weighs little beside a question that stands on its own', () => {
    const plan = analyse('where is customer data stored and backed up in australia', earlier, index, lexicon);
    expect(plan.followUp).toBe(false);
    expect(plan.context.every((g) => g.weight < 0.5)).toBe(true);
  });
});
