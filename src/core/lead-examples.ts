/**
 * @module Example payloads of the lead operations and what the real validation answers to them, for the
 * OpenAPI document and the discovery files: the error texts shown there are the ones the code produces.
 */
import { rejectMessage, validateLead } from './lead-validation.ts';
import { sandboxLead } from './leads.ts';

/** A lead whose email has no top-level domain. */
export const BAD_EMAIL = { name: 'Sam Taylor', email: 'sam@harbourline' };
/** The sandbox's 422 answer to BAD_EMAIL. */
export const badEmailCheck = sandboxLead(BAD_EMAIL, null).body;
/** submitLead's 400 text for BAD_EMAIL. */
export const badEmailError = rejectMessage(validateLead(BAD_EMAIL).problems);
/** The 400 text for a body that is not a JSON object. */
export const notAnObjectError = (sandboxLead([], null).body as { error: string }).error;
