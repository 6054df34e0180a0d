/**
 * @module What the chat says when it offers a person (a demo, contact or support, a call back, a message). Within the
 * support hours (`SUPPORT_HOURS`) the label gives the phone number for now; outside them, when a person will reply.
 */
import type { z } from 'zod';
import type { HandoffSchema } from '../../contract/ask.ts';
import { COMPANY } from '../../contract/company.ts';
import { supportHours } from '../support-hours.ts';

export type Handoff = z.infer<typeof HandoffSchema>;
export type HandoffIntent = Handoff['intent'];

/** Each handoff's page and label within and outside support hours ({names} filled in by handoffFor). */
const LABELS: Record<HandoffIntent | 'support', [path: string, open: string, closed: string]> = {
  demo: [
    '/demo',
    'Book a demo: leave your details here and a product specialist will arrange a {demoMinutes}-minute walkthrough, or call {phone} now ({supportHours}).',
    'Book a demo: leave your details here and a product specialist will contact you from {opens} to arrange a {demoMinutes}-minute walkthrough.',
  ],
  callback: [
    '/contact',
    'Ask for a call back: leave your number and a good time and we will ring you, or call {phone} now ({supportHours}).',
    'Ask for a call back: leave your number and a good time. We are offline until {opens} and will ring you at the time you choose.',
  ],
  message: [
    '/contact',
    'Leave a message here and a person will reply within one business day, or call {phone} now ({supportHours}).',
    'Leave a message here: nobody is online until {opens}, and a person will reply then, within one business day.',
  ],
  support: [
    '/contact#who-to-contact',
    'For a problem with your Kartage account, contact support: call {phone} now or email {supportEmail}.',
    'For a problem with your Kartage account, email {supportEmail} or use in-app chat: support is back at {opens}, and urgent problems are picked up first.',
  ],
  contact: [
    '/contact',
    'Talk to a person: call {phone} now ({supportHours}), or send your question here and we will reply within one business day.',
    'Send your question to our team here: nobody is online until {opens}, and a person will reply then, within one business day.',
  ],
};

/** The handoff for an intent at a time (`support`: an existing customer's problem, offered as contact). */
export function handoffFor(intent: HandoffIntent | 'support', now: number, origin: string): Handoff {
  const { open, opens } = supportHours(now);
  const [path, within, outside] = LABELS[intent];
  const v: Record<string, unknown> = { ...COMPANY, opens };
  const label = (open ? within : outside).replace(/\{(\w+)\}/g, (_, k: string) => String(v[k]));
  return { intent: intent === 'support' ? 'contact' : intent, label, url: `${origin}${path}` };
}
