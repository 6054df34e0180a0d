/**
 * The 400 message of a refused lead (src/core/lead-validation.ts `rejectMessage`): the reject problems'
 * errors, in order, joined by '; '; problems that only drop a field are not in it.
 */
import { describe, expect, it } from 'vitest';
import { rejectMessage } from '../../src/core/lead-validation.ts';

describe('reject message', () => {
  it('joins the reject problems in order and leaves out the dropped fields', () => {
    expect(
      rejectMessage([
        { field: 'email', error: 'email is not an address', outcome: 'reject' },
        { field: 'x', error: 'x is not a lead field', outcome: 'drop' },
        { field: 'name', error: 'name is required', outcome: 'reject' },
      ]),
    ).toBe('email is not an address; name is required');
  });
});
