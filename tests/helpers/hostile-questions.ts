/**
 * Questions built to make the chat's analyser work hard: runs of compatibility characters that fold
 * into several letters each (NFKD: "ﬃ" is three, "㌖" six, "ﷺ" eighteen), digits, punctuation, long made-up words,
 * repeated words, e-mail-like and link-like runs, and mixes of them, each at the question's full length.
 */
import { ASK_LIMITS } from '../../src/contract/limits.ts';

const MAX = ASK_LIMITS.questionMax;
/** `unit` repeated to `max` characters (UTF-16 units), never splitting a character. */
const fill = (unit: string, max = MAX) => unit.repeat(Math.floor(max / unit.length));

export const HOSTILE_QUESTIONS: Readonly<Record<string, string>> = {
  ligatures: fill('\ufb03'),
  squareKm: fill('\u3316'),
  arabicLigature: fill('\ufdfa'),
  ligatureWords: fill('\ufb03 '),
  digits: fill('9'),
  spacedDigits: fill('9 '),
  punctuation: fill('?!.,;'),
  repeatedWord: fill('pricing '),
  oneLongWord: fill('abcdefghijklmnopqrst'),
  misspeltWords: fill('qwertyuiopas '),
  longMisspeltWords: fill('qwertyuiopasdfghjklz '),
  atSigns: fill('@'),
  emailish: fill('a@'),
  linkish: fill('http://'),
  questionWords: fill('is there and what '),
  mixed: fill('storag\ufb03 '),
  newlines: fill('quote\n'),
  astral: fill('\u{1d400}'),
  combining: fill('e\u0301\u0302\u0303'),
  phoneish: fill('+61 (0) '),
};
