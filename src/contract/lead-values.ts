/**
 * @module The lead's value lists and dial code pattern (SPEC.md "Lead"), without zod, so browser code
 * (the WebMCP book_demo tool) can import them without bundling the schemas; schemas.ts re-exports them.
 */
export const SEGMENTS = ['Local & interstate', 'International', 'Military & government', 'Mixed'] as const;
export const WAREHOUSES = ['None', '1', '2-5', '6+'] as const;
export const MOVES = ['Under 500', '500-2,000', '2,000-10,000', '10,000+'] as const;
export const INTENTS = ['demo', 'enquiry'] as const;
export const DIALCODE_PATTERN = /^\+\d{1,4}$/;
/** Each lead field as the site's form labels it; the form's answer page without JavaScript names them so too. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  email: 'Work email',
  company: 'Company',
  dialcode: 'Dial code',
  phone: 'Phone',
  country: 'Country',
  segment: 'Kind of moving work',
  warehouses: 'Warehouses',
  moves: 'Moves per year',
  message: 'Message',
  intent: 'Intent',
};
/**
 * A practical email address (zod's own `z.email()` rule, which tests/core/lead-validation.test.ts checks it
 * still equals): the one rule the API's validation and the site's form script both apply.
 */
export const EMAIL_PATTERN =
  // biome-ignore lint/complexity/noUselessEscapeInRegex: equal to zod's rule, character for character (tested)
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Control characters: only the message may hold them (line breaks). */
export const CONTROL_PATTERN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/**
 * Invisible characters that change how text shows, not what it says: the bidirectional controls (U+061C,
 * U+200E/F, U+202A-U+202E, U+2066-U+2069) and the zero-width ones (U+200B-U+200D, U+2060-U+2064, U+FEFF).
 * "\u202Egnp.exe" shows as "exe.png"; none belongs in what a visitor tells sales.
 */
export const INVISIBLE_PATTERN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE_PATTERN.source, 'g');
/** The distinct invisible characters in `text`, in order of first appearance. */
export const invisibleIn = (text: string): string[] => [...new Set(text.match(INVISIBLE_ALL))];
/** `text` without its invisible characters. */
export const withoutInvisible = (text: string): string => text.replace(INVISIBLE_ALL, '');
/** The words the chat's conversation in a lead's `message` starts with, as the sales notification finds it. */
export const CHAT_HEADER_START = 'Questions asked in the chat';
/**
 * The line before the conversation the website chat writes into a lead's `message`. It says who wrote what
 * follows: the visitor's browser, so anyone could have; the sales notification marks that part and leaves
 * its links to other sites out (src/adapters/notifiers.ts).
 */
export const CHAT_HEADER = `${CHAT_HEADER_START}, as the visitor's browser wrote them (not checked by Kartage):`;
