/**
 * @module What the chat says when it offers a person (a demo, contact or support, a call back, a message). Within the
 * support hours (`SUPPORT_HOURS`) the label gives the phone number for now; outside them, when a person will reply
 * (the labels: ./handoff-labels.json).
 */
import type { z } from 'zod';
import type { HandoffSchema } from '../../contract/ask.ts';
import { COMPANY } from '../../contract/company.ts';
import { supportHours } from '../support-hours.ts';
import copy from './handoff-labels.json' with { type: 'json' };

export type Handoff = z.infer<typeof HandoffSchema>;
export type HandoffIntent = Handoff['intent'];

/** The handoff for an intent at a time (`support`: an existing customer's problem, offered as contact). */
export function handoffFor(intent: HandoffIntent | 'support', now: number, origin: string): Handoff {
  const { open, opens } = supportHours(now);
  const { path, open: within, closed: outside } = copy.labels[intent];
  const v: Record<string, unknown> = { ...COMPANY, opens };
  const label = (open ? within : outside).replace(/\{(\w+)\}/g, (_, k: string) => String(v[k]));
  return { intent: intent === 'support' ? 'contact' : intent, label, url: `${origin}${path}` };
}
