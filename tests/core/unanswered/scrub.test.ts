/**
 * The scrub of an unanswered question (src/core/unanswered/scrub.ts through `scrubQuestion`) as a table: each input
 * and what is kept of it, for every form of email, phone number, date, long number, street address and name
 * it promises to remove, and the figures a visitor asks about that must stay readable. The same table and the
 * report's tests (links, personal cues, language) again on a fresh load of the module, whose patterns are built as
 * it loads. Then the shapes of its patterns (every quantifier bounded, so a match attempt reads a bounded number
 * of characters), and hostile 2,000-character inputs of each kind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AST, RegExpParser } from '@eslint-community/regexpp';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { SCRUB_PATTERNS } from '../../../src/core/unanswered/scrub.ts';
import { QUESTION_MAX_CHARS, scrubQuestion } from '../../../src/core/unanswered/index.ts';
import { PROJECT_ROOT } from '../../helpers/server.ts';

/** Input, and the text kept of it. */
const TABLE: [string, string][] = [
  // Emails, in every way the issue found one getting through.
  ['reply to jo.smith@example.com.au', 'reply to [email]'],
  ['jo at example dot com is my email', '[email] is my email'],
  ['JO AT EXAMPLE DOT COM DOT AU', '[email]'],
  ['jo (at) example (dot) com', '[email]'],
  ['jo [at] example [dot] com', '[email]'],
  ['jo @ example . com', '[email]'],
  ['mail jo@localhost please', 'mail [email] please'],
  ['"jo smith"@example.com wrote', '[email] wrote'],
  ['“jo smith”@example.com wrote', '[email] wrote'],
  ['jo@exa\u200bmple.com', '[email]'],
  ['jo\u200b@\u200bexample\u200b.com', '[email]'],
  ['jo\u2060.smith\ufeff@example.com', '[email]'],
  ['jo＠example．com', '[email]'],
  ['jsmith at gmail.com', '[email]'],
  // A bare " at " before a web site that is no mail provider's, after a plain word: English, not an address.
  ['send quotes at movers.com.au', 'send quotes at movers.com.au'],
  ['email me at jo.smith@example.com', 'email me at [email]'],
  // Phone numbers.
  ['call 0412 345 678', 'call [phone]'],
  ['call 0412/345/678', 'call [phone]'],
  ['call 0412_345_678', 'call [phone]'],
  ['call 0412,345,678', 'call [phone]'],
  ['call 0412–345–678', 'call [phone]'],
  ['call o412 345 678', 'call [phone]'],
  ['call O412 3O5 678 tonight', 'call [phone] tonight'],
  ['ring 13 27 82 now', 'ring [phone] now'],
  ['ring 13-27-82', 'ring [phone]'],
  ['zero four one two three four five six seven eight', '[phone]'],
  ['my number is oh four one two, three four five, six seven eight', 'my number is [phone]'],
  ['04 one two 345 678', '[phone]'],
  ['double four one two triple three five six', '[phone]'],
  ['call +61 (0)412 345 678', 'call [phone]'],
  ['(03) 9123 4567', '[phone]'],
  ['+44 20 7946 0958', '[phone]'],
  ['０４１２ ３４５ ６７８', '[phone]'],
  ['٠٤١٢ ٣٤٥ ٦٧٨', '[phone]'],
  ['0412 345 678 or email', '[phone] or email'],
  ['call 9123 4567', 'call [phone]'],
  ['call o4o2 3o5 6o8', 'call [phone]'],
  ['my pin is triple three five six seven', 'my pin is [phone]'],
  ['one two three four five six', '[phone]'],
  // Dates of birth and other full dates.
  ['born 12/03/1985', 'born [date]'],
  ['dob 12-3-85', 'dob [date]'],
  ['dob 12.03.1985', 'dob [date]'],
  ['1985-03-12 is my birthday', '[date] is my birthday'],
  ['DOB: 12 March 1985', 'dob: [date]'],
  ['born on the 12th of March, 1985', 'born on the [date]'],
  ['born March 12th, 1985', 'born [date]'],
  ['born 12-Mar-1985', 'born [date]'],
  ['born 3/12/1985 (US)', 'born [date] (us)'],
  ['born 12/03/85', 'born [date]'],
  ['born 31/05/85', 'born [date]'],
  ['born 05/25/85', 'born [date]'],
  ['born 12/25/85', 'born [date]'],
  ['born 12/31/85', 'born [date]'],
  ['born 1/3/1900', 'born [date]'],
  ['born 1/3/2099', 'born [date]'],
  // Numbers long enough to identify someone.
  ['ABN 61 614 223 907', 'abn [phone]'],
  ['TFN 123 456 782', 'tfn [phone]'],
  ['card 4111 1111 1111 1111', 'card [phone]'],
  ['account 12345678901', 'account [phone]'],
  ['order 123456', 'order [number]'],
  ['licence AB1234567', 'licence ab[number]'],
  [`ref ${'9'.repeat(309)} moves`, 'ref [number] moves'],
  // Street addresses and names, where a cue shows them.
  ['we are at 12 Smith Street, Richmond', 'we are at [address], richmond'],
  ['Level 3, 88 Smith Street, Collingwood VIC 3066', '[address], collingwood vic 3066'],
  ["Unit 4/12 O'Connell St", '[address]'],
  ['deliver to 12 smith st', 'deliver to [address]'],
  ['send it to PO Box 123', 'send it to [address]'],
  ['My name is Jo Smith and I want a demo', 'my name is [name] and i want a demo'],
  ['name: jo smith', 'name: [name]'],
  ["I'm Jo from Acme Removals", "i'm [name] from acme removals"],
  ['This is Jo Smith, can I get pricing?', 'this is [name], can i get pricing?'],
  ['This is Jo From Acme Removals', 'this is [name] from acme removals'],
  // Links with a query string.
  ['see https://app.example.com/invoice?id=42&token=abc please', 'see [link] please'],
  ['kartage.com/demo?name=jo why', '[link] why'],
  // Figures a visitor asks about, and other text that must stay as it is.
  ['How much is $390 a month?', 'how much is $390 a month?'],
  ['How much is $1,890.50 a month for 25 trucks?', 'how much is $1,890.50 a month for 25 trucks?'],
  ['2,000 moves a year on Growth', '2,000 moves a year on growth'],
  ['10 devices and 30-day trial', '10 devices and 30-day trial'],
  ['Starter plus 20,000 extra office users', 'starter plus 20,000 extra office users'],
  ['is 20,000,000 moves a year too many', 'is 20,000,000 moves a year too many'],
  ['prices for 5, 10, 20, 50, 100 users', 'prices for 5, 10, 20, 50, 100 users'],
  ['1e308 crew devices', '1e308 crew devices'],
  ['Growth plus 2.5 extra users', 'growth plus 2.5 extra users'],
  ['-5 extra office users', '-5 extra office users'],
  ['24/7 support', '24/7 support'],
  ['pricing for 2025-2026 and 2025 2026', 'pricing for 2025-2026 and 2025 2026'],
  ['pricing for one 2025-2026 plan', 'pricing for one 2025-2026 plan'],
  ['plans in 2024, 2025 and 2026', 'plans in 2024, 2025 and 2026'],
  ['Do you cover postcode 3000 or 2000?', 'do you cover postcode 3000 or 2000?'],
  ['does the price change after 30 June', 'does the price change after 30 june'],
  ['Version 2.1.3?', 'version 2.1.3?'],
  ['12345 items', '12345 items'],
  ['can 10 crews on the road see the job', 'can 10 crews on the road see the job'],
  ["I'm looking for pricing", "i'm looking for pricing"],
  ["I'm Looking For A Quote", "i'm looking for a quote"],
  // Fewer than six digits spelled out or with o for zero, and o alone: not a number.
  ['one two three go', 'one two three go'],
  ['call o4o2 3o5 o7o', 'call o4o2 3o5 o7o'],
  ['o_o_o_o_o_o_o_o', 'o_o_o_o_o_o_o_o'],
  // No such day or month, a version, a year out of 1900-2099: not a date.
  ['on 00/05/85', 'on 00/05/85'],
  ['on 05/00/85', 'on 05/00/85'],
  ['on 32/05/85', 'on 32/05/85'],
  ['on 12/32/85', 'on 12/32/85'],
  ['version 2.1.13', 'version 2.1.13'],
  ['in 1/3/1899', 'in 1/3/1899'],
  ['in 1/3/2100', 'in 1/3/2100'],
  // A full street word after lower-case words is kept (reportable keeps it out of the report, index.test.ts).
  ['deliver to 12 smith road', 'deliver to 12 smith road'],
  ['is 12 old Smith Road covered', 'is 12 old smith road covered'],
  ['One or two trucks?', 'one or two trucks?'],
  ['is kartage.com/pricing up to date?', 'is kartage.com/pricing up to date?'],
  ['can I log in at app.kartage.com', 'can i log in at app.kartage.com'],
  ['look at example dot com', 'look at example dot com'],
  ['meet @ 5pm', 'meet @ 5pm'],
  ['do you support xero?', 'do you support xero?'],
  // An ordinary word before a bare " at ", whatever follows: English, not an address.
  ['find us online at example dot com', 'find us online at example dot com'],
  ['is there something at example dot com', 'is there something at example dot com'],
  ['mail JSmith at Gmail.com', 'mail [email]'],
  // Capitalised ordinary words after "I'm" or "This is": the name ends at the first of them.
  ["I'm Not Sure This Fits", "i'm not sure this fits"],
  ["I'm Thinking Of Switching", "i'm thinking of switching"],
  ["I'm Calling About Pricing", "i'm calling about pricing"],
  ['This is Kartage Pricing?', 'this is kartage pricing?'],
  // A street type abbreviated in any case, a full one of the second list, words that make no street name.
  ['deliver to 12 smith St', 'deliver to [address]'],
  ['we are at 12 Marine Esplanade', 'we are at [address]'],
  ['Can 10 Trucks On The Road Share Jobs?', 'can 10 trucks on the road share jobs?'],
  // Years in a row with a dash, and white space of any kind and length.
  ['plans for 2024–2026', 'plans for 2024–2026'],
  ['How  much\t\tfor\n\ntwo   trucks?', 'how much for two trucks?'],
];

