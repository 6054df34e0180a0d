/**
 * The same Idempotency-Key with another payload answers 422 (DESIGN.md: "The same key with a different payload:
 * 422") however deep the difference lies. `canonical()` used JSON.stringify per top-level value, which throws past
 * about 4,400 levels, and turned every such value into "(unserialisable)": two payloads differing only deep inside
 * shared a fingerprint and the second was replayed (200) instead of refused. It now serialises without recursion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIMITS } from '../../src/contract/limits.ts';
import { checkAnswer, expectErrorBody, nextClient, params, startFuzzServer, type FuzzServer } from './support.ts';
import { timedRequest } from '../helpers/raw-http.ts';

let s: FuzzServer;
beforeAll(async () => {
  s = await startFuzzServer();
});
afterAll(async () => {
  await s?.close();
});

/** A valid lead with an extra member `notes` holding `inner` under `depth` arrays or objects. */
const nested = (depth: number, kind: 'array' | 'object', inner: string) =>
  Buffer.from(
    `{"name":"Sam Taylor","email":"sam@harbourline.example","notes":${
      kind === 'array'
        ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`
    }}`,
  );

describe('the same Idempotency-Key with another payload, the difference nested deep', () => {
  it('is refused with 422 at any depth under 64 KB, like a shallow difference', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 2, max: 50 }), fc.integer({ min: 3000, max: 10_000 })),
        fc.constantFrom<'array' | 'object'>('array', 'object'),
        fc.uuid(),
        async (depth, kind, key) => {
          const first = nested(depth, kind, '1');
          const second = nested(depth, kind, '2');
          expect(second.length).toBeLessThanOrEqual(LIMITS.leadBodyBytes);
          const from = nextClient();
          const send = (body: Buffer) =>
            timedRequest(`${s.url}/api/lead`, {
              method: 'POST',
              body,
              from,
              headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
            });
          const a = await send(first);
          checkAnswer({ method: 'POST', target: '/api/lead' }, a);
          expect(a.status, `${kind} ${depth} deep, first`).toBe(200);
          const b = await send(second);
          checkAnswer({ method: 'POST', target: '/api/lead' }, b);
          expect(b.headers['idempotency-replayed'], `${kind} ${depth} deep: not a replay`).toBeUndefined();
          expect(b.status, `${kind} ${depth} deep, the same key with another payload`).toBe(422);
          expectErrorBody(b, 422);
        },
      ),
      { ...params(), numRuns: 12 },
    );
  });
});
