/**
 * The unanswered questions of the `Store` port on every engine: one counter per key with its first text and last
 * asking, the most asked first; and the bound on how many are kept: stale questions make room first, then
 * flood-shaped ones, never a visitor's fresh question.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/ports.ts';
import { ASKER_DAILY_QUESTIONS, DAY_MS, QUESTION_STALE_MS } from '../../../src/core/unanswered/index.ts';
import { useEngines } from '../../helpers/engines.ts';

const { engines } = useEngines();
const WINDOW_START = Date.UTC(2026, 10, 23, 10, 0, 0);
const T0 = WINDOW_START + 1_000;

describe.each(engines)('$name store: unanswered questions', (engine) => {
  it('one counter per key, the first text kept, the last asking, most asked first', async () => {
    const store = engine.create();
    expect(await store.topQuestions(10)).toEqual([]);
    const t = WINDOW_START;
    await store.countQuestion('do you integrate with xero', 'Do you integrate with Xero?', t);
    await store.countQuestion('is there a free trial', 'is there a free trial', t + 1_000);
    await store.countQuestion('do you integrate with xero', 'do you integrate with xero', t + 60_400);
    await store.countQuestion('do you integrate with xero', 'do you integrate with xero!', t + 30_000);
    await store.countQuestion('can i pay by [phone]', 'can i pay by [phone]', t + 2_000);
    await store.countQuestion('is there a free trial', 'is there a free trial?', t + 5_000);
    expect(await store.topQuestions(10)).toEqual([
      // The last asking is the latest time seen (to the second), whatever order the calls came in.
      { text: 'Do you integrate with Xero?', count: 3, lastAsked: t + 60_000 },
      { text: 'is there a free trial', count: 2, lastAsked: t + 5_000 },
      { text: 'can i pay by [phone]', count: 1, lastAsked: t + 2_000 },
    ]);
    expect((await store.topQuestions(2)).map((q) => q.count)).toEqual([3, 2]);
    expect(await store.topQuestions(0)).toEqual([]);
    // Equal counts: the last asked first.
    await store.countQuestion('what is the price', 'what is the price', t + 9_000);
    expect((await store.topQuestions(10)).slice(2).map((q) => q.text)).toEqual([
      'what is the price',
      'can i pay by [phone]',
    ]);
  });

  it('40 concurrent askings of one question count 40', async () => {
    const store = engine.create();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.countQuestion('same', `same ${i}`, WINDOW_START)));
    const [top] = await store.topQuestions(5);
    expect(top!.count).toBe(40);
    expect(top!.text).toMatch(/^same \d+$/);
  });
});

describe.each(engines)('$name store: the bound on unanswered questions', (engine) => {
  const count = async (store: Store, key: string, at: number, times = 1) => {
    for (let i = 0; i < times; i++) await store.countQuestion(key, `text of ${key}`, at);
  };
  const kept = async (store: Store) => (await store.topQuestions(100)).map((q) => q.text.replace('text of ', ''));
  const bounded = (questionLimit: number) => engine.create({ questionLimit });

  it('keeps at most the limit: stale questions make room first, then flood-shaped ones, never fresh ones', async () => {
    const store = bounded(3);
    const t = WINDOW_START;
    // Asked twice, but a month and more ago: stale.
    await store.countQuestion('old', 'old', t - QUESTION_STALE_MS - 5_000);
    await store.countQuestion('old', 'old', t - QUESTION_STALE_MS - 4_000);
    await store.countQuestion('a', 'a', t, 'visitor-1');
    await store.countQuestion('b', 'b', t + 1_000, 'visitor-2');
    await store.countQuestion('c', 'c', t + 2_000, 'visitor-3'); // full: the stale one goes, asked twice or not
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['c', 'b', 'a']);
    // Every question fresh and a visitor's: a newcomer is not kept (a flood cannot push them out).
    await store.countQuestion('d', 'd', t + 3_000, 'visitor-4');
    await store.countQuestion('e', 'e', t + 3_000);
    expect((await store.topQuestions(10)).map((q) => q.text)).toEqual(['c', 'b', 'a']);
    // An address's third question of the day is flood-shaped: the first to make room for a visitor's.
    const busy = bounded(3);
    for (const [i, k] of ['p', 'q', 'r'].entries()) await busy.countQuestion(k, k, t + i * 1_000, 'busy');
    await busy.countQuestion('s', 's', t + 5_000, 'visitor-5');
    expect((await busy.topQuestions(10)).map((q) => q.text)).toEqual(['s', 'q', 'p']);
    // Asked by another visitor among their first, a flood-shaped question is a visitor's again.
    await busy.countQuestion('u', 'u', t + 6_000, 'busy-2');
    await busy.countQuestion('v', 'v', t + 6_000, 'busy-2');
    await busy.countQuestion('w', 'w', t + 6_000, 'busy-2'); // flood-shaped: nothing else is, so not kept
    expect((await busy.topQuestions(10)).map((q) => q.text)).toEqual(['s', 'q', 'p']);
  });

  it('under the bound and exactly at it, every question is kept', async () => {
    const five = bounded(5);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) await count(five, key, T0 + i * 1000);
    expect((await kept(five)).sort()).toEqual(['a', 'b', 'c', 'd']);
    const three = bounded(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) await count(three, key, T0 + i * 1000);
    expect((await kept(three)).sort()).toEqual(['a', 'b', 'c']);
    // Stale questions too: they make room only past the bound.
    const stale = bounded(5);
    for (const [i, key] of ['x', 'y', 'z'].entries())
      await count(stale, key, T0 - QUESTION_STALE_MS - 10_000 + i * 1000);
    await count(stale, 'w', T0);
    expect((await kept(stale)).sort()).toEqual(['w', 'x', 'y', 'z']);
  });

  it('past the bound the stale go first, the longest unasked first, whatever their counts', async () => {
    const store = bounded(3);
    const old = T0 - QUESTION_STALE_MS;
    await count(store, 'a', old - 1000, 3);
    await count(store, 'b', old - 2000);
    await count(store, 'c', T0);
    await count(store, 'd', T0 + 1000);
    expect((await kept(store)).sort()).toEqual(['a', 'c', 'd']);
    await count(store, 'e', T0 + 2000);
    expect((await kept(store)).sort()).toEqual(['c', 'd', 'e']);
    // Asked exactly the stale span ago: not yet stale, so nothing makes room and the newcomer is not kept.
    const edge = bounded(1);
    await count(edge, 'x', T0 - QUESTION_STALE_MS);
    await count(edge, 'y', T0);
    expect(await kept(edge)).toEqual(['x']);
    await count(edge, 'z', T0 + 1000);
    expect(await kept(edge)).toEqual(['z']);
  });

  it('then the flood-shaped: the least asked, the longest unasked first among equals', async () => {
    const store = bounded(5);
    const ask = (key: string, at: number, asker: string) => store.countQuestion(key, `text of ${key}`, at, asker);
    await ask('k1', T0, 'x');
    await ask('k2', T0, 'x');
    await ask('s1', T0 + 3000, 'x'); // its third: flood-shaped
    await ask('s2', T0 + 1000, 'x');
    await ask('s3', T0 + 500, 'y1'); // a visitor's...
    await ask('s3', T0 + 500, 'y2');
    await ask('n', T0 + 5000, 'v1'); // full: s3 (asked twice) is not flood-shaped here, so s2 goes
    expect((await kept(store)).sort()).toEqual(['k1', 'k2', 'n', 's1', 's3']);
    await ask('s1', T0 + 6000, 'v2'); // now a visitor asked it among their first
    await ask('m', T0 + 7000, 'v3'); // nothing stale or flood-shaped: not kept
    expect((await kept(store)).sort()).toEqual(['k1', 'k2', 'n', 's1', 's3']);
  });

  it('a flood-shaped question asked exactly the stale span ago still makes room', async () => {
    const store = bounded(3);
    const ask = (key: string, at: number, asker: string) => store.countQuestion(key, `text of ${key}`, at, asker);
    for (const key of ['k1', 'k2', 's']) await ask(key, T0 - QUESTION_STALE_MS, 'x'); // s: its third
    await ask('n', T0, 'v');
    expect((await kept(store)).sort()).toEqual(['k1', 'k2', 'n']);
  });

  it("asked again past an asker's first, a flood-shaped question stays one, and makes room before a newcomer", async () => {
    const store = bounded(3);
    const ask = (key: string, at: number, asker: string) => store.countQuestion(key, `text of ${key}`, at, asker);
    for (const asker of ['x', 'y']) for (const key of ['a', 'b', 's']) await ask(key, T0, asker);
    // s, asked twice but each time as an asker's third, makes room for t, asked once as z's third.
    for (const key of ['a', 'b', 't']) await ask(key, T0 + 1000, 'z');
    expect((await kept(store)).sort()).toEqual(['a', 'b', 't']);
  });

  it('the question just counted is never the one trimmed when another can make room', async () => {
    const store = bounded(2);
    await count(store, 'a', T0 - QUESTION_STALE_MS - 1000, 2);
    await count(store, 'b', T0 - QUESTION_STALE_MS - 500, 2);
    await count(store, 'c', T0); // the least asked, yet kept: a stale one makes room
    expect((await kept(store)).sort()).toEqual(['b', 'c']);
  });
});

describe.each(engines)('$name store: what an asker counts', (engine) => {
  const top = async (store: Store) => Object.fromEntries((await store.topQuestions(100)).map((q) => [q.text, q.count]));

  it('a question counts once per asker', async () => {
    const store = engine.create();
    for (let i = 0; i < 3; i++) await store.countQuestion('pianos', 'pianos', T0 + i * 1000, 'a1');
    await store.countQuestion('pianos', 'pianos', T0 + 5000, 'a2');
    expect(await top(store)).toEqual({ pianos: 2 });
  });

  it(`past ${ASKER_DAILY_QUESTIONS} questions an asker is a flood: what it counted is withdrawn, and all it asks after`, async () => {
    const store = engine.create();
    await store.countQuestion('q0', 'q0', T0, 'visitor');
    const asked = Array.from({ length: ASKER_DAILY_QUESTIONS }, (_, i) => `q${i}`);
    for (const key of asked) await store.countQuestion(key, key, T0 + 1000, 'flood');
    expect(await top(store)).toEqual({ ...Object.fromEntries(asked.map((k) => [k, 1])), q0: 2 });
    await store.countQuestion('one more', 'one more', T0 + 2000, 'flood');
    expect(await top(store)).toEqual({ q0: 1 }); // the visitor's asking stays
    for (const key of ['one more', 'another', 'q0', 'q1']) await store.countQuestion(key, key, T0 + 3000, 'flood');
    expect(await top(store)).toEqual({ q0: 1 });
    // Another asker's questions still count.
    await store.countQuestion('q1', 'q1', T0 + 4000, 'visitor');
    expect(await top(store)).toEqual({ q0: 1, q1: 1 });
  });

  it("a question not kept (the bound reached) is not one of its asker's questions of the day", async () => {
    const store = engine.create({ questionLimit: 1 });
    await store.countQuestion('kept', 'kept', T0, 'visitor');
    await store.countQuestion('kept', 'kept', T0, 'busy');
    // Every question after it is dropped (nothing is stale or flood-shaped): none counts toward the daily bound.
    for (let i = 0; i < ASKER_DAILY_QUESTIONS + 5; i++) await store.countQuestion(`d${i}`, `d${i}`, T0 + i, 'busy');
    expect(await top(store)).toEqual({ kept: 2 });
  });
});

// Upstash keeps an asker's questions in a set that expires on Redis's own clock when the caller's day ends
// (tests/adapters/upstash-store/questions.test.ts); the other two read the day from `at`.
describe.each(engines.filter((e) => e.name !== 'upstash'))("$name store: an asker's day", (engine) => {
  it('what an asker counted holds all its UTC day and goes at midnight', async () => {
    const store = engine.create();
    const midnight = Date.UTC(2026, 10, 24);
    for (const at of [midnight - DAY_MS, midnight - 59_999, midnight]) await store.countQuestion('q', 'q', at, 'a');
    expect(await store.topQuestions(5)).toMatchObject([{ text: 'q', count: 2 }]);
  });
});
