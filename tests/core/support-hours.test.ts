// The support hours are defined once (src/contract/company.ts): the copy string and the chat's hour logic read the
// definition, and the contact page (content/pages/contact.md, the published hours) says the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPANY, DAY_NAMES, hoursText, SUPPORT_HOURS, type SupportHours } from '../../src/contract/company.ts';
import { supportHours } from '../../src/core/support-hours.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const contact = readFileSync(join(PROJECT_ROOT, 'content/pages/contact.md'), 'utf8');
const HOUR = String.raw`(\d{1,2})(am|pm)`;
const hourOf = (n: string, half: string) => (Number(n) % 12) + (half === 'pm' ? 12 : 0);
const dayOf = (name: string) => DAY_NAMES.indexOf(name as (typeof DAY_NAMES)[number]);

/** Every "7am to 7pm AEST, Monday to Saturday" the page states, read back into hours. */
function statedHours(text: string): Omit<SupportHours, 'utcOffsetHours'>[] {
  const re = new RegExp(`${HOUR} to ${HOUR} ([A-Z]{3,4}), ([A-Z][a-z]+day) to ([A-Z][a-z]+day)`, 'g');
  return [...text.matchAll(re)].map((m) => {
    const [from, to] = [dayOf(m[6]!), dayOf(m[7]!)];
    return {
      open: hourOf(m[1]!, m[2]!),
      close: hourOf(m[3]!, m[4]!),
      zone: m[5]!,
      days: Array.from({ length: to - from + 1 }, (_, i) => from + i),
    };
  });
}

describe('support hours, defined once', () => {
  it('the contact page states the hours of the definition, each time it states them', () => {
    const stated = statedHours(contact);
    expect(stated.length).toBeGreaterThanOrEqual(2);
    const { utcOffsetHours, ...rest } = SUPPORT_HOURS;
    for (const s of stated) expect(s).toEqual({ ...rest, days: [...rest.days] });
    expect(contact).toContain(COMPANY.supportHours);
  });

  it("the page's daylight-saving hours in Melbourne and Sydney (UTC+11) are the definition's UTC offset plus one", () => {
    const m = new RegExp(`${HOUR} to ${HOUR} in Melbourne and Sydney during daylight saving`).exec(contact);
    expect(m, 'the contact page gives the hours in daylight saving').not.toBeNull();
    const shift = 11 - SUPPORT_HOURS.utcOffsetHours;
    expect([hourOf(m![1]!, m![2]!), hourOf(m![3]!, m![4]!)]).toEqual([
      SUPPORT_HOURS.open + shift,
      SUPPORT_HOURS.close + shift,
    ]);
  });

  it('the copy is written from the definition', () => {
    expect(COMPANY.supportHours).toBe('7am to 7pm AEST, Monday to Saturday');
    const weekdays: SupportHours = { open: 8, close: 12, days: [1, 3, 5], zone: 'AWST', utcOffsetHours: 8 };
    expect(hoursText(weekdays)).toBe('8am to 12pm AWST, Monday, Wednesday and Friday');
    expect(hoursText({ ...weekdays, open: 0, days: [6] })).toBe('12am to 12pm AWST, Saturday');
  });

  it('the hour logic reads the definition: its days, hours and offset', () => {
    const weekdays: SupportHours = { open: 8, close: 17, days: [1, 2, 3, 4, 5], zone: 'AWST', utcOffsetHours: 8 };
    // Friday 27 November 2026, 16:59 AWST (08:59 UTC): open; next opening Monday.
    expect(supportHours(Date.parse('2026-11-27T08:59:00Z'), weekdays)).toEqual({
      open: true,
      opens: '8am AWST Monday',
    });
    // 17:00 AWST Friday: closed.
    expect(supportHours(Date.parse('2026-11-27T09:00:00Z'), weekdays).open).toBe(false);
    // Saturday noon AWST: closed (the definition above is open on Saturdays).
    const saturday = Date.parse('2026-11-28T04:00:00Z');
    expect(supportHours(saturday, weekdays)).toEqual({ open: false, opens: '8am AWST Monday' });
    expect(supportHours(saturday).open).toBe(true);
    // 7:59am AWST Wednesday: opens today.
    expect(supportHours(Date.parse('2026-11-24T23:59:00Z'), weekdays)).toEqual({
      open: false,
      opens: '8am AWST today',
    });
    // A clock with no open day says when it would be, a week on, and never loops.
    expect(supportHours(saturday, { ...weekdays, days: [] })).toEqual({ open: false, opens: '8am AWST Saturday' });
  });

  it('open from the opening hour on the dot; from then on, the next opening is another day', () => {
    const weekdays: SupportHours = { open: 8, close: 17, days: [1, 2, 3, 4, 5], zone: 'AWST', utcOffsetHours: 8 };
    // 8:00 AWST Wednesday 25 November 2026 (00:00 UTC): open, and next opens tomorrow.
    expect(supportHours(Date.parse('2026-11-25T00:00:00Z'), weekdays)).toEqual({
      open: true,
      opens: '8am AWST tomorrow',
    });
    // 17:00 AWST Wednesday: closed, opens tomorrow.
    expect(supportHours(Date.parse('2026-11-25T09:00:00Z'), weekdays)).toEqual({
      open: false,
      opens: '8am AWST tomorrow',
    });
  });
});
