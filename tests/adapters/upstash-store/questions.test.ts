/**
 * The Upstash store's unanswered questions (src/adapters/upstash-store/questions.ts) beyond the `Store` port's
 * suite: a question an earlier version counted, before last-asked times were kept apart, is still listed and still
 * goes stale; what the store keeps of an asker expires when the asker's day ends.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from '@upstash/redis';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';
import { DAY_MS, QUESTION_STALE_MS } from '../../../src/core/unanswered/index.ts';
import { useEngines } from '../../helpers/engines.ts';

const { bridge } = useEngines();
const T0 = Date.UTC(2026, 10, 23, 10, 0, 1);

describe('a question counted by an earlier version', () => {
  it('still goes stale and makes room', async () => {
    const prefix = `legacy-q${process.pid}`;
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    // What an earlier version wrote: the count (3) and the last-asked second in one score, and the text.
    const old = Math.floor((T0 - QUESTION_STALE_MS) / 1000) - 60;
    await redis.zadd(`${prefix}:ask:unanswered:counts`, { score: 3e10 + old, member: 'legacy' });
    await redis.hset(`${prefix}:ask:unanswered:texts`, { legacy: 'legacy' });
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix, questionLimit: 1 });
    await store.countQuestion('new', 'new', T0, 'visitor');
    expect((await store.topQuestions(5)).map((q) => q.text)).toEqual(['new']);
  });

  it('is listed with its count, text and last asking', async () => {
    const prefix = `legacy-list${process.pid}`;
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    const second = Math.floor(T0 / 1000) - 60;
    await redis.zadd(`${prefix}:ask:unanswered:counts`, { score: 3e10 + second, member: 'legacy' });
    await redis.hset(`${prefix}:ask:unanswered:texts`, { legacy: 'Legacy text?' });
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    await store.countQuestion('new', 'new', T0, 'visitor');
    expect(await store.topQuestions(5)).toEqual([
      { text: 'Legacy text?', count: 3, lastAsked: second * 1000 },
      { text: 'new', count: 1, lastAsked: T0 },
    ]);
  });
});

describe("an asker's day", () => {
  it('what the store keeps of an asker expires when its UTC day ends', async () => {
    const prefix = `asker-day${process.pid}`;
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    const hourToMidnight = Date.UTC(2026, 10, 24) - 3_600_000;
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    await store.countQuestion('q', 'q', hourToMidnight, 'visitor');
    const keys = await redis.keys(`${prefix}:*`);
    const ttls = (await Promise.all(keys.map((k) => redis.pttl(k)))).filter((ttl) => ttl > 0);
    // One key expires (the asker's), within the hour left of its day; the questions are kept.
    expect(ttls).toHaveLength(1);
    expect(ttls[0]).toBeLessThanOrEqual(3_600_000);
    expect(ttls[0]).toBeLessThan(DAY_MS);
    expect(await store.topQuestions(5)).toMatchObject([{ text: 'q', count: 1 }]);
  });
});
