/**
 * The sales notification's text splitting at its edges (src/adapters/notifiers.ts `splitText`): a text of
 * exactly the bound stays one piece even with a space near its end, and a piece ends right after the space
 * in its last fifth wherever in that fifth it is; and the webhook's error names it ("The sales webhook").
 */
import { describe, expect, it } from 'vitest';
import { createSlackNotifier, splitText } from '../../src/adapters/notifiers.ts';
import type { LeadRecord } from '../../src/core/ports.ts';

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
