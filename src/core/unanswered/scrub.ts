/**
 * @module What is kept of a question the assistant could not answer (src/core/unanswered/index.ts): the text
 * normalised as a question is (zero-width and other invisible characters removed, NFKC), the personal data a
 * pattern can find replaced by a placeholder, and the tests that keep a question out of the content team's
 * report (a link, text that is not language, a cue that it names a person or gives an address).
 *
 * Every pattern is built by `pattern()` and listed in `SCRUB_PATTERNS`, and every quantifier in it is bounded:
 * a match attempt reads a bounded number of characters wherever it starts, so scrubbing is linear in the input
 * (tests/core/unanswered/scrub.test.ts checks the shapes).
 */

const registry: RegExp[] = [];
/** A pattern of this module (listed in `SCRUB_PATTERNS`, so its shape is checked). */
function pattern(source: string, flags = 'gu'): RegExp {
  const re = new RegExp(source, flags);
  registry.push(re);
  return re;
}
/** Every regular expression the scrub and the report's tests use. */
export const SCRUB_PATTERNS: readonly RegExp[] = registry;

/** The placeholders the scrub writes, `[email]` and the others. */
export const PLACEHOLDER = pattern(String.raw`\[(?:link|email|phone|number|date|name|address)\]`, 'g');

/** Characters that show nothing: format controls (zero-width space, joiners, bidi controls) and the ignorables. */
const INVISIBLE = pattern(String.raw`[\p{Cf}\p{Default_Ignorable_Code_Point}]`);
/** White space, controls and separators: one space each. */
const SPACE = pattern(String.raw`[\s\p{Cc}\p{Z}]`);
const SPACE_RUN = pattern(' (?= )', 'g');

/**
 * The text as a question is read: well-formed, invisible characters removed (not turned into spaces, so
 * `jo@exa\u200bmple.com` is one address), NFKC (full-width and other compatibility forms become plain
 * letters, digits and `@`), every run of white space one space, trimmed.
 */
export function normalise(text: string): string {
  return text.toWellFormed().replace(INVISIBLE, '').normalize('NFKC').replace(SPACE, ' ').replace(SPACE_RUN, '').trim();
}

/** A letter or digit: what a match must not start or end inside. */
const ALNUM = String.raw`\p{L}\p{N}`;

/**
 * A link with a query string, up to the `?`: a scheme (`https://…`) or a host name (`www.x.com`,
 * `x.com.au/path`). A link without a query stays (it names a page, not a person), and is kept out of the
 * report. A host name is not read out of the middle of an email address.
 */
const LINK_WITH_QUERY = pattern(
  String.raw`(?:\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s?]{0,256}|(?<![${ALNUM}!#$%&'*+/=?^_\x60{|}~.@-])` +
    String.raw`(?:[${ALNUM}-]{1,63}\.){1,10}[a-z]{2,24}(?::\d{1,5})?(?:\/[^\s?]{0,256})?)\?(?=\S)`,
  'giu',
);

/** The part of an address before the `@`. */
const LOCAL = String.raw`[${ALNUM}!#$%&'*+/=?^_\x60{|}~.-]{1,64}`;
const LABEL = `[${ALNUM}-]{1,63}`;
/** `.` as written in an address: `.`, ` . `, `(dot)`, `[dot]`, ` dot `. */
const DOT = String.raw`(?:\.| \. | ?[([{<] ?dot ?[)\]}>] ?| dot )`;
/** `@` written out or spaced: `(at)`, `[at]`, ` at `, ` @ `. */
const SPELLED_AT = String.raw`(?: ?[([{<] ?at ?[)\]}>] ?| @ ?|@ | at )`;
/** Where a domain ends: not inside a word. */
const DOMAIN_END = `(?![${ALNUM}_-])`;
/** Where a written-out address ends: also not before an `@` ("me at jo.smith@x.com" is one address, not two). */
const SPELLED_END = `(?![${ALNUM}@_-])`;
/**
 * An email address: `jo@example.com` (and `jo@localhost`), written out (`jo (at) example (dot) com`,
 * `jo at example dot com`) or with a quoted local part (`"jo smith"@example.com`). Written-out forms need a
 * dot, so "meet @ 5" stays.
 */
