/**
 * The Upstash store's outbox (src/adapters/upstash-store/outbox.ts) beyond the `Store` port's suite: the list
 * earlier versions queued leads into moves into the queue at the first claim, an unreadable entry to quarantine.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from '@upstash/redis';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';
import { entry, useEngines } from '../../helpers/engines.ts';

const { bridge } = useEngines();

describe('the outbox of earlier versions', () => {
  it('moves the old list into the queue on the first claim; an unreadable entry goes to quarantine', async () => {
    const prefix = `legacy${process.pid}`;
    const raw = new Redis({
      url: bridge().url,
      token: bridge().token,
      automaticDeserialization: false,
      enableTelemetry: false,
    });
    // What an earlier version wrote: a list of {record, attempts}, one a torn line.
    const old = (id: string) => JSON.stringify({ record: JSON.parse(entry(id)).record, attempts: 3 });
    await raw.rpush(`${prefix}:outbox`, old('L1'), '{"record":{"id":"torn"', old('L2'));
    const store = createUpstashStore({ url: bridge().url, token: bridge().token, prefix });
    expect(await store.outboxSize()).toBe(3);
    const items = await store.outboxClaim(10, 60);
    expect(items.map((i) => i.id)).toEqual(['L1', 'L2']);
    expect(JSON.parse(items[0]!.payload).record.id).toBe('L1');
    expect(await store.quarantineSize()).toBe(1);
    for (const i of items) await store.outboxAck(i.id);
    expect(await store.outboxSize()).toBe(0);
  });
});
