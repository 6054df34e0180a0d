/**
 * The Upstash store's unanswered questions (src/adapters/upstash-store/questions.ts) beyond the `Store` port's
 * suite: a question an earlier version counted, before last-asked times were kept apart, still goes stale.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from '@upstash/redis';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';
import { QUESTION_STALE_MS } from '../../../src/core/unanswered/index.ts';
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
});