const EMAIL = pattern(
  `["“”][^"“”]{1,64}["“”] ?@ ?${LABEL}(?:${DOT}${LABEL}){0,8}${DOMAIN_END}|` +
    `(?<local>${LOCAL})(?:@${LABEL}(?:${DOT}${LABEL}){0,8}${DOMAIN_END}|` +
    `(?<at>${SPELLED_AT})(?<domain>${LABEL}(?:${DOT}${LABEL}){1,8})${SPELLED_END})`,
  'giu',
);
/** Words that come before a bare " at " in a question ("log in at x.com", "look at x dot com"): not an address. */
const NOT_A_MAILBOX = new Set(
  (
    'in on up it is me us we you them him her that this there here one look looking see found find live hosted ' +
    'online available login log signup sign site page app portal website web help support pricing details info ' +
    'anything everything something out off back'
  ).split(' '),
);

/** Mail providers: "jsmith at gmail.com" is an address, "quotes at movers.com.au" may be a web site. */
const MAILBOX_DOMAIN = pattern(
  String.raw`(?:^|\.)(?:gmail|googlemail|outlook|hotmail|live|msn|yahoo|icloud|me|mac|aol|proton|protonmail|` +
    String.raw`bigpond|optusnet|iinet|tpg|internode|westnet|dodo|gmx|zoho|fastmail|yandex|mail)\.[a-z.]{2,12}$`,
  'iu',
);
const SPELLED_DOT = pattern(String.raw`[([{<] ?dot|\bdot\b`, 'iu');
const MAILBOX_LOCAL = pattern(String.raw`[._+\d]`, 'u');

function email(match: string, ...args: unknown[]): string {
  const { local, at, domain } = args.at(-1) as { local?: string; at?: string; domain?: string };
  if (at?.toLowerCase() !== ' at ') return '[email]';
  // A bare " at ": an address when the dots are written out, the name has a dot, a digit or `_`, or the
  // domain is a mail provider's; after an ordinary word ("sign up at kartage.com") it is English.
  if (NOT_A_MAILBOX.has(local!.toLowerCase())) return match;
  return SPELLED_DOT.test(domain!) || MAILBOX_LOCAL.test(local!) || MAILBOX_DOMAIN.test(domain!) ? '[email]' : match;
}

const MONTH = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DAY = String.raw`(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?`;
/**
 * A full date, day, month and year: 12/03/1985, 12-3-85, 12.03.1985, 1985-03-12, 12 March 1985, 12th of Mar
 * 1985, March 12, 1985. Day and month alone ("30 June") and a year alone stay.
 */
const NUMERIC_DATE = pattern(
  String.raw`(?<![${ALNUM}.,/-])(?:(\d{1,2})([/._ -])(\d{1,2})\2(\d{4}|\d{2})|((?:19|20)\d{2})([/._-])(\d{1,2})\6(\d{1,2}))(?![\p{N}])`,
);
const NAMED_DATE = pattern(
  String.raw`(?<![${ALNUM}])(?:${DAY}(?: of)?[ /.-]{1,2}${MONTH}\.?,?[ /.-]{1,2}|${MONTH}\.?[ /.-]{1,2}${DAY},?[ ]?)` +
    String.raw`(?:(?:19|20)\d{2}|'\d{2})(?![${ALNUM}])`,
  'giu',
);

const dayMonth = (a: number, b: number) => a >= 1 && b >= 1 && ((a <= 31 && b <= 12) || (a <= 12 && b <= 31));
function numericDate(match: string, ...g: (string | undefined)[]): string {
  const [d1, sep, d2, year, isoYear, , month, day] = g;
  if (isoYear) return dayMonth(Number(day), Number(month)) ? '[date]' : match;
  // Two-digit years only with / or - (12/03/85): "2.1.13" is a version.
  if (year!.length === 2 && sep !== '/' && sep !== '-') return match;
  if (year!.length === 4 && (Number(year) < 1900 || Number(year) > 2099)) return match;
  return dayMonth(Number(d1), Number(d2)) ? '[date]' : match;
}

