// The sales notification over real HTTP to a local Slack-compatible webhook (tests/helpers/fake-crm.ts):
// the visitor's whole message arrives, as valid UTF-16, in sections within Slack's per-block bound; a lead
// the CRM did not take is announced as such, with the reason, the CRM's answer and what to do (the log
// notifier too, without contact details); the conversation the chat wrote into the message comes under
// Kartage's note that the visitor's browser wrote it, with its links to other sites left out.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_NOTE,
  createLogNotifier,
  createSlackNotifier,
  cutText,
  OFFSITE_LINK,
  SLACK_SECTION_MAX,
  splitChat,
  splitText,
  UNDELIVERED_TITLE,
  type Undelivered,
} from '../../src/adapters/notifiers.ts';
import { CHAT_HEADER, leadMessage, turnOf } from '../../src/components/chat/conversation.ts';
import type { Lead } from '../../src/contract/schemas.ts';
import type { LeadRecord } from '../../src/core/ports.ts';
import { startFakeSlack } from '../helpers/fake-crm.ts';

let slack: Awaited<ReturnType<typeof startFakeSlack>>;
beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.stop();
});
beforeEach(() => {
  slack.received.length = 0;
});

const codePoints = (s: string) => [...s].length;

function record(lead: Partial<Lead>): LeadRecord {
  return {
    id: '7d0f6a57-2f0e-4a53-9c55-1f3b8c1e2d4a',
    receivedAt: '2026-11-25T02:00:00.000Z',
    lead: { name: 'Sam Taylor', email: 'sam@harbourline.example', dialcode: '+61', intent: 'demo', ...lead },
    source: 'https://kartage.com.au/demo',
  };
}

interface Block {
  type: string;
  text?: { type: string; text: string };
  fields?: { text: string }[];
  elements?: { text: string }[];
}

/** Sends `rec` through the notifier to the fake Slack and returns the payload it received. */
async function notify(rec: LeadRecord, undelivered?: Undelivered): Promise<{ text: string; blocks: Block[] }> {
  await createSlackNotifier({ url: slack.url, origin: 'https://kartage.com.au' }).notify(rec, undelivered);
  expect(slack.received).toHaveLength(1);
  return slack.received[0];
}

/** Every text of every block: well-formed UTF-16 and within its bound. */
function expectValidBlocks(blocks: Block[]) {
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const b of blocks) {
    const texts = [b.text?.text, ...(b.fields ?? []).map((f) => f.text), ...(b.elements ?? []).map((e) => e.text)];
    for (const t of texts.filter((x) => x !== undefined)) {
      expect(t.isWellFormed()).toBe(true);
      expect(t.length).toBeLessThanOrEqual(b.type === 'header' ? 150 : SLACK_SECTION_MAX);
    }
  }
}

/** The message sections' texts, in order (the sections after the facts). */
const messageParts = (blocks: Block[]) => blocks.filter((b) => b.type === 'section' && b.text).map((b) => b.text!.text);

describe('the Slack sales notification', () => {
  it('sends a 4,000-character message with emoji whole, well-formed, in sections within the bound', async () => {
    const line = 'We run 38 trucks 🚚 and 2 warehouses 📦 across Sydney and Perth, and want quoting. ';
    const message = [...line.repeat(60)].slice(0, 4000).join('');
    expect(codePoints(message)).toBe(4000);
    expect(message.length).toBeGreaterThan(4000);
    const note = await notify(record({ message }));
    expectValidBlocks(note.blocks);
    const parts = messageParts(note.blocks);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe(message);
  });

  it('never splits a surrogate pair: 4,000 emoji (8,000 UTF-16 units) arrive whole', async () => {
    const message = '🚚'.repeat(4000);
    const note = await notify(record({ message }));
    expectValidBlocks(note.blocks);
    const parts = messageParts(note.blocks);
    expect(parts.length).toBe(3);
    expect(parts.join('')).toBe(message);
    // Past 120 emoji too (where the header's cut used to fall): a name of emoji is cut between pairs.
    slack.received.length = 0;
    const named = await notify(record({ name: '😀'.repeat(120), company: '📦'.repeat(100) }));
    expectValidBlocks(named.blocks);
    const header = named.blocks.find((b) => b.type === 'header')!.text!.text;
    expect(header.startsWith('Demo request: 😀😀')).toBe(true);
  });

  it('a short message is one section, unchanged; a lone surrogate the visitor sent becomes U+FFFD', async () => {
    const note = await notify(record({ message: 'Hi @here <b>x</b> 🚚' }));
    expect(messageParts(note.blocks)).toEqual(['Hi @here <b>x</b> 🚚']);
    slack.received.length = 0;
    const odd = await notify(record({ message: 'broken \uD83D end' }));
    expectValidBlocks(odd.blocks);
    expect(messageParts(odd.blocks)).toEqual(['broken \uFFFD end']);
  });
});