describe('scrubQuestion: the table', () => {
  it(`holds more than 60 cases`, () => {
    expect(TABLE.length).toBeGreaterThan(60);
  });

  it.each(TABLE)('%j -> %j', (input, kept) => {
    expect(scrubQuestion(input)).toBe(kept);
  });

  it('a text with a lone surrogate comes out well-formed', () => {
    const out = scrubQuestion('price \ud800 please');
    expect(out.isWellFormed()).toBe(true);
    expect(out).toMatch(/^price \S please$/);
  });

  it('scrubbing again changes nothing (the report scrubs stored text once more with today’s patterns)', () => {
    for (const [input] of TABLE) {
      const once = scrubQuestion(input);
      expect(scrubQuestion(once), input).toBe(once);
    }
  });
});

describe('scrubQuestion: generated forms (property)', () => {
  const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });

  it('a mobile number in any grouping and separator, with o for zero or not, goes', () => {
    const separator = fc.constantFrom(' ', '-', '.', '/', '_', ',', '–', '  ', ' - ');
    fc.assert(
      fc.property(digits(8), separator, fc.boolean(), (d, sep, letterO) => {
        const number = `${letterO ? 'o' : '0'}4${d.slice(0, 2).join('')}${sep}${d.slice(2, 5).join('')}${sep}${d.slice(5).join('')}`;
        expect(scrubQuestion(`call ${number} today`)).toBe('call [phone] today');
      }),
      { numRuns: 500, seed: 34 },
    );
  });

  it('an address with @ and dots written out, spaced or bracketed, goes', () => {
    const at = fc.constantFrom('@', ' @ ', ' at ', ' (at) ', '[at]', ' AT ', ' <at> ');
    const dot = fc.constantFrom('.', ' dot ', ' (dot) ', '[dot]', ' DOT ', ' . ');
    const label = fc.stringMatching(/^[a-z]{2,10}$/);
    fc.assert(
      fc.property(label, at, label, dot, fc.constantFrom('com', 'com.au', 'net', 'org'), (local, a, host, d, tld) => {
        expect(scrubQuestion(`mail ${local}.x${a}${host}${d}${tld.replace('.', d)} today`)).toBe('mail [email] today');
      }),
      { numRuns: 500, seed: 34 },
    );
  });

  it('a date of birth in any order and separator goes', () => {
    const months = 'January Feb March Apr May June July Aug Sept October Nov December'.split(' ');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1930, max: 2009 }),
        fc.constantFrom('/', '-', '.', 'named', 'us', 'iso'),
        (day, month, year, form) => {
          const p2 = (n: number) => String(n).padStart(2, '0');
          const date =
            form === 'named'
              ? `${day} ${months[month - 1]} ${year}`
              : form === 'us'
                ? `${months[month - 1]} ${day}, ${year}`
                : form === 'iso'
                  ? `${year}-${p2(month)}-${p2(day)}`
                  : `${p2(day)}${form}${p2(month)}${form}${year}`;
          expect(scrubQuestion(`born ${date} ok`)).toBe('born [date] ok');
        },
      ),
      { numRuns: 500, seed: 34 },
    );
  });
});