const NUMBER_WORD = '(?:zero|oh|o|nought|nil|one|two|three|four|five|six|seven|eight|nine|double|triple)';
const DIGIT_TOKEN = String.raw`(?:${NUMBER_WORD}(?![\p{L}])|\p{Nd}{1,4}(?!\p{Nd}))`;
/** Digits spelled out, alone or mixed with digits: "zero four one two, three four five…". */
const SPELLED_NUMBER = pattern(`(?<![${ALNUM}])${DIGIT_TOKEN}(?:[ ,./-]{1,3}${DIGIT_TOKEN}){2,23}`, 'giu');
const NUMBER_WORDS = pattern(String.raw`(?<![\p{L}])${NUMBER_WORD}(?![\p{L}])`, 'giu');
const DIGITS = pattern(String.raw`\p{Nd}`);

/** How many digits a number word stands for: "double" and "triple" add one and two to the next. */
const wordDigits = (word: string) => ({ double: 1, triple: 2 })[word.toLowerCase()] ?? 1;

function spelledNumber(match: string): string {
  const words = match.match(NUMBER_WORDS);
  if (!words || words.length < 2) return match; // digits alone are the phone and number patterns' to judge
  const digits = (match.match(DIGITS)?.length ?? 0) + words.reduce((n, w) => n + wordDigits(w), 0);
  return digits >= 6 ? '[phone]' : match;
}

/** A digit, or the letter o written for a zero (`o412 345 678`) when no letter follows it. */
const DIGIT = String.raw`(?:\p{Nd}|[oO](?![\p{L}]))`;
/**
 * A phone number (and any number written in groups): eight to twenty digits with up to three separators
 * (space, `-`, `.`, `/`, `_`, a dash, brackets) or one comma between any two, optionally after `+` or `(`:
 * 0412 345 678, 0412/345/678, 0412,345,678, +61 (0)412 345 678, (03) 9123 4567, 1300 123 456, +44 20 7946 0958.
 */
const PHONE = pattern(
  String.raw`(?<![${ALNUM}])(?:\+ ?|\(\+?)?${DIGIT}(?:(?:[ ()./_\p{Pd}]{1,3}|,)?${DIGIT}){7,19}(?!\p{N})`,
);
/** Thousands grouped with commas (20,000,000 or $1,890,000.50): a figure, not a phone number. */
const THOUSANDS = pattern(String.raw`^[1-9]\d{0,2}(?:,\d{3}){2,6}(?:\.\d{1,2})?$`, 'u');
/** Years in a row (2024, 2025 and 2026 written 2024-2026 or 2025 2026). */
const YEARS = pattern(String.raw`^(?:(?:19|20)\d{2}[ ,/\p{Pd}]{1,3}){1,4}(?:19|20)\d{2}$`, 'u');
const LETTER_O = pattern('[oO]', 'g');

function phone(match: string): string {
  if (THOUSANDS.test(match) || YEARS.test(match)) return match;
  const digits = match.match(DIGITS)?.length ?? 0;
  // With o for zero, at least six real digits ("o_o_o_o_o_o_o_o" is not a number); without, all eight are.
  return match.match(LETTER_O) && digits < 6 ? match : '[phone]';
}

/** An Australian 13 number (13 27 82, 13-27-82; 132782 is a long digit run anyway). */
const THIRTEEN = pattern(String.raw`(?<![${ALNUM}])13(?:[ -]?\d{2}){2}(?![\p{N}])`);
/** Six or more digits in a row (an account, order, card or reference number), up to 64 at a time. */
const LONG_DIGITS = pattern(String.raw`\p{Nd}{6,64}`);
/** A placeholder right after the same one (a very long digit run is replaced 64 digits at a time). */
const REPEATED_NUMBER = pattern(String.raw`(?<=\[number\])\[number\]`, 'g');

