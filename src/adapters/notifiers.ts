/**
 * @module Sales notification: a Slack-compatible incoming webhook in production, a log line locally.
 * Everything the visitor typed is escaped: the fallback `text` has `&`, `<`, `>` escaped (Slack's rule,
 * which also stops `<!channel>`-style mentions and links) and `@` defused; the blocks carry the visitor's
 * words as `plain_text`, which Slack never formats or links.
 */
import type { LeadRecord, Log, Notifier } from '../core/ports.ts';
import { postWithin } from './fetch-timeout.ts';

/** Escapes text for Slack's mrkdwn `text` (and Mattermost's markdown mentions). */
export function escapeSlack(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/@/g, '@\u200b');
}

const plain = (text: string) => ({ type: 'plain_text', text: text.slice(0, 2900) || ' ', emoji: false });

/** The webhook payload for a lead. */
export function slackMessage(record: LeadRecord, origin: string): Record<string, unknown> {
  const { lead } = record;
  const what = lead.intent === 'demo' ? 'Demo request' : 'Enquiry';
  const who = `${lead.name}${lead.company ? ` (${lead.company})` : ''}`;
  const facts: [string, string | undefined][] = [
    ['Email', lead.email],
    ['Phone', lead.phone ? `${lead.dialcode} ${lead.phone}` : undefined],
    ['Country', lead.country],
    ['Segment', lead.segment],
    ['Warehouses', lead.warehouses],
    ['Moves a year', lead.moves],
    ['From page', record.source],
  ];
  return {
    text: escapeSlack(`${what} from ${who}`),
    blocks: [
      { type: 'header', text: plain(`${what}: ${who}`.slice(0, 150)) },
      { type: 'section', fields: facts.filter(([, v]) => v).map(([k, v]) => plain(`${k}: ${v}`)) },
      ...(lead.message ? [{ type: 'section', text: plain(lead.message) }] : []),
      { type: 'context', elements: [plain(`Lead ${record.id}, received ${record.receivedAt} via ${origin}`)] },
    ],
  };
}

export function createSlackNotifier(opts: {
  url: string;
  origin: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): Notifier {
  return {
    name: 'slack webhook',
    async notify(record) {
      await postWithin(opts.url, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(slackMessage(record, opts.origin)),
        timeoutMs: opts.timeoutMs ?? 3000,
        what: 'The sales webhook',
        fetch: opts.fetch,
      });
    },
  };
}

/**
 * Local default: one log line per lead (JSON, so nothing typed can break the line). It names the lead
 * but leaves contact details out, since logs travel further than the lead file or the CRM.
 */
export function createLogNotifier(log: Log): Notifier {
  return {
    name: 'log',
    async notify(record) {
      const { lead } = record;
      log('lead_notification', {
        level: 'info',
        id: record.id,
        intent: lead.intent,
        name: lead.name,
        company: lead.company,
      });
    },
  };
}
