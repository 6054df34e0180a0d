/**
 * What the assistant could not answer, counted for the content team (src/core/unanswered/index.ts): the
 * scrubbing (no email, phone number, link with a query or long number survives), the normalised key, the
 * 200-character bound, and the recorder the operation calls: it returns at once, never throws, hands a
 * write that always settles (within its bound) to `defer`, and logs a run of failures once.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  askerId,
  createUnansweredRecorder,
  DAY_MS,
  QUESTION_MAX_CHARS,
  questionKey,
  reportable,
  scrubQuestion,
  UNANSWERED_TIMEOUT_MS,
} from '../../../src/core/unanswered/index.ts';
import { createMemoryStore } from '../../../src/adapters/memory-store/index.ts';
import type { Store } from '../../../src/core/ports.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('scrubQuestion', () => {
  it.each([
    ['my email is Jo.Smith+quotes@Example.com.au, reply there', 'my email is [email], reply there'],
    ['write to JO_S@mail.example.org.', 'write to [email].'],
    ['jo (at) example (dot) com or jo[at]example[dot]com', '[email] or [email]'],
    ['mailto:jo@example.com', 'mailto:[email]'],
  ])('emails: %j', (q, out) => {
    expect(scrubQuestion(q)).toBe(out);
  });

  it.each([
    // Australian mobiles, landlines and business numbers, in the ways people write them.
    ['call me on 0412 345 678 tomorrow', 'call me on [phone] tomorrow'],
    ['call me on 0412345678', 'call me on [phone]'],
    ['0412-345-678?', '[phone]?'],
    ['+61 412 345 678', '[phone]'],
    ['+61412345678', '[phone]'],
    ['+61 (0)412 345 678', '[phone]'],
    ['my office is (03) 9123 4567', 'my office is [phone]'],
    ['03 9123 4567', '[phone]'],
    ['(02) 9876-5432 after 5', '[phone] after 5'],
    ['is 1300 527 824 your number', 'is [phone] your number'],
    ['1800 123 456 or 1300527824', '[phone] or [phone]'],
    // International forms.
    ['+1 (555) 123-4567', '[phone]'],
    ['+44 20 7946 0958', '[phone]'],
    ['+64 21 123 4567', '[phone]'],
    ['555-123-4567', '[phone]'],
    ['+49 30 12345678', '[phone]'],
    ['555.123.4567', '[phone]'],
    // Full-width digits are digits too.
    ['０４１２ ３４５ ６７８', '[phone]'],
  ])('phone numbers: %j', (q, out) => {
    expect(scrubQuestion(q)).toBe(out);
  });

  it.each([
    ['see https://app.example.com/invoice?id=42&token=abc please', 'see [link] please'],
    ['www.kartage.com.au/pricing?utm_source=mail&email=jo%40x.com', '[link]'],
    ['kartage.com/demo?name=jo why', '[link] why'],
    ['http://localhost:4321/?q=x', '[link]'],
    ['https://x.com/signup?email=jo@x.com&ph=0412345678 fails', '[link] fails'],
    // A link without a query names a page, not a person; a question mark after one is punctuation.
    ['is kartage.com/pricing up to date?', 'is kartage.com/pricing up to date?'],
    ['what is on https://kartage.com/pricing?', 'what is on https://kartage.com/pricing?'],
  ])('links with a query string: %j', (q, out) => {
    expect(scrubQuestion(q)).toBe(out);
  });

  it.each([
    ['my account number 12345678901 is locked', 'my account number [phone] is locked'],
    ['order 123456 and card 4111111111111111', 'order [number] and card [phone]'],
    ['ref abc1234567def', 'ref abc[number]def'],
  ])('long digit runs: %j', (q, out) => {
    expect(scrubQuestion(q)).toBe(out);
  });

  it.each([
    ['How much is $1,890.50 a month for 25 trucks?', 'how much is $1,890.50 a month for 25 trucks?'],
    ['Do you cover postcode 3000 or 2000?', 'do you cover postcode 3000 or 2000?'],
    ['pricing for 2025-2026 and 2025 2026', 'pricing for 2025-2026 and 2025 2026'],
    ['12345 items', '12345 items'],
    ['Version 2.1.3?', 'version 2.1.3?'],
  ])('keeps what is not personal: %j', (q, out) => {
    expect(scrubQuestion(q)).toBe(out);
  });

  it('full dates go (a date of birth is one): the day, month and year', () => {
    expect(scrubQuestion('what changed since 2026-11-23 or 23.11.2026')).toBe('what changed since [date] or [date]');
  });

  it('collapses whitespace (tabs, newlines, no-break spaces), removes zero-width characters, lower-cases', () => {
    expect(scrubQuestion('  Do\tYou\n\nSUPPORT\u00a0Xero\u200b?  ')).toBe('do you support xero?');
    expect(scrubQuestion('DOES  IT   WORK')).toBe('does it work');
  });

  it(`caps the text at ${QUESTION_MAX_CHARS} characters (code points: an emoji is one)`, () => {
    expect(scrubQuestion('a'.repeat(500))).toBe('a'.repeat(QUESTION_MAX_CHARS));
    const emoji = scrubQuestion('🚚'.repeat(300));
    expect(Array.from(emoji)).toHaveLength(QUESTION_MAX_CHARS);
    expect(emoji.isWellFormed()).toBe(true);
    expect(Array.from(scrubQuestion(`${'word '.repeat(100)}call 0412 345 678`)).length).toBeLessThanOrEqual(200);
    // Cut at 200 before a space: no space is left at the end.
    expect(scrubQuestion(`${'a'.repeat(QUESTION_MAX_CHARS - 1)} b`)).toBe('a'.repeat(QUESTION_MAX_CHARS - 1));
  });

  it('reads 2,000 characters at a word, less the last twelve words (none read in part)', () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa'
      .concat(' quebec romeo sierra tango uniform victor whiskey xray yankee zulu')
      .split(' ');
    // A link with a long query shrinks to [link], so the words past it come within the 200 characters kept.
    for (let length = 2_000 - 190; length <= 2_000 - 20; length++) {
      const link = `https://x.com/?t=${'y'.repeat(length - 17)}`;
      const text = [link, ...words].join(' ');
      // The words that end within the first 2,000 characters; past 2,000, all but the last twelve of them.
      let end = -1;
      const whole = [link, ...words].filter((w) => (end += 1 + w.length) <= 2_000);
      const kept = text.length <= 2_000 ? [link, ...words] : whole.slice(0, Math.max(whole.length - 12, 0));
      expect(scrubQuestion(text), `${text.length} characters`).toBe(kept.join(' ').replace(link, '[link]'));
    }
  });

  it('reads at most 8,000 characters as they arrive (before invisible characters are removed)', () => {
    expect(scrubQuestion(`${'\u200b'.repeat(7_990)}do you support xero`)).toBe('do you sup');
    expect(scrubQuestion(`${'\u200b'.repeat(8_000)}do you support xero`)).toBe('');
  });

  it('never throws, keeps at most 200 characters, and leaves no 6-digit run or address (property)', () => {
    const digits = fc.stringMatching(/^[0-9]{6,12}$/);
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), digits, fc.string({ maxLength: 40 }), (a, d, b) => {
        const out = scrubQuestion(`${a} ${d} ${b}`);
        expect(Array.from(out).length).toBeLessThanOrEqual(QUESTION_MAX_CHARS);
        expect(out).not.toContain(d);
        expect(out).toBe(out.toLowerCase());
        expect(out).not.toMatch(/\s{2}/);
      }),
      { numRuns: 300, seed: 23 },
    );
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        // All of it goes (one that also reads as a host with a query, `a.aa?b@c.au`, goes as a link).
        expect(scrubQuestion(`is ${email} on file`)).toMatch(/^is \[(?:email|link)\] on file$/);
      }),
      { numRuns: 2_000, seed: 23 },
    );
    for (const odd of [undefined, null, 42, {}] as unknown as string[]) expect(() => scrubQuestion(odd)).not.toThrow();
  });
});

describe('questionKey', () => {
  it('one key for the same question asked with other case, spacing, punctuation or accents', () => {
    const key = (q: string) => questionKey(scrubQuestion(q));
    expect(key('How much does it cost?')).toBe('how much does it cost');
    expect(key('how much   does it cost')).toBe(key('How much does it cost?!'));
    expect(key("What's the café rate")).toBe(key('whats the cafe rate'));
    expect(key('call 0412 345 678')).toBe(key('Call +61 412 999 000.'));
    expect(key('call 0412 345 678')).toBe('call [phone]');
    expect(key('?!')).toBe('');
    expect(key('fast, cheap & good?')).toBe('fast cheap good');
  });
});

describe('reportable', () => {
  it.each([
    'do you integrate with xero?',
    'is there a free trial? call me on [phone]',
    'can i email [email] my quote?',
    'how much is $1,890.50 a month for 25 trucks?',
    'pricing for 2025-2026 and 2025 2026',
    'do you support node.js?',
    'can i upload an invoice.pdf',
    'ok.so how much is growth',
    'crm sms api',
    'rhythm and strengths',
    '是否支持离线使用',
    'is the polka dot on it',
    'very very good',
    'is it ok',
    'tax 12,345',
    'what about qwrtzx',
    `is ${'ab'.repeat(15)}`, // thirty letters
  ])('lists %j', (text) => {
    expect(reportable(text)).toEqual({ ok: true });
  });

  it.each([
    ['buy cheap pills at spam.xyz now', 'link'],
    ['best deals spam dot com', 'link'],
    ['best deals at spam[.]xyz', 'link'],
    ['visit http://spam.example', 'link'],
    ['www.spam.example for deals', 'link'],
    ['shop.deals.example has it cheaper', 'link'],
    ['cheap-meds.example/x great offer', 'link'],
    ['[link] great offer', 'link'],
    ['is kartage.com/pricing up to date?', 'link'],
    ['my name is jo at spam.xyz', 'link'],
    ['$$$ ### !!! 123', 'not language'],
    ['1234 5678 [number]', 'not language'],
    ['[phone]', 'not language'],
    ['🚚🚚🚚', 'not language'],
    ['a b c d e', 'not language'],
    ['buy buy buy buy buy', 'not language'],
    ['spam spam spam eggs spam spam', 'not language'],
    ['asdfghjkl qwrty', 'not language'],
    ['xkcd zzzzz', 'not language'],
    ['bcdfgh pricing', 'not language'],
    ['ok bcdfg', 'not language'],
    ['wow aaaaah', 'not language'],
    [`is ${'ab'.repeat(15)}a`, 'not language'], // thirty-one letters
    ["hey qwrt'zxcv", 'not language'],
    ['is 12345 $$$ 99', 'not language'],
    ['buy buy buy', 'not language'],
    ['my name is [name] and i want a demo', 'personal'],
    ["i'm [name] from acme removals", 'personal'],
    ['we are at [address] richmond', 'personal'],
    ['my address is near the station', 'personal'],
    ['name is jo, call me', 'personal'],
    ['i live at the end of the street', 'personal'],
    ['deliver to 12 smith road', 'personal'],
    ['send it to po box 5', 'personal'],
  ])('keeps %j out of the report (%s)', (text, reason) => {
    expect(reportable(text)).toEqual({ ok: false, reason });
  });

  it('what the scrub makes of a visitor who names themselves or an address is not listed', () => {
    for (const q of ['My name is Jo Smith, is there a trial?', "Hi, I'm Jo Smith", 'We are at 12 Smith Street']) {
      expect(reportable(scrubQuestion(q))).toEqual({ ok: false, reason: 'personal' });
    }
    for (const q of ['Deliver to 12 smith road', 'is 12 old Smith Road covered']) {
      expect(reportable(scrubQuestion(q))).toEqual({ ok: false, reason: 'personal' });
    }
    expect(reportable(scrubQuestion("I'm looking for pricing for 10 trucks"))).toEqual({ ok: true });
    // A number between two letters leaves no word.
    expect(reportable(scrubQuestion('x123456y'))).toEqual({ ok: false, reason: 'not language' });
  });
});

describe('askerId', () => {
  const day = Date.UTC(2026, 10, 23);

  it("a client's anonymous name: 128 bits in hex, one per client and UTC day, the address nowhere in it", async () => {
    const clients = ['203.0.113.77', '198.51.100.23', '2001:db8::1', '10.0.0.1', '10.0.0.2'];
    const names = await Promise.all(clients.map((c) => askerId(c, day + 1_000)));
    for (const name of names) expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(names).size).toBe(clients.length);
    // The same all day long, another the next day.
    expect(await askerId(clients[0]!, day)).toBe(names[0]);
    expect(await askerId(clients[0]!, day + DAY_MS - 1)).toBe(names[0]);
    expect(await askerId(clients[0]!, day + DAY_MS)).not.toBe(names[0]);
    expect(await askerId(clients[0]!, day - 1)).not.toBe(names[0]);
  });
});

/** A store whose counting the test controls, and what the recorder handed to `defer` and `log`. */
function harness(countQuestion: Store['countQuestion']) {
  const calls: unknown[][] = [];
  const deferred: Promise<unknown>[] = [];
  const logs: { event: string; fields?: Record<string, unknown> }[] = [];
  const record = createUnansweredRecorder({
    store: {
      countQuestion: (...args) => {
        calls.push(args);
        return countQuestion(...args);
      },
    },
    log: (event, fields) => logs.push({ event, fields }),
    now: () => Date.UTC(2026, 10, 23, 10, 0, 0),
    defer: (work) => deferred.push(work),
  });
  return { record, calls, deferred, logs };
}