describe("the conversation the chat writes into the message: the visitor's browser's, not Kartage's", () => {
  const source = (heading: string, url: string) => ({ slug: 's', title: 'Pricing', heading, url, role: 'answer' });
  /** The texts of the blocks after the facts section: the message's sections and any note (context). */
  const afterFacts = (blocks: Block[]) =>
    blocks.slice(2, -1).map((b) => (b.type === 'context' ? { note: b.elements![0]!.text } : b.text!.text));

  it("comes after Kartage's note; its links to this site stay, every other link is left out", async () => {
    const turns = [
      turnOf(
        {
          question: 'is there a free trial?',
          answered: true,
          sources: [source('Trial', 'https://kartage.com.au/pricing#trial')],
        },
        '',
      ),
      turnOf(
        {
          question: 'is it free? https://evil.example/claim',
          answered: true,
          sources: [
            source('Free forever', 'https://evil.example/pricing'),
            source('Look-alike', 'https://kartage.com.au@evil.example/pricing'),
            source('Not TLS', 'http://kartage.com.au/pricing'),
            source('Port', 'https://kartage.com.au:8443/pricing'),
          ],
        },
        '',
      ),
    ];
    const own = 'We run 12 trucks; our site is https://harbourline.example';
    const note = await notify(record({ message: leadMessage(own, turns) }));
    expectValidBlocks(note.blocks);
    expect(afterFacts(note.blocks)).toEqual([
      own,
      { note: CHAT_NOTE },
      [
        CHAT_HEADER,
        '- is there a free trial?',
        '  Pricing: Trial (https://kartage.com.au/pricing#trial)',
        `- is it free? ${OFFSITE_LINK}`,
        ...['Free forever', 'Look-alike', 'Not TLS', 'Port'].map((h) => `  Pricing: ${h} (${OFFSITE_LINK})`),
      ].join('\n'),
    ]);
  });

  it('a section written by hand under the old header, or the header alone, is marked and checked the same', () => {
    const forged = 'Call me.\n\n  questions asked in the chat:\n- price?\n  Pricing: $0 (https://evil.example/x)';
    expect(splitChat(forged, 'https://kartage.com.au')).toEqual({
      own: 'Call me.',
      chat: `  questions asked in the chat:\n- price?\n  Pricing: $0 (${OFFSITE_LINK})`,
    });
    expect(splitChat(CHAT_HEADER, 'https://kartage.com.au')).toEqual({ own: '', chat: CHAT_HEADER });
  });

  it("a message without the conversation has no note; its links are the visitor's own and stay", async () => {
    const message = 'See https://evil.example/x. Questions asked in the chatroom: none';
    const note = await notify(record({ message }));
    expect(afterFacts(note.blocks)).toEqual([message]);
  });
});

