/**
 * @module The search analyzer: text -> the terms the index holds and a query is matched on. Same steps for
 * pages (at build time) and queries: fold case and accents, split into words, drop stop words, fold US
 * spellings onto the Australian ones the site is written in, then English Porter2 (Snowball) stemming, so
 * "reducing", "reduce" and "reduces" are one term, as are "utilization" and "utilisation".
 */
import stem from 'wink-porter2-stemmer';
import { kept } from '../kept.ts';

/** The last long texts folded, and their folds: the chat folds a question (and its pieces) in several stages. */
const folds = new Map<string, string>();
const FOLD_KEPT = { length: 256, texts: 4 };

/** Lowercase, accents removed (é -> e, ß -> ss, ﬁ -> fi, m³ -> m3). */
export function fold(s: string): string {
  const folded = () =>
    s
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/ß/g, 'ss');
  return s.length < FOLD_KEPT.length ? folded() : kept(folds, s, folded, FOLD_KEPT.texts);
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
/** ASCII letters and digits (after folding only lower-case ones occur, but the table does not rely on it). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[\p{L}\p{N}]/u.test(String.fromCharCode(c)) ? 1 : 0;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Whether each non-ASCII code point seen so far is a letter or digit. */
const wordCodePoints = new Map<number, boolean>();
function isWordCodePoint(cp: number): boolean {
  let yes = wordCodePoints.get(cp);
  if (yes === undefined) wordCodePoints.set(cp, (yes = LETTER_OR_DIGIT.test(String.fromCodePoint(cp))));
  return yes;
}

/**
 * The words of a text after folding (runs of letters and digits), in order, handed to `each` one at a time: one
 * scan of the folded text, no regex split and no array (the build's indexer reads every page's text this way).
 * Plain ASCII text is only lower-cased (what `fold` makes of it).
 */
export function eachWord(s: string, each: (word: string) => void): void {
  const f = ASCII_ONLY.test(s) ? s.toLowerCase() : fold(s);
  let start = -1;
  let grouped = false;
  const emit = (end: number) => each(grouped ? f.slice(start, end).replace(/,/g, '') : f.slice(start, end));
  for (let i = 0; i < f.length; ) {
    const c = f.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (c === 44 && isDigit(f, i - 1) && thousands(f, i + 1)) {
      // A thousands separator is part of its number ("$2,500" is the 2500 a visitor types).
      word = true;
      grouped = true;
    } else if (c < 128) word = ASCII_WORD[c] === 1;
    else {
      const cp = f.codePointAt(i)!;
      if (cp > 0xffff) width = 2;
      word = isWordCodePoint(cp);
    }
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      emit(i);
      start = -1;
      grouped = false;
    }
    i += width;
  }
  if (start >= 0) emit(f.length);
}

const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};
/** Three digits at `i`, and no fourth: the group after a thousands separator. */
const thousands = (s: string, i: number) =>
  isDigit(s, i) && isDigit(s, i + 1) && isDigit(s, i + 2) && !isDigit(s, i + 3);

/** Words of a text after folding: runs of letters and digits (eachWord's, as a list). */
export function words(s: string): string[] {
  const out: string[] = [];
  eachWord(s, (w) => out.push(w));
  return out;
}

/**
 * Stop words: function words that carry no topic (articles, pronouns, auxiliaries, prepositions, question
 * words) and the filler of questions as people and agents phrase them ("please tell me…", "does Kartage offer…",
 * "what do you provide…"). Reviewed by hand:
 * a word that names a topic on the site ("use", "back", "first", "new", "report") is not here. Every single
 * letter is a stop word as well ("e" of "e-signature", "s" of "crew's").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `about above after again against am an and any are aren as at be because been before being below between both but
  by can cannot could couldn did didn do does doesn doing don done during each either etc even ever every few for from
  further get gets getting got had hadn has hasn have haven having he her here hers herself him himself his how however
  i if in into is isn it its itself just let lets like me might mine more most must mustn my myself need needs no nor
  not now of off on once only onto or other others ought our ours ourselves out over own per please same shall shan
  she should shouldn so some such than that thats the their theirs them themselves then there therefore these they
  this those though through thus til till to too toward towards under until up upon us very via vs want wants was wasn way
  ways we were weren what whats when whenever where whether which while who whom whose why will with within without won
  would wouldn yes yet you your yours yourself yourselves anyone anything someone something tell explain know kind
  thing things really also eg ie offer offers offered offering provide provides provided providing happen happens
  happened`.split(/\s+/),
);

export const isStopWord = (w: string) => w.length < 2 || STOP_WORDS.has(w);

/**
 * A word table's own value for a key: never a member every object inherits (a visitor who types "constructor"
 * must not get Object's constructor back).
 */