describe('createUnansweredRecorder', () => {
  it('hands the store the key, the scrubbed text and the time, nothing else, and the work to defer', async () => {
    const store = createMemoryStore();
    const h = harness((...args) => store.countQuestion(...args));
    h.record('Can I call you on 0412 345 678 about Xero?');
    h.record('can i call you on +61 499 000 111 about xero');
    expect(h.calls).toEqual([]); // the write starts on a later turn, never inside the caller's
    expect(h.deferred).toHaveLength(2);
    await Promise.all(h.deferred);
    expect(h.calls[0]).toEqual([
      'can i call you on [phone] about xero',
      'can i call you on [phone] about xero?',
      Date.UTC(2026, 10, 23, 10, 0, 0),
      undefined, // no client given: no asker
    ]);
    expect(await store.topQuestions(5)).toEqual([
      { text: 'can i call you on [phone] about xero?', count: 2, lastAsked: Date.UTC(2026, 10, 23, 10, 0, 0) },
    ]);
    expect(h.logs).toEqual([]);
  });

  it('with a client, a question counts once per client and day', async () => {
    const store = createMemoryStore();
    const clock = { t: Date.UTC(2026, 10, 23, 10, 0, 0) };
    const deferred: Promise<unknown>[] = [];
    const record = createUnansweredRecorder({
      store,
      log: () => {},
      now: () => clock.t,
      defer: (work) => deferred.push(work),
    });
    for (let i = 0; i < 3; i++) record('Do you move pianos?', '203.0.113.77');
    record('do you move pianos', '198.51.100.23');
    await Promise.all(deferred);
    expect(await store.topQuestions(5)).toMatchObject([{ text: 'do you move pianos?', count: 2 }]);
    clock.t += DAY_MS;
    record('Do you move pianos?', '203.0.113.77');
    await Promise.all(deferred);
    expect(await store.topQuestions(5)).toMatchObject([{ count: 3 }]);
  });

  it('counts nothing for a message with no words left (only a phone number, only punctuation)', () => {
    const h = harness(() => Promise.resolve());
    for (const q of ['0412 345 678', '?', '   ', 'jo@example.com 123456']) h.record(q);
    expect(h.deferred).toEqual([]);
  });

  it('returns before a slow store finishes; the deferred work settles at the bound, logged', async () => {
    vi.useFakeTimers();
    let finish: () => void = () => {};
    const h = harness(() => new Promise<void>((r) => (finish = r)));
    h.record('is there a free trial');
    let settled = false;
    void h.deferred[0]!.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(UNANSWERED_TIMEOUT_MS - 1);
    expect(h.calls).toHaveLength(1); // the store is counting, and has not finished
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true); // the store still has not
    expect(h.logs).toMatchObject([{ event: 'unanswered_not_counted', fields: { level: 'warn' } }]);
    expect(String(h.logs[0]!.fields!.reason)).toContain(`${UNANSWERED_TIMEOUT_MS} ms`);
    expect(h.logs[0]!.fields).not.toHaveProperty('error'); // a timeout has no error to tell
    finish();
  });

  it('never throws: a store that throws, rejects or never answers, a failing defer or log', async () => {
    vi.useFakeTimers();
    const throwing = harness(() => {
      throw new Error('sync boom');
    });
    const rejecting = harness(() => Promise.reject(new Error('ECONNREFUSED')));
    const hanging = harness(() => new Promise<void>(() => {}));
    for (const h of [throwing, rejecting, hanging]) {
      expect(() => h.record('do you support xero')).not.toThrow();
    }
    const badDefer = createUnansweredRecorder({
      store: createMemoryStore(),
      log: () => {
        throw new Error('log broken');
      },
      now: () => 0,
      defer: () => {
        throw new Error('no request context');
      },
    });
    expect(() => badDefer('do you support xero')).not.toThrow();
    const badNow = createUnansweredRecorder({
      store: createMemoryStore(),
      log: () => {},
      now: () => {
        throw new Error('clock broken');
      },
      defer: () => {},
    });
    expect(() => badNow('do you support xero')).not.toThrow();
    await vi.advanceTimersByTimeAsync(UNANSWERED_TIMEOUT_MS);
    for (const h of [throwing, rejecting, hanging]) await expect(h.deferred[0]).resolves.toBeUndefined();
    expect(throwing.logs[0]).toMatchObject({ event: 'unanswered_not_counted', fields: { error: 'sync boom' } });
    expect(rejecting.logs[0]).toMatchObject({ event: 'unanswered_not_counted', fields: { error: 'ECONNREFUSED' } });
    // Each says why, and that what follows is only counted.
    for (const h of [throwing, rejecting, hanging]) {
      expect(h.logs[0]!.fields).toMatchObject({ level: 'warn', reason: expect.stringMatching(/\w/) });
      expect(String(h.logs[0]!.fields!.note)).toMatch(/further failures/);
    }
  });

  it('logs a defer that fails, and a failure before the write (a broken clock), with the error cut to 300', async () => {
    const logs: { event: string; fields?: Record<string, unknown> }[] = [];
    const deps = {
      store: createMemoryStore(),
      log: (event: string, fields?: Record<string, unknown>) => logs.push({ event, fields }),
    };
    const long = 'x'.repeat(1_000);
    createUnansweredRecorder({
      ...deps,
      now: () => 0,
      defer: () => {
        throw new Error(`no request context ${long}`);
      },
    })('do you support xero');
    createUnansweredRecorder({
      ...deps,
      now: () => {
        throw new Error(`clock broken ${long}`);
      },
      defer: () => {},
    })('do you support xero');
    expect(logs).toEqual([
      {
        event: 'unanswered_defer_failed',
        fields: { level: 'warn', error: `no request context ${long}`.slice(0, 300) },
      },
      {
        event: 'unanswered_not_counted',
        fields: expect.objectContaining({
          level: 'warn',
          reason: expect.stringMatching(/\w/),
          error: `clock broken ${long}`.slice(0, 300),
        }),
      },
    ]);
  });

  it('leaves no timer behind once the store has answered', async () => {
    vi.useFakeTimers();
    const h = harness(() => Promise.resolve());
    h.record('is there a free trial');
    await vi.advanceTimersByTimeAsync(0);
    await h.deferred[0];
    expect(h.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('logs the first failure of a run once, and how many were not counted when counting works again', async () => {
    let fail = true;
    const h = harness(() => (fail ? Promise.reject(new Error('down')) : Promise.resolve()));
    for (let i = 0; i < 4; i++) h.record(`question ${i}`);
    await Promise.all(h.deferred);
    expect(h.logs.map((l) => l.event)).toEqual(['unanswered_not_counted']);
    fail = false;
    h.record('question 5');
    h.record('question 6');
    await Promise.all(h.deferred);
    expect(h.logs).toMatchObject([
      { event: 'unanswered_not_counted' },
      { event: 'unanswered_counting_resumed', fields: { level: 'info', dropped: 4 } },
    ]);
  });
});
