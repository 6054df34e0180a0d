/**
 * The in-process store's outbox (src/adapters/memory-store/outbox.ts): a retry with no wait frees its entry outright,
 * claimable even when the clock then steps back (as a wall clock can), not leased until the retry's instant.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/adapters/memory-store/index.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');

describe('an outbox retry with no wait', () => {
  it('is claimable at once, and still when the clock then steps back', async () => {
    const clock = { t: T0 };
    const store = createMemoryStore({ now: () => clock.t });
    await store.outboxPush('q0', '{}');
    expect((await store.outboxClaim(10, 60)).map((i) => i.id)).toEqual(['q0']);
    await store.outboxRetry('q0', 'down', 0);
    clock.t = T0 - 1000;
    expect((await store.outboxClaim(10, 60)).map((i) => [i.id, i.attempts])).toEqual([['q0', 2]]);
  });
});
