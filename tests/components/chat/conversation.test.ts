/** The chat's conversation: answers kept as turns, the history a question carries, and the lead's message. */
import { describe, expect, it } from 'vitest';
import {
  CHAT_HEADER,
  historyOf,
  leadMessage,
  loadTurns,
  MESSAGE_MAX,
  saveTurns,
  sectionUrl,
  STORAGE_KEY,
  type Turn,
  turnOf,
} from '../../../src/components/chat/conversation.ts';

const trial: Turn = turnOf(
  {
    question: 'is there a free trial?',
    answered: true,
    answer: 'Yes. Starter and Growth come with a 30-day trial.',
    sources: [
      {
        slug: 'faq',
        title: 'Frequently asked questions',
        heading: 'Is there a free trial?',
        url: 'https://kartage.com.au/faq#is-there-a-free-trial:~:text=Yes.',
        text: '### Is there a free trial?\n\nYes. …',
        role: 'answer',
      },
      {
        slug: 'terms',
        title: 'Terms of use',
        heading: 'Trial',
        url: 'https://kartage.com.au/terms#trial',
        role: 'related',
      },
    ],
    handoff: null,
    mode: 'extractive',
  },
  'ignored',
);
const unanswered: Turn = turnOf(
  {
    question: 'do you support blockchain?',
    answered: false,
    answer: "The Kartage website doesn't answer that.",
    sources: [],
    handoff: {
      intent: 'contact',
      label: 'Send your question to our team here.',
      url: 'https://kartage.com.au/contact',
    },
  },
  'ignored',
);

class MemoryStorage {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

describe('turns', () => {
  it('keeps only what the chat uses, of the expected types', () => {
    expect(trial.sources[0]).toEqual({
      slug: 'faq',
      title: 'Frequently asked questions',
      heading: 'Is there a free trial?',
      url: 'https://kartage.com.au/faq#is-there-a-free-trial:~:text=Yes.',
      role: 'answer',
    });
    expect(unanswered.handoff?.intent).toBe('contact');
    expect(turnOf({ handoff: { intent: 'sell', label: 'x' } }, 'q')).toMatchObject({ question: 'q', handoff: null });
    expect(turnOf(null, 'q')).toEqual({ question: 'q', answered: false, answer: '', sources: [], handoff: null });
  });

  it("sends the last 10 turns, each with its answer's cited sections only", () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...trial, question: `q${i}` }));
    const history = historyOf(many);
    expect(history).toHaveLength(10);
    expect(history[0]!.question).toBe('q2');
    expect(history[9]).toEqual({ question: 'q11', sources: [{ slug: 'faq', heading: 'Is there a free trial?' }] });
    expect(historyOf([unanswered])).toEqual([{ question: 'do you support blockchain?', sources: [] }]);
  });

  it('are kept in sessionStorage and read back; a broken entry reads as none', () => {
    const storage = new MemoryStorage();
    saveTurns([trial, unanswered], storage);
    expect(loadTurns(storage)).toEqual([trial, unanswered]);
    storage.setItem(STORAGE_KEY, '{not json');
    expect(loadTurns(storage)).toEqual([]);
    saveTurns([], storage);
    expect(storage.map.has(STORAGE_KEY)).toBe(false);
    expect(loadTurns(undefined)).toEqual([]);
  });
});

describe('leadMessage', () => {
  it("puts the visitor's words first, then each question with the sections its answer cited", () => {
    expect(sectionUrl('https://kartage.com.au/demo#:~:text=Book')).toBe('https://kartage.com.au/demo');
    expect(leadMessage('We run 12 trucks.', [trial, unanswered])).toBe(
      [
        'We run 12 trucks.',
        '',
        CHAT_HEADER,
        '- is there a free trial?',
        '  Frequently asked questions: Is there a free trial? (https://kartage.com.au/faq#is-there-a-free-trial)',
        '- do you support blockchain?',
        '  (the website had no answer)',
      ].join('\n'),
    );
    expect(leadMessage('', [unanswered])).toBe(
      `${CHAT_HEADER}\n- do you support blockchain?\n  (the website had no answer)`,
    );
    expect(leadMessage('  Just this.  ', [])).toBe('Just this.');
  });

  it('leaves out the invisible characters the lead path removes (the sandbox would otherwise report them)', () => {
    const spoofed = { ...unanswered, question: '\u202edo you\u200b support \u2066blockchain?\u2069' };
    expect(leadMessage('\ufeffWe run\u200d 12 trucks.\u200e', [spoofed])).toBe(
      `We run 12 trucks.\n\n${CHAT_HEADER}\n- do you support blockchain?\n  (the website had no answer)`,
    );
  });

  it('fits 4,000 characters (not UTF-16 units): the oldest questions go first, then the own words are cut', () => {
    const turns = Array.from({ length: 40 }, (_, i) => ({ ...trial, question: `${'🚚'.repeat(100)} ${i}` }));
    const own = 'é'.repeat(1000);
    const message = leadMessage(own, turns);
    expect([...message].length).toBeLessThanOrEqual(MESSAGE_MAX);
    expect(message.startsWith(`${own}\n\n${CHAT_HEADER}\n(`)).toBe(true);
    expect(message).toMatch(/\(\d+ earlier questions left out\)/);
    expect(message).toContain(' 39\n'); // the newest question stays
    const long = leadMessage('x'.repeat(5000), [trial]);
    expect([...long].length).toBe(MESSAGE_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});