const STREET_WORDS = [
  'street|road|avenue|drive|court|place|lane|crescent|parade|highway|terrace|boulevard|close|circuit|grove',
  'esplanade|square|way',
].join('|');
/** Street types no one writes for anything else: a lower-case "12 smith st" is an address too. */
const STREET_ABBREVIATIONS = 'st|rd|ave|dr|ct|pl|ln|cres|pde|hwy|tce|blvd|cl|cct|gr|esp|sq';
/** Words no street name is made of ("10 trucks on the road"). */
const NOT_STREET_NAME = String.raw`(?!(?:on|in|at|the|a|an|per|for|to|of|with|and|or|my|our|your|their|is|are|off|up|down)(?![\p{L}]))`;
/** One to three words of a street's name, each followed by a space. */
const STREET_NAME = String.raw`(?:${NOT_STREET_NAME}[\p{L}'’.-]{1,30} ){1,3}`;
const ABBREVIATION = pattern(`^(?:${STREET_ABBREVIATIONS})$`, 'i');
/**
 * A street address: a number (4, 4a, 4/12, unit 4, 12-14), one to three words and a street type: 12 Smith
 * Street, Unit 4/12 O'Connell St, 88 smith st. With a full word as the type ("road", "way") the words must be
 * capitalised, so "10 trucks on the road" stays. Also a PO box, GPO box or locked bag.
 */
const ADDRESS = pattern(
  String.raw`(?<![${ALNUM}])(?:(?:unit|apt|apartment|flat|suite|shop|level|lvl) ?\d{1,5}[a-z]?(?:,? |\/))?` +
    String.raw`\d{1,5}[a-z]?(?:[/-]\d{1,5}[a-z]?)? (?<words>${STREET_NAME})` +
    String.raw`(?<type>${STREET_WORDS}|${STREET_ABBREVIATIONS})\.?(?![\p{L}])` +
    String.raw`|(?<![${ALNUM}])(?:g\.? ?p\.? ?o\.?|p\.? ?o\.?|post office|locked) ?(?:box|bag) ?\d{1,6}(?!\p{N})`,
  'giu',
);
const CAPITALISED = pattern(String.raw`^\p{Lu}`, 'u');

function address(match: string, ...args: unknown[]): string {
  const { words, type } = args.at(-1) as { words?: string; type?: string };
  if (type === undefined || ABBREVIATION.test(type)) return '[address]';
  const capitalised = words!
    .trim()
    .split(' ')
    .every((w) => CAPITALISED.test(w));
  return capitalised ? '[address]' : match;
}

/** Words that end the name after a cue ("my name is Jo and I …"). */
const NAME_STOP = `(?:and|from|at|with|of|i|im|i'm|but|here|is|my|we|our|the|a|an|to|for|in|on|do|can|how|what|are|was|will)`;
const NAME_WORD = String.raw`(?!${NAME_STOP}(?![\p{L}]))[\p{L}'’.-]{1,30}`;
/** "my name is Jo Smith", "name: jo", "I am called Jo": the one to three words after the cue, in any case. */
const NAMED = pattern(
  String.raw`(?<![\p{L}])(?<cue>my name(?:'s| is|s| ?:)|name ?:|i(?:'m| am) called) (?<name>${NAME_WORD}(?: ${NAME_WORD}){0,2})`,
  'giu',
);
/** "I'm Jo Smith", "This is Jo": capitalised words after the cue, unless ordinary words ("I'm Looking for…"). */
const INTRODUCED = pattern(
  String.raw`(?<![\p{L}])(?<cue>[Ii]'m|[Ii] am|[Ii]m|[Tt]his is) (?<name>\p{Lu}[\p{L}'’-]{0,29}(?: \p{Lu}[\p{L}'’-]{0,29}){0,2})`,
);
/** Capitalised words after "I'm" or "This is" that are not a name (checked lower-case). */
const NOT_A_NAME = new Set(
  (
    'a an the in on at so not just also here back new very really still already currently about after from with ' +
    'looking interested wondering trying keen using running planning hoping considering comparing evaluating ' +
    'thinking getting having unable able sure happy curious confused going ready working moving based located ' +
    'calling writing asking switching setting struggling glad pleased frustrated unhappy stuck lost ok okay fine ' +
    'owner manager director kartage xero myob quickbooks starter growth professional enterprise'
  ).split(' '),
);

