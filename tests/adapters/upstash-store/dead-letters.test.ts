/**
 * The Upstash store's dead letters (src/adapters/upstash-store/dead-letters.ts) beyond the `Store` port's suite: a
 * letter an earlier version kept, without the alert fields, is taken as not yet announced and claimed once.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from '@upstash/redis';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';
import { entry, useEngines } from '../../helpers/engines.ts';

const { bridge } = useEngines();

describe('a dead letter kept before alerts were', () => {
  it('is claimed once, then kept track of', async () => {
    const prefix = `legacy-dl-${process.pid}`;
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    await store.outboxPush('new', entry('new'));
    await store.outboxClaim(1, 60);
    await store.outboxDeadLetter('new', { reason: 'refused', status: 400 });
    // What an earlier version wrote: the letter without `announced` and `alerts`, and no alert entry for it.
    const redis = new Redis({ url: bridge().url, token: bridge().token, automaticDeserialization: false });
    const {
      announced: _a,
      alerts: _b,
      ...legacy
    } = JSON.parse(String(await redis.hget(`${prefix}:outbox:dead`, 'new'))) as Record<string, unknown>;
    await redis.hset(`${prefix}:outbox:dead`, { old: JSON.stringify({ ...legacy, id: 'old', n: 0 }) });
    expect((await store.deadLetters()).map((l) => [l.id, l.announced, l.alerts])).toEqual([
      ['old', false, 0],
      ['new', false, 0],
    ]);
    expect((await store.deadLetterAlertClaim(10, 60)).map((l) => [l.id, l.alerts])).toEqual([
      ['old', 1],
      ['new', 1],
    ]);
    await store.deadLetterAnnounced('old');
    expect((await store.deadLetters()).map((l) => l.announced)).toEqual([true, false]);
  });
});