/** The scrub loaded afresh, its patterns built again (as the module's first load builds them). */
async function freshScrub() {
  vi.resetModules();
  const index = await import('../../../src/core/unanswered/index.ts');
  const scrub = await import('../../../src/core/unanswered/scrub.ts');
  return { ...scrub, scrubQuestion: index.scrubQuestion };
}

/** `test` holds of each text of `yes` and of none of `no`. */
function tells(test: (text: string) => boolean, yes: readonly string[], no: readonly string[]) {
  for (const text of yes) expect(test(text), text).toBe(true);
  for (const text of no) expect(test(text), text).toBe(false);
}

describe('the scrub as its module loads it', () => {
  it('keeps of each text of the table what the table says', async () => {
    const { scrubQuestion: scrub } = await freshScrub();
    for (const [input, kept] of TABLE) expect(scrub(input), input).toBe(kept);
  });

  it('removes invisible characters and keeps one space for each run of white space', async () => {
    const { normalise } = await freshScrub();
    expect(normalise(' jo\u200b@exa\u2060mple.com \t\n  call\u00a0\u00a0me  today ')).toBe(
      'jo@example.com call me today',
    );
  });

  it('tells a link or host name from a word with a dot', async () => {
    const { hasLink } = await freshScrub();
    const links = [
      'see [link] please',
      'https://kartage.com',
      'go to www.kartage',
      'is kartage.com/pricing current',
      'log in at app.kartage.com.au',
      'kartage.com pricing',
      'visit Kartage.COM',
      'spam.xyz deals',
      'cheap.loans',
      'best.digital',
      'win at big.casino',
      'quotes from best-movers.example',
      'quotes from cheap-movers.sydney',
      'spam dot com',
      'spam[.]xyz',
      'spam (dot) net',
      'movers.co',
    ];
    const words = [
      'how much is it',
      'does it work with node.js',
      'ok.so how much',
      'version 2.1.3 of the app',
      'mail [email] today',
      'send me the invoice.pdf',
      'do you support e-signing. thanks',
      'can i print a dot matrix docket',
      'what does a .com.au domain cost',
      'is it ok dot so',
    ];
    tells(hasLink, links, words);
  });

  it('finds a cue that a text names a person or gives an address', async () => {
    const { hasPersonalCue } = await freshScrub();
    const cues = [
      'this is [name], pricing?',
      'deliver to [address]',
      'my name is jo',
      "name's jo",
      'i am called jo',
      'my home address is',
      'address: here',
      'i live at the depot',
      'send it to p.o. box',
      'deliver to 12 smith road',
      'deliver to 12 Smith Road',
    ];
    const none = ['how much is it', 'can 10 crews on the road see the job', 'what is the address format'];
    tells(hasPersonalCue, cues, none);
  });

  it('tells language from placeholders, figures, gibberish and repeated words', async () => {
    const { isLanguage } = await freshScrub();
    const language = [
      'how much is it',
      "what's the price?",
      '料金はいくらですか',
      'price for [phone] users',
      'ok ? ? ? ?',
      'is it open',
    ];
    const not = [
      '[phone] [email] 12',
      '1234 5678 9012 ab',
      'bcdfg hjklm',
      'noooooo way',
      'xkcdfgh word',
      'buy buy buy buy',
      '? ? ?',
      'a b c',
    ];
    tells(isLanguage, language, not);
  });

  it('lists every pattern it builds, each bounded', async () => {
    const { SCRUB_PATTERNS: patterns } = await freshScrub();
    expect(patterns.length).toBeGreaterThan(20);
    for (const re of patterns) {
      expect(re).toBeInstanceOf(RegExp);
      for (const q of quantifiers(parse(re))) expect(q.max, q.raw).toBeLessThan(Infinity);
    }
  });
});