function introduced(match: string, ...args: unknown[]): string {
  const { cue, name } = args.at(-1) as { cue: string; name: string };
  const words = name.split(' ');
  const end = words.findIndex((w) => NOT_A_NAME.has(w.toLowerCase()));
  const kept = end < 0 ? words : words.slice(0, end);
  if (!kept.length) return match;
  return `${cue} [name]${match.slice(cue.length + 1 + kept.join(' ').length)}`;
}

/**
 * The text with the personal data a pattern can find replaced: links with a query string `[link]`, email
 * addresses `[email]`, full dates `[date]`, phone numbers, digits spelled out and numbers of eight digits or
 * more written in groups `[phone]`, six or more digits in a row `[number]`, street addresses and PO boxes
 * `[address]`, and a name after "my name is" or "I'm" `[name]`. Figures a visitor asks about stay ("$390",
 * "2,000 moves", "10 devices", "30-day", "20,000,000"). Expects `normalise`d text.
 */
export function scrubPersonalData(text: string): string {
  return replaceToWordEnd(text, LINK_WITH_QUERY, '[link]')
    .replace(EMAIL, email)
    .replace(NUMERIC_DATE, numericDate)
    .replace(NAMED_DATE, '[date]')
    .replace(SPELLED_NUMBER, spelledNumber)
    .replace(PHONE, phone)
    .replace(THIRTEEN, '[phone]')
    .replace(LONG_DIGITS, '[number]')
    .replace(REPEATED_NUMBER, '')
    .replace(ADDRESS, address)
    .replace(NAMED, (match, ...args) => {
      const { cue } = args.at(-1) as { cue: string };
      return `${match.slice(0, cue.length)} [name]`;
    })
    .replace(INTRODUCED, introduced);
}

/** Each match of `re` and the rest of its word replaced by `placeholder` (a query string ends at a space). */
function replaceToWordEnd(text: string, re: RegExp, placeholder: string): string {
  let out = '';
  let from = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const space = text.indexOf(' ', m.index);
    const end = space === -1 ? text.length : space;
    out += text.slice(from, m.index) + placeholder;
    from = end;
    re.lastIndex = end;
  }
  return out + text.slice(from);
}

/** File types written like a host name's last label ("invoice.pdf", "node.js"): not a link. */
const FILE_TYPES = 'js|ts|py|rb|md|txt|pdf|csv|xls|xlsx|doc|docx|jpg|jpeg|png|gif|json|xml|html|htm|zip|exe';
/** Two-letter words that are also country domains: "ok.so how much" is a missing space, not a link. */
const WORD_DOMAINS = 'so|in|it|is|to|me|my|no|us|be|do|by|as|at|am|an|or|if|of|on|go|he|we|hi|ok|up';
/** Domains of three letters or more written after one dot with no path (common, spam-favoured, reserved). */
const DOMAINS =
  'com|net|org|edu|gov|info|biz|xyz|top|site|online|shop|store|app|dev|club|live|link|click|buzz|icu|vip|win|' +
  'loan|loans|work|fun|tech|space|website|cloud|pro|mobi|name|asia|today|life|world|email|services|agency|' +
  'digital|page|blog|news|media|group|company|solutions|network|host|ltd|inc|llc|global|zone|cash|money|deals|' +
  'sale|shopping|market|review|download|stream|casino|bet|date|dating|party|example|test|invalid|localhost';
const HOST = `(?<![${ALNUM}@.-])${LABEL}`;
/**
 * A link or host name in (lower-case, scrubbed) text: a `[link]`, a scheme, `www.`, a host name with a path
 * (`x.co/a`) or with two dots or more (`app.kartage.com.au`), one with one dot and a country domain or a
 * common one (`kartage.com`, `spam.xyz`; not "node.js" or "ok.so"), a hyphenated name and any domain
 * (`best-movers.example`), or one written out (`spam dot com`, `spam[.]xyz`).
 */