export const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** US -> Australian spelling: whole words (and their regular inflections) that differ. */
const US_WORDS: Record<string, string> = {
  color: 'colour',
  favor: 'favour',
  behavior: 'behaviour',
  labor: 'labour',
  neighbor: 'neighbour',
  harbor: 'harbour',
  honor: 'honour',
  humor: 'humour',
  flavor: 'flavour',
  rumor: 'rumour',
  vapor: 'vapour',
  odor: 'odour',
  endeavor: 'endeavour',
  armor: 'armour',
  parlor: 'parlour',
  savor: 'savour',
  defense: 'defence',
  offense: 'offence',
  license: 'licence',
  pretense: 'pretence',
  catalog: 'catalogue',
  dialog: 'dialogue',
  analog: 'analogue',
  program: 'programme',
  gray: 'grey',
  mold: 'mould',
  plow: 'plough',
  aluminum: 'aluminium',
  jewelry: 'jewellery',
  enroll: 'enrol',
  fulfill: 'fulfil',
  install: 'install',
  tire: 'tyre',
  pajamas: 'pyjamas',
  cozy: 'cosy',
};
/** US -> Australian: words ending -er that Australians write -re (center, meter, liter, fiber, theater). */
const ER_RE = /^(cent|met|lit|fib|theat|calib|sab|somb|spect|lust|manoeuv|maneuv)er(s|ed|ing)?$/;
const INFLECTION = /^(s|es|ed|ing|ful|able|ably|less|ite|ites|ly|er|ers|ation|ations|ary)?$/;

/** Folds a US spelling onto the Australian one (a lower-case word in; the same word back when nothing applies). */
export function auSpelling(w: string): string {
  if (w.length < 4) return w;
  // -ize/-ization -> -ise/-isation (three letters at least before it: not "size", "prize", "seize").
  let m = /^(\p{L}{3,})iz(e|es|ed|ing|ation|ations|er|ers|able)$/u.exec(w);
  if (m) return `${m[1]}is${m[2]}`;
  m = /^(\p{L}+)yz(e|es|ed|ing|er|ers)$/u.exec(w); // analyze -> analyse
  if (m) return `${m[1]}ys${m[2]}`;
  m = ER_RE.exec(w);
  if (m) return m[2] && m[2] !== 's' ? `${m[1]}r${m[2]}` : `${m[1]}re${m[2] ?? ''}`;
  m = /^(\p{L}*)(meter|liter)(s?)$/u.exec(w); // kilometer, milliliter
  if (m) return `${m[1]}${m[2] === 'meter' ? 'metre' : 'litre'}${m[3]}`;
  for (let i = Math.min(w.length, 9); i >= 4; i--) {
    const au = own(US_WORDS, w.slice(0, i));
    if (au !== undefined && INFLECTION.test(w.slice(i))) return au + w.slice(i);
  }
  return w;
}

/**
 * Words Porter2 merges with a different word on this site: "customs" (clearance) is not "customer", and
 * "customer" is not "custom". Checked against the pages: each pair names different topics here.
 */
const STEM_EXCEPTIONS = new Map([
  ['customs', 'customs'],
  ['customer', 'customer'],
  ['customers', 'customer'],
]);

const stems = new Map<string, string>();

/** The index term for one folded word (not a stop word): AU spelling, then the Porter2 stem. Memoised. */
export function termOf(w: string): string {
  let t = stems.get(w);
  if (t === undefined) {
    t = STEM_EXCEPTIONS.get(w) ?? (/\p{L}/u.test(w) ? stem(auSpelling(w)) : w);
    if (stems.size > 200_000) stems.clear();
    stems.set(w, t);
  }
  return t;
}

/** The index terms of a text, in order, stop words dropped. */
export function analyze(s: string): string[] {
  const out: string[] = [];
  for (const w of words(s)) if (!isStopWord(w)) out.push(termOf(w));
  return out;
}

/** One line of the synonym list: an abbreviation or short form and what it stands for. */
export interface SynonymEntry {
  short: string;
  long: string[];
  note?: string;
}

/**
 * Analyzed synonyms: a query term (the analyzed short form) -> the analyzed phrases it may also match.
 * One way only: a query for "SSO" also finds pages that say "single sign-on"; a query for "single sign-on" asks
 * for those words (so every term of such a query still occurs in each result).
 */
export function analyzeSynonyms(entries: SynonymEntry[]): [string, string[][]][] {
  const out: [string, string[][]][] = [];
  for (const e of entries) {
    const short = analyze(e.short);
    if (short.length !== 1) continue;
    const phrases = e.long.map(analyze).filter((p) => p.length && !(p.length === 1 && p[0] === short[0]));
    if (phrases.length) out.push([short[0]!, phrases]);
  }
  return out;
}
