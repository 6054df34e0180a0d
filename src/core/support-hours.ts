/** @module Whether the support hours the site states (src/contract/company.ts) are open now, and when they open. */
import { clockHour, DAY_NAMES, SUPPORT_HOURS, type SupportHours } from '../contract/company.ts';

/** Whether `now` (ms since the epoch) falls within support hours, and when they next open. */
export function supportHours(now: number, hours: SupportHours = SUPPORT_HOURS): { open: boolean; opens: string } {
  const local = new Date(now + hours.utcOffsetHours * 3600_000);
  const day = local.getUTCDay();
  const hour = local.getUTCHours();
  const openOn = (d: number) => hours.days.includes(d % 7);
  const open = openOn(day) && hour >= hours.open && hour < hours.close;
  let ahead = 0;
  // Open or closed for the day: the next day that opens (a week at most, for a clock with no open day).
  if (!openOn(day) || hour >= hours.open) while (++ahead < 7 && !openOn(day + ahead));
  const when = ahead === 0 ? 'today' : ahead === 1 ? 'tomorrow' : DAY_NAMES[(day + ahead) % 7];
  return { open, opens: `${clockHour(hours.open)} ${hours.zone} ${when}` };
}