/** The longest text a node can match (Infinity when a quantifier has no bound). */
function width(node: AST.Node): number {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return Math.max(0, ...node.alternatives.map(width));
    case 'Alternative':
      return node.elements.reduce((n, e) => n + width(e), 0);
    case 'Quantifier':
      return node.max === 0 ? 0 : node.max * width(node.element);
    case 'Assertion':
      return 0; // lookarounds read, but do not consume: their own width is checked by `quantifiers`
    case 'Backreference':
      return 64; // only to a bounded group here
    default:
      return 1; // a character, a class, a set
  }
}

/** Every quantifier in a pattern, lookarounds included. */
function quantifiers(node: AST.Node, out: AST.Quantifier[] = []): AST.Quantifier[] {
  if (node.type === 'Quantifier') out.push(node);
  const children: AST.Node[] =
    node.type === 'Alternative'
      ? node.elements
      : node.type === 'Quantifier'
        ? [node.element]
        : 'alternatives' in node
          ? node.alternatives
          : [];
  for (const c of children) quantifiers(c, out);
  return out;
}

const parse = (re: RegExp) => new RegExpParser().parsePattern(re.source, 0, re.source.length, { unicode: true });

/** The regular expressions written in a source file: literals, and calls of `new RegExp`. */
function regexesIn(file: string): { literals: string[]; constructed: number } {
  const source = ts.createSourceFile(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const literals: string[] = [];
  let constructed = 0;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) literals.push(node.getText(source));
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'RegExp') constructed++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, constructed };
}

