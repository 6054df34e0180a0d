/**
 * @module The lead's value lists and dial code pattern (SPEC.md "Lead"), without zod, so browser code
 * (the WebMCP book_demo tool) can import them without bundling the schemas; schemas.ts re-exports them.
 */
export const SEGMENTS = ['Local & interstate', 'International', 'Military & government', 'Mixed'] as const;
export const WAREHOUSES = ['None', '1', '2-5', '6+'] as const;
export const MOVES = ['Under 500', '500-2,000', '2,000-10,000', '10,000+'] as const;
export const INTENTS = ['demo', 'enquiry'] as const;
export const DIALCODE_PATTERN = /^\+\d{1,4}$/;
/**
 * A practical email address (zod's own `z.email()` rule, which tests/core/lead-validation.test.ts checks it
 * still equals): the one rule the API's validation and the site's form script both apply.
 */
export const EMAIL_PATTERN =
  // biome-ignore lint/complexity/noUselessEscapeInRegex: equal to zod's rule, character for character (tested)
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Control characters: only the message may hold them (line breaks). */
export const CONTROL_PATTERN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
