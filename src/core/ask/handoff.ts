/**
 * @module What the chat says when it offers a person (the intent stage decides when: ./intent.ts): a demo, contact or
 * support, a call back or a message, or contact when the site has no answer. The label fits the hour: within
 * the support hours the site states (`SUPPORT_HOURS`, the contact page's hours) it gives the phone number for now;
 * outside them it says when a person will reply.
 */
import { COMPANY, clockHour, DAY_NAMES, SUPPORT_HOURS, type SupportHours } from '../../contract/company.ts';

export type HandoffIntent = 'demo' | 'contact' | 'callback' | 'message';

export interface Handoff {
  intent: HandoffIntent;
  label: string;
  url: string;
}

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

/** The handoff for an intent at a time: what to tell the visitor and where the form is. */
export function handoffFor(intent: HandoffIntent, now: number, origin: string, support = false): Handoff {
  const { open, opens } = supportHours(now);
  const phone = COMPANY.phone;
  const hours = COMPANY.supportHours;
  const url = (path: string) => `${origin}${path}`;
  switch (intent) {
    case 'demo':
      return {
        intent,
        label: open
          ? `Book a demo: leave your details here and a product specialist will arrange a ${COMPANY.demoMinutes}-minute walkthrough, or call ${phone} now (${hours}).`
          : `Book a demo: leave your details here and a product specialist will contact you from ${opens} to arrange a ${COMPANY.demoMinutes}-minute walkthrough.`,
        url: url('/demo'),
      };
    case 'callback':
      return {
        intent,
        label: open
          ? `Ask for a call back: leave your number and a good time and we will ring you, or call ${phone} now (${hours}).`
          : `Ask for a call back: leave your number and a good time. We are offline until ${opens} and will ring you at the time you choose.`,
        url: url('/contact'),
      };
    case 'message':
      return {
        intent,
        label: open
          ? `Leave a message here and a person will reply within one business day, or call ${phone} now (${hours}).`
          : `Leave a message here: nobody is online until ${opens}, and a person will reply then, within one business day.`,
        url: url('/contact'),
      };
    default:
      if (support) {
        return {
          intent: 'contact',
          label: open
            ? `For a problem with your Kartage account, contact support: call ${phone} now or email ${COMPANY.supportEmail}.`
            : `For a problem with your Kartage account, email ${COMPANY.supportEmail} or use in-app chat: support is back at ${opens}, and urgent problems are picked up first.`,
          url: url('/contact#who-to-contact'),
        };
      }
      return {
        intent: 'contact',
        label: open
          ? `Talk to a person: call ${phone} now (${hours}), or send your question here and we will reply within one business day.`
          : `Send your question to our team here: nobody is online until ${opens}, and a person will reply then, within one business day.`,
        url: url('/contact'),
      };
  }
}
