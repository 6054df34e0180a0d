/**
 * The sales notification's payload whole (src/adapters/notifiers.ts), in process: every fact of a full lead
 * in order, the undelivered notice, the log notifier's lines, the request the Slack notifier sends, and the
 * text cutting and splitting at their bounds. tests/adapters/notifiers.test.ts holds it over HTTP; these were
 * written against the mutants `npm run mutate` left (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import {
  CHAT_NOTE,
  createLogNotifier,
  createSlackNotifier,
  cutText,
  escapeSlack,
  OFFSITE_LINK,
  slackMessage,
  splitChat,
  splitText,
  undeliveredText,
} from '../../src/adapters/notifiers.ts';
import { CHAT_HEADER } from '../../src/contract/lead-values.ts';
import type { Lead } from '../../src/contract/schemas.ts';
import type { LeadRecord } from '../../src/core/ports.ts';

const ID = '7d0f6a57-2f0e-4a53-9c55-1f3b8c1e2d4a';
const record = (lead: Partial<Lead>, source?: string): LeadRecord => ({
  id: ID,
  receivedAt: '2026-11-25T02:00:00.000Z',
  lead: { name: 'Sam Taylor', email: 'sam@harbourline.example', dialcode: '+61', intent: 'enquiry', ...lead } as Lead,
  ...(source ? { source } : {}),
});
const plain = (text: string) => ({ type: 'plain_text', text, emoji: false });
const full = {
  company: 'Harbourline',
  phone: '400 000 000',
  country: 'Australia',
  segment: 'International',
  warehouses: '2-5',
  moves: '2,000-10,000',
  message: 'Hello',
  intent: 'demo',
} as Partial<Lead>;

describe('the Slack message', () => {
  it('a full lead: header, every fact in order, the message, the context', () => {
    expect(slackMessage(record(full, 'https://x.test/demo'), 'https://x.test')).toEqual({
      text: 'Demo request from Sam Taylor (Harbourline)',
      blocks: [
        { type: 'header', text: plain('Demo request: Sam Taylor (Harbourline)') },
        {
          type: 'section',
          fields: [
            plain('Email: sam@harbourline.example'),
            plain('Phone: +61 400 000 000'),
            plain('Country: Australia'),
            plain('Segment: International'),
            plain('Warehouses: 2-5'),
            plain('Moves a year: 2,000-10,000'),
            plain('From page: https://x.test/demo'),
          ],
        },
        { type: 'section', text: plain('Hello') },
        { type: 'context', elements: [plain(`Lead ${ID}, received 2026-11-25T02:00:00.000Z via https://x.test`)] },
      ],
    });
  });

  it('a bare enquiry: only the facts it has, no message section, mentions escaped in the text', () => {
    const m = slackMessage(record({ name: '<!here> & co' }), 'https://x.test');
    expect(m.text).toBe('Enquiry from &lt;!here&gt; &amp; co');
    expect(m.blocks).toEqual([
      { type: 'header', text: plain('Enquiry: <!here> & co') },
      { type: 'section', fields: [plain('Email: sam@harbourline.example')] },
      { type: 'context', elements: [plain(`Lead ${ID}, received 2026-11-25T02:00:00.000Z via https://x.test`)] },
    ]);
    expect(escapeSlack('a@b')).toBe('a@\u200bb');
  });

  it('the fallback text is plain: no mrkdwn, mention, link or host name Slack could act on', () => {
    const name = '*URGENT* _call_ ~now~ `x` ```y``` <https://evil.example|Kartage> <!channel> @here #sales';
    const company = 'evil.example, https://evil.example/a?b=1, http://10.0.0.1, www.evil．example, J.R. Ltd.';
    const m = slackMessage(record({ name, company }), 'https://x.test');
    const z = '\u200b';
    expect(m.text).toBe(
      'Enquiry from URGENT call now x y &lt;https[:]//evil[.]example|Kartage&gt; &lt;!channel&gt; ' +
        `@${z}here #${z}sales (evil[.]example, https[:]//evil[.]example/a?b=1, http[:]//10[.]0[.]0[.]1, ` +
        'www[.]evil[.]example, J[.]R. Ltd.)',
    );
    // What the blocks show is the visitor's text as sent: plain_text is never formatted or linked.
    expect((m.blocks as { text?: unknown }[])[0]!.text).toEqual(plain(cutText(`Enquiry: ${name} (${company})`, 150)));
  });

  it('text-direction and zero-width characters are taken out of text and blocks; line breaks of the text', () => {
    const m = slackMessage(record({ name: '\u202egnp.exe\u202c Sam\u200b\nLee', company: 'A\u2066B\u2069' }), 'o');
    expect(m.text).toBe('Enquiry from gnp[.]exe Sam Lee (AB)');
    expect((m.blocks as { text?: unknown }[])[0]!.text).toEqual(plain('Enquiry: gnp.exe Sam\nLee (AB)'));
    const u = { reason: 'r', attempts: 1 };
    expect(slackMessage(record({ name: '*Sam*' }), 'o', u).text).toBe(
      'A lead could not be delivered to the CRM: Enquiry from Sam',
    );
  });

  it('a lead not in the CRM: the notice first, with the answer, then the lead', () => {
    const u = { reason: 'the CRM refused it for good (HTTP 400)', status: 400, answer: 'bad field', attempts: 1 };
    const m = slackMessage(record({ company: 'H' }), 'https://x.test', u);
    expect(m.text).toBe('A lead could not be delivered to the CRM: Enquiry from Sam Taylor (H)');
    expect((m.blocks as unknown[]).slice(0, 2)).toEqual([
      { type: 'header', text: plain('Not in the CRM: Enquiry from Sam Taylor (H)') },
      { type: 'section', text: plain(undeliveredText(record({}), u)) },
    ]);
    expect(undeliveredText(record({}), u)).toBe(
      [
        'A lead could not be delivered to the CRM after 1 attempt(s): the CRM refused it for good (HTTP 400)',
        'The CRM answered 400: bad field',
        `It is kept in the dead letters. Enter it in the CRM by hand, or fix the cause and re-queue it: npm run leads:requeue -- ${ID}`,
      ].join('\n'),
    );
    expect(undeliveredText(record({}), { ...u, answer: undefined }).split('\n')[1]).toBe(
      'The CRM answered 400: (no body)',
    );
    expect(undeliveredText(record({}), { reason: 'r', attempts: 3 }).split('\n')).toHaveLength(2);
  });

  it('an empty cut text is a space (Slack refuses an empty one)', () => {
    const m = slackMessage(record({ name: '' }), 'https://x.test');
    expect((m.blocks as { text?: unknown }[])[0]!.text).toEqual(plain('Enquiry: '));
    expect(slackMessage(record({ message: '' }), 'o').blocks).toHaveLength(3);
  });

  it('a message of invisible characters alone, queued before validation removed them, is a section of a space', () => {
    const m = slackMessage(record({ message: '\u200b\u202e\u2066' }), 'o');
    expect((m.blocks as { type: string; text?: unknown }[])[2]).toEqual({ type: 'section', text: plain(' ') });
  });

  it("a message that is the chat's conversation alone: the note and the conversation, no section before them", () => {
    const message = `${CHAT_HEADER}\n- price?`;
    const blocks = (slackMessage(record({ message }), 'https://x.test').blocks as unknown[]).slice(2, -1);
    expect(blocks).toEqual([
      { type: 'context', elements: [plain(CHAT_NOTE)] },
      { type: 'section', text: plain(message) },
    ]);
  });

  it("a link in the chat's conversation that is no URL at all is left out like one to another site", () => {
    const { chat } = splitChat(`${CHAT_HEADER}\n- see http://[::1/x and https://x.test/ok`, 'https://x.test');
    expect(chat).toBe(`${CHAT_HEADER}\n- see ${OFFSITE_LINK} and https://x.test/ok`);
  });
});

describe('cutting and splitting text', () => {
  it('a text of exactly the bound is kept; one more unit is cut, never inside a surrogate pair', () => {
    expect(cutText('abcde', 5)).toBe('abcde');
    expect(cutText('abcdef', 5)).toBe('abcde');
    expect(cutText('abcd😀', 5)).toBe('abcd');
    expect(cutText('abc😀', 5)).toBe('abc😀');
  });

  it('pieces end after a space or line break in their last fifth, and join back to the text', () => {
    expect(splitText('aaaaaaaa bbbbbbbbb', 10)).toEqual(['aaaaaaaa ', 'bbbbbbbbb']);
    expect(splitText('aaaaaaaaaabbbbbbbbbb', 10)).toEqual(['aaaaaaaaaa', 'bbbbbbbbbb']);
    expect(splitText('aaaaa bbbbbbbbbbbbbb', 10)).toEqual(['aaaaa bbbb', 'bbbbbbbbbb']);
    expect(splitText('aaaaaaaaaa', 10)).toEqual(['aaaaaaaaaa']);
    expect(splitText('', 10)).toEqual(['']);
  });
});

describe('the notifiers', () => {
  it('the Slack notifier posts the message as JSON to its URL', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
      sent.push({ url: String(url), init: init ?? {} });
      return new Response('ok');
    }) as typeof fetch;
    const notifier = createSlackNotifier({ url: 'https://hooks.test/x', origin: 'https://x.test', fetch: fetchStub });
    expect(notifier.name).toBe('slack webhook');
    await notifier.notify(record({}));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://hooks.test/x');
    expect(new Headers(sent[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual(slackMessage(record({}), 'https://x.test'));
  });

  it('the log notifier names the lead without contact details; a lead not in the CRM is an error line', async () => {
    const lines: { event: string; fields?: Record<string, unknown> }[] = [];
    const notifier = createLogNotifier((event, fields) => lines.push({ event, fields }));
    expect(notifier.name).toBe('log');
    await notifier.notify(record(full));
    await notifier.notify(record(full), { reason: 'refused', status: 400, attempts: 2 });
    const who = { id: ID, intent: 'demo', name: 'Sam Taylor', company: 'Harbourline' };
    expect(lines).toEqual([
      { event: 'lead_notification', fields: { level: 'info', ...who } },
      {
        event: 'lead_undelivered_notification',
        fields: {
          level: 'error',
          message: 'A lead could not be delivered to the CRM',
          ...who,
          attempts: 2,
          reason: 'refused',
          status: 400,
          note: `in the dead letters: npm run leads:export -- --dead-letters; then npm run leads:requeue -- ${ID}`,
        },
      },
    ]);
  });
});
