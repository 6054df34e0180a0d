/**
 * HubSpot's first and last name (src/adapters/hubspot-sink.ts `splitName`) for a name of exactly two words:
 * the first is the first name, the second the last name (sinks.test.ts holds one and three words).
 */
import { describe, expect, it } from 'vitest';
import { hubSpotFields, splitName } from '../../src/adapters/hubspot-sink.ts';

describe("HubSpot's first and last name", () => {
  it('a name of two words is a first name and a last name', () => {
    expect(splitName('Sam Taylor')).toEqual({ firstname: 'Sam', lastname: 'Taylor' });
    expect(splitName('  Sam   Taylor ')).toEqual({ firstname: 'Sam', lastname: 'Taylor' });
  });

  it('the form fields of a two-word name carry both', () => {
    const fields = hubSpotFields({
      id: 'l1',
      receivedAt: 't',
      lead: { name: 'Sam Taylor', email: 's@x.example', dialcode: '+61', intent: 'enquiry' },
    });
    expect(fields.filter((f) => f.name === 'firstname' || f.name === 'lastname').map((f) => f.value)).toEqual([
      'Sam',
      'Taylor',
    ]);
  });
});
