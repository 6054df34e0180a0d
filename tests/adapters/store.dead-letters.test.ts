/**
 * The CRM's answer a dead letter keeps, on the engines that store it apart from the lead path's own cut
 * (SQLite, Upstash over a real redis-server): at most its first 500 characters (DeadLetterReason.answer),
 * whatever a caller passes. Written against a mutant `npm run mutate` left in src/adapters/upstash-store.ts
 * (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { useEngines } from '../helpers/engines.ts';

const { engines } = useEngines();
const entry = (id: string) =>
  JSON.stringify({ record: { id, receivedAt: '2026-11-23T10:00:00.000Z', lead: { name: 'N', email: 'n@x.au' } } });

describe.each(engines.filter((e) => e.name !== 'in-process'))('$name store: a dead letter', (engine) => {
  it("keeps the first 500 characters of the CRM's answer", async () => {
    const store = engine.create();
    await store.outboxPush('long', entry('long'));
    await store.outboxClaim(1, 60);
    const answer = `${'a'.repeat(500)}${'b'.repeat(100)}`;
    expect(await store.outboxDeadLetter('long', { reason: 'refused', status: 400, answer })).toBe(true);
    expect((await store.deadLetters())[0]).toMatchObject({ id: 'long', status: 400, answer: 'a'.repeat(500) });
  });
});
