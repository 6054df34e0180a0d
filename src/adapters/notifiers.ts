/**
 * @module Sales notification: a Slack-compatible incoming webhook in production, a log line locally. Two
 * kinds: a new lead, and a lead that could not be delivered to the CRM (refused for good, or still failing
 * past the retry bound), with the reason and the CRM's answer, so a person can act the same day.
 * Everything the visitor typed is made plain: in the fallback `text` (Slack's mrkdwn) it is escaped, its
 * formatting marks removed and its links and mentions broken (escapeSlack); the blocks carry the visitor's
 * words as `plain_text`, which Slack never formats or links. Texts are cut by code points (never inside a
 * surrogate pair) and the message is sent whole, split across as many sections as Slack's bound on one
 * section's text (3,000 characters) needs.
 */
import { CHAT_HEADER_START, CONTROL_PATTERN, withoutInvisible } from '../contract/lead-values.ts';
import type { DeadLetterReason, LeadRecord, Log, Notifier } from '../core/ports.ts';

/** Why a lead is not in the CRM, as the flush tells the notifier. */
export type Undelivered = DeadLetterReason & { attempts: number };

/** The words every "not in the CRM" notification starts with. */
export const UNDELIVERED_TITLE = 'A lead could not be delivered to the CRM';
import { postWithin } from './fetch-timeout.ts';

const CONTROLS = new RegExp(CONTROL_PATTERN.source, 'g');

/**
 * Visitor text for Slack's mrkdwn `text` (what a push notification shows), plain and linkless: `&`, `<` and
 * `>` escaped (Slack's documented rule, which also stops `<url|label>` and `<!channel>`); the marks Slack has
 * no escape for (`*`, `_`, `~`, backtick) removed; `@` and `#` followed by a zero-width space, so no mention
 * or channel link forms; `://` and a dot between letters or digits bracketed (`https[:]//acme[.]com`), so
 * no URL or host name is autolinked; control, text-direction and zero-width characters taken out.
 */
