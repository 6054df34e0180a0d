/**
 * @module What a caught value says, for a log line or an error text: an `Error`'s message (or stack), any
 * other thrown value as a string. A `catch` gets `unknown`, and a rejection may be anything.
 */

/** The message of `e` (an Error or anything with a `message`), or `e` itself as text. */
export const errorText = (e: unknown): string => String((e as { message?: unknown } | null)?.message ?? e);

/** The stack of `e` when it has one (where an unexpected throw came from), or `e` itself as text. */
export const errorStack = (e: unknown): string => String((e as { stack?: unknown } | null)?.stack ?? e);
