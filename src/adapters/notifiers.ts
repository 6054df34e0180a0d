/**
 * @module Sales notification: a Slack-compatible incoming webhook in production, a log line locally.
 * Everything the visitor typed is escaped: the fallback `text` has `&`, `<`, `>` escaped (Slack's rule,
 * which also stops `<!channel>`-style mentions and links) and `@` defused; the blocks carry the visitor's
 * words as `plain_text`, which Slack never formats or links. Texts are cut by code points (never inside a
 * surrogate pair) and the message is sent whole, split across as many sections as Slack's bound on one
 * section's text (3,000 characters) needs.
 */
import type { LeadRecord, Log, Notifier } from '../core/ports.ts';
import { postWithin } from './fetch-timeout.ts';

/** Escapes text for Slack's mrkdwn `text` (and Mattermost's markdown mentions). */
export function escapeSlack(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/@/g, '@\u200b');
}

/** Slack's bound on a section's text and on a block's `plain_text` in general (characters). */
export const SLACK_SECTION_MAX = 3000;
/** Slack's bounds on a header's text and on one field of a section. */
const HEADER_MAX = 150;
const FIELD_MAX = 2000;

/**
 * `text` cut to at most `max` UTF-16 units, never inside a surrogate pair (so also at most `max` code
 * points, whichever Slack counts). Lone surrogates the visitor sent become U+FFFD.
 */
export function cutText(text: string, max: number): string {
  const s = text.toWellFormed();
  if (s.length <= max) return s;
  const end = /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max;
  return s.slice(0, end);
}

/**
 * `text` split into pieces of at most `max` UTF-16 units, none splitting a surrogate pair; joined they
 * give `text` back (well-formed). A piece ends after a line break or a space in its last fifth when there
 * is one, so words stay whole.
 */
export function splitText(text: string, max = SLACK_SECTION_MAX): string[] {
  const pieces: string[] = [];
  let rest = text.toWellFormed();
  while (rest.length > max) {
    let end = cutText(rest, max).length;
    const window = rest.slice(end - Math.floor(max / 5), end);
    const br = Math.max(window.lastIndexOf('\n'), window.lastIndexOf(' '));
    if (br >= 0) end = end - window.length + br + 1;
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  if (rest || !pieces.length) pieces.push(rest);
  return pieces;
}

const plain = (text: string, max = SLACK_SECTION_MAX) => ({
  type: 'plain_text',
  text: cutText(text, max) || ' ',
  emoji: false,
});

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
      { type: 'header', text: plain(`${what}: ${who}`, HEADER_MAX) },
      { type: 'section', fields: facts.filter(([, v]) => v).map(([k, v]) => plain(`${k}: ${v}`, FIELD_MAX)) },
      // The whole message, in as many sections as Slack's bound on one section's text needs.
      ...(lead.message ? splitText(lead.message).map((part) => ({ type: 'section', text: plain(part) })) : []),
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
