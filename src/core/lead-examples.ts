/**
 * @module An example lead payload and the text the real validation gives it, for the OpenAPI document and the
 * discovery files: the error texts shown there are the ones the code produces.
 */
import { rejectMessage, validateLead } from './lead-validation.ts';

/** A lead whose email has no top-level domain. */
export const BAD_EMAIL = { name: 'Sam Taylor', email: 'sam@harbourline' };
/** submitLead's refusal text for BAD_EMAIL. */
export const badEmailError = rejectMessage(validateLead(BAD_EMAIL).problems);