const LINK = pattern(
  [
    String.raw`\[link\]|\b[a-z][a-z0-9+.-]{0,20}:\/\/|\bwww\.`,
    String.raw`${HOST}(?:\.${LABEL}){0,8}\.\p{L}{2,24}\/`,
    String.raw`${HOST}(?:\.${LABEL}){1,8}\.\p{L}{2,24}(?![${ALNUM}-])`,
    String.raw`${HOST}\.(?!(?:${FILE_TYPES}|${WORD_DOMAINS})(?![\p{L}]))(?:\p{L}{2}|${DOMAINS})(?![${ALNUM}-])`,
    String.raw`(?<![${ALNUM}@.-])[${ALNUM}]{1,30}(?:-[${ALNUM}]{1,30}){1,4}\.(?!(?:${FILE_TYPES})(?![\p{L}]))` +
      String.raw`\p{L}{2,24}(?![${ALNUM}-])`,
    String.raw`${HOST}(?: ?[([{] ?(?:\.|dot) ?[)\]}] ?| dot )(?!(?:${WORD_DOMAINS})(?![\p{L}]))` +
      String.raw`(?:\p{L}{2}|${DOMAINS})(?![${ALNUM}-])`,
  ].join('|'),
  'iu',
);
/** Whether the text carries a link or a host name. */
export const hasLink = (text: string): boolean => LINK.test(text);

/**
 * A cue that the text names a person or gives an address, read in lower case: a `[name]` or `[address]` the
 * scrub wrote, "my name", "name is", "I am called", "my address", "I live at", a PO box, or a number, words
 * and a street type ("12 smith road") that the scrub kept because it was not capitalised.
 */
const PERSONAL_CUE = pattern(
  String.raw`\[(?:name|address)\]|(?<![\p{L}])(?:my name|name(?:'s| is| ?:)|i(?:'m| am) called|my (?:home |street )?address|` +
    String.raw`address(?: is| ?:)|i live (?:at|on)|p\.? ?o\.? box)(?![\p{L}])|` +
    String.raw`(?<![${ALNUM}])\d{1,5}[a-z]?(?:[/-]\d{1,5}[a-z]?)? ${STREET_NAME}(?:${STREET_WORDS})(?![\p{L}])`,
  'iu',
);
/** Whether the text looks like it names a person or gives a street address. */
export const hasPersonalCue = (text: string): boolean => PERSONAL_CUE.test(text);

const WORDS = pattern(String.raw`[\p{L}\p{M}'’]{1,64}`);
const APOSTROPHE = pattern("['’]");
const LETTER = pattern(String.raw`\p{L}`);
const VISIBLE = pattern(String.raw`\S`);
const LATIN_WORD = pattern(`^[a-z'’]{1,64}$`, 'u');
const VOWEL = pattern('[aeiouy]', 'u');
const CONSONANT_RUN = pattern('[b-df-hj-np-tv-xz]{6}', 'u');
const SAME_LETTER_RUN = pattern(String.raw`(\p{L})\1{3}`, 'u');

/** A word no language has: no vowel in five letters or more, six consonants in a row, a letter four times. */
function gibberish(word: string): boolean {
  if (word.length > 30 || SAME_LETTER_RUN.test(word)) return true;
  if (!LATIN_WORD.test(word)) return false; // another script: not judged letter by letter
  return (word.length >= 5 && !VOWEL.test(word)) || CONSONANT_RUN.test(word);
}

/**
 * Whether (lower-case, scrubbed) text reads as language: placeholders aside, at least a third of its visible
 * characters are letters, it has a word of two letters or more, at most a third of its words are gibberish,
 * and three words or more are not one or two words repeated.
 */
export function isLanguage(text: string): boolean {
  const rest = text.replace(PLACEHOLDER, ' ');
  const visible = rest.match(VISIBLE)?.length ?? 0;
  const letters = rest.match(LETTER)?.length ?? 0;
  if (!visible || letters * 3 < visible) return false;
  // A letter was counted above, so there is a word.
  const words = rest.match(WORDS)!.map((w) => w.replace(APOSTROPHE, ''));
  if (!words.some((w) => w.length >= 2)) return false;
  if (words.filter(gibberish).length * 3 > words.length) return false;
  // One or two words always pass: a set of one is a third of three.
  return new Set(words).size * 3 > words.length;
}