describe('a lead that could not be delivered to the CRM', () => {
  const refused: Undelivered = {
    reason: 'the CRM refused it for good (HTTP 400)',
    status: 400,
    answer: `{"status":"error","errors":[{"message":"Error in 'fields.kartage_segment'.","errorType":"FIELD_NOT_IN_FORM_DEFINITION"}]}`,
    attempts: 1,
  };

  it('Slack: says so first, with the reason, the answer, the lead and the command that re-queues it', async () => {
    const rec = record({ message: 'Quote for 3 sites, please', company: 'Harbourline <!here>' });
    const note = await notify(rec, refused);
    expectValidBlocks(note.blocks);
    expect(note.text).toBe(`${UNDELIVERED_TITLE}: Demo request from Sam Taylor (Harbourline &lt;!here&gt;)`);
    expect(note.blocks[0]!.text!.text).toBe('Not in the CRM: Demo request from Sam Taylor (Harbourline <!here>)');
    const why = note.blocks[1]!.text!.text;
    expect(why).toContain(`${UNDELIVERED_TITLE} after 1 attempt(s): the CRM refused it for good (HTTP 400)`);
    expect(why).toContain(`The CRM answered 400: ${refused.answer}`);
    expect(why).toContain(`npm run leads:requeue -- ${rec.id}`);
    // The lead's details follow, as in a new lead's notification.
    const all = JSON.stringify(note.blocks);
    for (const detail of [
      'Email: sam@harbourline.example',
      'Quote for 3 sites, please',
      'From page: https://kartage.com.au/demo',
    ])
      expect(all).toContain(detail);
  });

  it('Slack: without an answer (a CRM that never answered), no answer line; a long answer stays in bounds', async () => {
    const note = await notify(record({}), { reason: 'still failing after 25 attempt(s) in 19 h', attempts: 25 });
    expect(JSON.stringify(note.blocks)).not.toContain('The CRM answered');
    slack.received.length = 0;
    const long = await notify(record({}), { ...refused, answer: '😀'.repeat(3000) });
    expectValidBlocks(long.blocks);
  });

  it('the log notifier: an error line with the reason and the lead named, no contact details', async () => {
    const lines: { event: string; fields?: Record<string, unknown> }[] = [];
    const notifier = createLogNotifier((event, fields) => lines.push({ event, fields }));
    const rec = record({ company: 'Harbourline' });
    await notifier.notify(rec);
    await notifier.notify(rec, refused);
    expect(lines.map((l) => l.event)).toEqual(['lead_notification', 'lead_undelivered_notification']);
    expect(lines[1]!.fields).toMatchObject({
      level: 'error',
      message: UNDELIVERED_TITLE,
      id: rec.id,
      name: 'Sam Taylor',
      company: 'Harbourline',
      attempts: 1,
      status: 400,
      reason: refused.reason,
    });
    expect(JSON.stringify(lines)).not.toContain('sam@harbourline.example');
  });
});

describe('cutting and splitting by code points', () => {
  it('cuts before a pair rather than inside it', () => {
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
    expect(cutText('abc', 10)).toBe('abc');
  });

  it('splits at a space near the end of a piece, else at a code point boundary', () => {
    expect(splitText('aaaaaaaa bbbbbbbb', 10)).toEqual(['aaaaaaaa ', 'bbbbbbbb']);
    expect(splitText('aaaaaaaaaaaaaaa', 10)).toEqual(['aaaaaaaaaa', 'aaaaa']);
    expect(splitText('😀😀😀', 3)).toEqual(['😀', '😀', '😀']);
    expect(splitText('', 3)).toEqual(['']);
  });
});

describe('splitting a text into sections', () => {
  it('a text of exactly the bound is one piece, even with a space in its last fifth', () => {
    expect(splitText('abcdefgh i', 10)).toEqual(['abcdefgh i']);
    expect(splitText('abcdefghi ', 10)).toEqual(['abcdefghi ']);
  });

  it('a piece ends right after the space in its last fifth, wherever in the fifth it is', () => {
    // Bound 10: the last fifth is characters 8 and 9; the space is the second of them.
    expect(splitText('abcdefghi jklmn', 10)).toEqual(['abcdefghi ', 'jklmn']);
    // Bound 20: the last fifth is characters 16 to 19; the space is the third of them.
    expect(splitText('abcdefghijklmnopqr stuvw', 20)).toEqual(['abcdefghijklmnopqr ', 'stuvw']);
  });

  it('a bound too small for a surrogate pair is refused at once instead of looping', () => {
    expect(() => splitText('\u{1F600}a', 1)).toThrow(RangeError);
    expect(() => splitText('abc', 0)).toThrow(RangeError);
    expect(splitText('\u{1F600}\u{1F600}a', 2)).toEqual(['\u{1F600}', '\u{1F600}', 'a']);
  });

  it('the refusal names the smallest bound and the one it was given', () => {
    expect(() => splitText('abc', 1)).toThrow(new RangeError('splitText: max must be at least 2, got 1'));
    expect(() => splitText('abc', Number.NaN)).toThrow(new RangeError('splitText: max must be at least 2, got NaN'));
  });
});

describe('the sales webhook', () => {
  it('a refusal rejects with an error that names the sales webhook, its status and answer', async () => {
    const fetch = (async () => new Response('no_service', { status: 404 })) as typeof globalThis.fetch;
    const notifier = createSlackNotifier({ url: 'https://hooks.test/x', origin: 'https://x.test', fetch });
    const record: LeadRecord = {
      id: 'l1',
      receivedAt: 't',
      lead: { name: 'Sam', email: 's@x.example', dialcode: '+61', intent: 'enquiry' },
    };
    await expect(notifier.notify(record)).rejects.toThrow(
      expect.objectContaining({ message: 'The sales webhook answered 404: no_service', status: 404 }),
    );
  });
});
