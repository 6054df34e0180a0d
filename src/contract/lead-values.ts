/**
 * @module The lead's value lists and dial code pattern (SPEC.md "Lead"), without zod, so browser code
 * (the WebMCP book_demo tool) can import them without bundling the schemas; schemas.ts re-exports them.
 */
export const SEGMENTS = ['Local & interstate', 'International', 'Military & government', 'Mixed'] as const;
export const WAREHOUSES = ['None', '1', '2-5', '6+'] as const;
export const MOVES = ['Under 500', '500-2,000', '2,000-10,000', '10,000+'] as const;
export const INTENTS = ['demo', 'enquiry'] as const;
export const DIALCODE_PATTERN = /^\+\d{1,4}$/;