export function escapeSlack(s: string): string {
  return withoutInvisible(s)
    .replace(CONTROLS, ' ')
    .replace(/[*_~`]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:\/\//g, '[:]//')
    .replace(/(?<=[\p{L}\p{N}])[.\u2024\u3002\uff0e\uff61](?=[\p{L}\p{N}])/gu, '[.]')
    .replace(/[@#]/g, '$&\u200b');
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
  // Below 2 a surrogate pair fits no piece and the loop would never end: a caller's mistake, said at once.
  if (!(max >= 2)) throw new RangeError(`splitText: max must be at least 2, got ${max}`);
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

// Without text-direction and zero-width characters also here: a lead queued before validation removed them.
const plain = (text: string, max = SLACK_SECTION_MAX) => ({
  type: 'plain_text',
  text: cutText(withoutInvisible(text), max) || ' ',
  emoji: false,
});

/** Where the chat's conversation starts in a message: its header's first words, on a line of their own. */
const CHAT_START = new RegExp(`^[ \\t]*${CHAT_HEADER_START}\\b`, 'im');
const URL_IN_TEXT = /\bhttps?:\/\/[^\s()<>]+/gi;
/** What stands for a link to another site in the chat's conversation. */
export const OFFSITE_LINK = 'a link to another site, left out';
/** Kartage's own note before the chat's conversation in a notification. */
export const CHAT_NOTE =
  "What follows was written into the message by the visitor's browser (the chat's questions and the pages " +
  'it cited): Kartage did not check it, and links to other sites are left out.';

const sameOrigin = (url: string, origin: string) => {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
};

/**
 * A lead's message as sales is shown it: the visitor's own words, and the conversation the chat wrote into it
 * (from its header on, whoever wrote it) with every link to a page not on `origin` left out.
 */
export function splitChat(message: string, origin: string): { own: string; chat?: string } {
  const at = message.search(CHAT_START);
  if (at < 0) return { own: message };
  const chat = message.slice(at).replace(URL_IN_TEXT, (url) => (sameOrigin(url, origin) ? url : OFFSITE_LINK));
  return { own: message.slice(0, at).trimEnd(), chat };
}

/** The sections of a message: the visitor's words, then Kartage's note and the chat's conversation. */
function messageBlocks(message: string, origin: string): Record<string, unknown>[] {
  const { own, chat } = splitChat(message, origin);
  const sections = (text: string) => splitText(text).map((part) => ({ type: 'section', text: plain(part) }));
  return [
    ...(own ? sections(own) : []),
    ...(chat ? [{ type: 'context', elements: [plain(CHAT_NOTE)] }, ...sections(chat)] : []),
  ];
}

/** What a person reads first about a lead the CRM did not take: the reason, the answer, what to do. */
export function undeliveredText(record: LeadRecord, u: Undelivered): string {
  return [
    `${UNDELIVERED_TITLE} after ${u.attempts} attempt(s): ${u.reason}`,
    ...(u.status !== undefined ? [`The CRM answered ${u.status}: ${u.answer ?? '(no body)'}`] : []),
    'It is kept in the dead letters. Enter it in the CRM by hand, or fix the cause and re-queue it: ' +
      `npm run leads:requeue -- ${record.id}`,
  ].join('\n');
}

/** The webhook payload for a lead; with `undelivered`, the notice that it could not be delivered to the CRM. */
export function slackMessage(record: LeadRecord, origin: string, undelivered?: Undelivered): Record<string, unknown> {
  const { lead } = record;
  const what = lead.intent === 'demo' ? 'Demo request' : 'Enquiry';
  const who = `${lead.name}${lead.company ? ` (${lead.company})` : ''}`;
  const title = undelivered ? `Not in the CRM: ${what} from ${who}` : `${what}: ${who}`;
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
    text: `${undelivered ? `${UNDELIVERED_TITLE}: ` : ''}${what} from ${escapeSlack(lead.name)}${
      lead.company ? ` (${escapeSlack(lead.company)})` : ''
    }`,
    blocks: [
      { type: 'header', text: plain(title, HEADER_MAX) },
      ...(undelivered
        ? splitText(undeliveredText(record, undelivered)).map((part) => ({ type: 'section', text: plain(part) }))
        : []),
      { type: 'section', fields: facts.filter(([, v]) => v).map(([k, v]) => plain(`${k}: ${v}`, FIELD_MAX)) },
      // The whole message, in as many sections as Slack's bound on one section's text needs.
      ...(lead.message ? messageBlocks(lead.message, origin) : []),
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
    async notify(record, undelivered) {
      await postWithin(opts.url, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(slackMessage(record, opts.origin, undelivered)),
        timeoutMs: opts.timeoutMs ?? 3000,
        what: 'The sales webhook',
        fetch: opts.fetch,
      });
    },
  };
}

/**
 * Local default: one log line per lead (JSON, so nothing typed can break the line). It names the lead
 * but leaves contact details out, since logs travel further than the lead file or the CRM: those are in
 * the lead table, or for a lead not in the CRM, its dead letter (`npm run leads:export -- --dead-letters`).
 */
export function createLogNotifier(log: Log): Notifier {
  return {
    name: 'log',
    async notify(record, undelivered) {
      const { lead } = record;
      const who = { id: record.id, intent: lead.intent, name: lead.name, company: lead.company };
      if (!undelivered) return log('lead_notification', { level: 'info', ...who });
      log('lead_undelivered_notification', {
        level: 'error',
        message: UNDELIVERED_TITLE,
        ...who,
        attempts: undelivered.attempts,
        reason: undelivered.reason,
        status: undelivered.status,
        note: `in the dead letters: npm run leads:export -- --dead-letters; then npm run leads:requeue -- ${record.id}`,
      });
    },
  };
}