describe('the patterns are bounded (scrubbing is linear in the input)', () => {
  it('every pattern of the scrub is built by pattern() and listed in SCRUB_PATTERNS', () => {
    expect(regexesIn('src/core/unanswered/scrub.ts')).toEqual({ literals: [], constructed: 1 });
    expect(SCRUB_PATTERNS.length).toBeGreaterThan(20);
  });

  it.each(SCRUB_PATTERNS.map((re) => [re.source.slice(0, 60), re]))('%s…: no unbounded quantifier', (_, re) => {
    const ast = parse(re as RegExp);
    for (const q of quantifiers(ast)) expect(q.max, q.raw).toBeLessThan(Infinity);
    // So a match attempt starting anywhere reads at most this many characters: 2,000 × this bounds the scan.
    expect(width(ast)).toBeLessThanOrEqual(1_000);
  });

  it('the scrub part of unanswered.ts repeats only a single character class without bound (it cannot backtrack)', () => {
    const { literals, constructed } = regexesIn('src/core/unanswered/index.ts');
    expect(constructed).toBe(0);
    for (const literal of literals) {
      const [, body, flags] = /^\/(.*)\/([a-z]*)$/s.exec(literal)!;
      const ast = parse(new RegExp(body!, flags));
      for (const q of quantifiers(ast)) {
        if (q.max < Infinity) continue;
        // The whole pattern is one character, class or set repeated: a run it reads once.
        expect(
          ast.alternatives.map((a) => a.elements.map((e) => e.type)),
          literal,
        ).toEqual([['Quantifier']]);
        expect(['Character', 'CharacterClass', 'CharacterSet'], literal).toContain(q.element.type);
      }
    }
  });
});

/** 2,000 characters of `unit`. */
const hostile = (unit: string) => unit.repeat(Math.ceil(2_000 / unit.length)).slice(0, 2_000);

describe('hostile inputs of 2,000 characters', () => {
  it.each([
    ['one digit run', hostile('4'), /\d{6}/],
    ['spaced digits', hostile('4 '), /\d \d \d \d/],
    ['spaced digits ending in a letter', `${hostile('4 ')}a`, /\d \d \d \d/],
    ['dashes and slashes', hostile('41/2-'), /\d{3}/],
    ['letter o and digits', hostile('o4 '), /4 o4 o4/],
    ['number words', hostile('four '), /four four four four four four/],
    ['dates', hostile('12/03/'), /\d\d\/\d\d\/\d/],
    ['at signs', hostile('jo@'), /jo@jo@jo@jo@jo/],
    ['spelled out addresses', hostile('jo at x dot '), null],
    ['quotes', hostile('"jo '), null],
    ['a link with a long query', `https://x.com/?${hostile('t')}`, /ttt/],
    ['host names', hostile('a.b/'), null],
    ['street numbers', hostile('12 Smith '), null],
    ['name cues', hostile("I'm Jo "), /jo/],
    ['compatibility characters', hostile('\ufdfa'), null],
    ['zero-width characters', hostile('4\u200b'), /\d{6}/],
  ] as const)('%s: at most 200 characters, nothing of what it promises to remove', (_, input, leak) => {
    const out = scrubQuestion(input);
    expect(Array.from(out).length).toBeLessThanOrEqual(QUESTION_MAX_CHARS);
    if (leak) expect(out).not.toMatch(leak);
  });

  it('a number, email or address cut in two by the 2,000-character bound leaves no piece behind', () => {
    // A link shrinks to [link], so what stood near the cut comes within the 200 characters kept.
    const link = (n: number) => `https://x.com/?t=${'y'.repeat(n - 17)}`;
    for (const tail of ['call zero four one two three four five six', 'mail jo at example dot com', 'at 12 Smith St']) {
      // The 2,000th character falls `shift` characters into the tail.
      for (let shift = 0; shift <= tail.length + 2; shift++) {
        const out = scrubQuestion(`${link(2_000 - 41 - shift)} ${'ok '.repeat(13)}${tail} and more words after it`);
        expect(out).toMatch(/^\[link\] ok/);
        expect(out).not.toMatch(/zero|four|jo|example|12|smith/);
      }
    }
    expect(scrubQuestion(`${link(1_800)} call 0412 345 678 now`)).toBe('[link] call [phone] now');
  });
});
