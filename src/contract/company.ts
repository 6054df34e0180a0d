/**
 * @module The company's published facts in one place: its contact details and hours (content/pages/contact.md says
 * the same) and how long a demo runs (content/pages/demo.md says the same).
 */

/** Opening hours (see `SUPPORT_HOURS`). */
export interface SupportHours {
  /** The hour it opens, 0-23 on the clock of `zone`. */
  open: number;
  /** The hour it closes (not open from this hour on). */
  close: number;
  /** The days it is open, 0 for Sunday to 6 for Saturday (as `Date#getUTCDay` counts), in order. */
  days: readonly number[];
  /** The clock's name, as the copy writes it. */
  zone: string;
  /** The clock's offset from UTC, in hours. */
  utcOffsetHours: number;
}

/**
 * When a person answers the phone: whole hours on one clock with a fixed offset from UTC (AEST has no daylight
 * saving), on the days listed. The hours' copy (`COMPANY.supportHours`) and the chat's hour logic both read it.
 */
export const SUPPORT_HOURS: SupportHours = {
  open: 7,
  close: 19,
  days: [1, 2, 3, 4, 5, 6],
  zone: 'AEST',
  utcOffsetHours: 10,
};

/** The days of the week, Sunday first (as `Date#getUTCDay` counts). */
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** An hour of the day as the copy writes it: 7 -> "7am", 19 -> "7pm", 0 -> "12am", 12 -> "12pm". */
export const clockHour = (hour: number) => `${hour % 12 || 12}${hour < 12 ? 'am' : 'pm'}`;

/** "Monday to Saturday" for a run of days in a row, "Monday, Wednesday and Friday" otherwise. */
function daysText(days: readonly number[]): string {
  const names = days.map((d) => DAY_NAMES[d]!);
  if (days.length > 2 && days.every((d, i) => i === 0 || d === days[i - 1]! + 1))
    return `${names[0]} to ${names.at(-1)}`;
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The hours as the copy writes them: "7am to 7pm AEST, Monday to Saturday". */
export const hoursText = (h: SupportHours) =>
  `${clockHour(h.open)} to ${clockHour(h.close)} ${h.zone}, ${daysText(h.days)}`;

export const COMPANY = {
  name: 'Kartage',
  phone: '1300 527 824',
  salesEmail: 'sales@kartage.com.au',
  supportEmail: 'support@kartage.com.au',
  supportHours: hoursText(SUPPORT_HOURS),
  /** How long a demo walkthrough with a product specialist runs, in minutes. */
  demoMinutes: 45,
} as const;
