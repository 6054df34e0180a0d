/**
 * What the lead sandbox finds (src/core/leads.ts `sandboxLead`): a body that is no object, a clean payload,
 * one submission would take with changes, and a bad Idempotency-Key;
 * and the key of a form posted without JavaScript (`formIdempotencyKey`): a SHA-256 of the form's content.
 * Then what a submission gives back and logs when the store's idempotency or refund calls fail, that it gives
 * back nothing it did not take, and the wait for a key's first submission to its last millisecond.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { formIdempotencyKey, sandboxLead, submitLead } from '../../src/core/leads.ts';
import { LEAD_POLICY } from '../../src/core/rate-limit.ts';
import type { LeadRecord, Store } from '../../src/core/ports.ts';

const NOT_AN_OBJECT = 'The body must be a JSON object with the lead fields (name and email at least)';

describe('the lead sandbox', () => {
  it('says a body that is not a JSON object is none, with the text submission refuses it with', () => {
    for (const body of [null, undefined, 'text', 42, true, [], [{ name: 'A', email: 'a@b.co' }]]) {
      expect(sandboxLead(body, null), JSON.stringify(body)).toEqual({ kind: 'not-an-object', message: NOT_AN_OBJECT });
    }
  });

  it('finds no problem in a clean payload with a good key', () => {
    expect(sandboxLead({ name: 'A', email: 'a@b.co' }, 'key-1')).toEqual({
      kind: 'checked',
      wouldSubmit: true,
      problems: [],
    });
  });

  it('would still submit a payload whose only problem is a field it ignores', () => {
    const outcome = sandboxLead({ name: 'A', email: 'a@b.co', colour: 'red' }, null);
    expect(outcome).toMatchObject({ kind: 'checked', wouldSubmit: true });
    expect(outcome.kind === 'checked' && outcome.problems.map((p) => [p.field, p.outcome])).toEqual([
      ['colour', 'drop'],
    ]);
  });

  it('would refuse a payload sent with an empty Idempotency-Key, saying why', () => {
    expect(sandboxLead({ name: 'A', email: 'a@b.co' }, ' ')).toEqual({
      kind: 'checked',
      wouldSubmit: false,
      problems: [],
      keyProblem: 'Idempotency-Key is empty: send 1 to 200 characters, unique per submission (a UUID is ideal)',
    });
  });
});

describe('the key of a form posted without JavaScript', () => {
  it('is form: and the SHA-256 hex of the form content with its keys sorted', async () => {
    // The content: each key with its value's JSON text, keys in order.
    const content = JSON.stringify([
      ['a', '"1"'],
      ['b', '"2"'],
    ]);
    const want = `form:${createHash('sha256').update(content).digest('hex')}`;
    expect(await formIdempotencyKey({ b: '2', a: '1' })).toBe(want);
    expect(await formIdempotencyKey({ a: '1', b: '2' })).toBe(want);
    expect(await formIdempotencyKey({ a: '1', b: '3' })).not.toBe(want);
  });

  it('is always 64 hex digits after form:, small bytes written with their leading zero', async () => {
    for (let i = 0; i < 8; i++) expect(await formIdempotencyKey({ n: String(i) })).toMatch(/^form:[0-9a-f]{64}$/);
  });
});

const T0 = Date.parse('2026-03-02T01:00:00Z');
const LEAD = { name: 'Sam Taylor', email: 'sam@harbourline.example' };
type Line = { event: string; fields?: Record<string, unknown> };

/**
 * Deps over the in-process store, with `overrides` in place of some store calls; `calls` counts every call
 * of the store by name. The sink fails when `sinkFails`.
 */
function setup(overrides: Partial<Record<keyof Store, (...args: unknown[]) => unknown>> = {}, sinkFails = false) {
  const clock = { t: T0 };
  const lines: Line[] = [];
  const calls: Record<string, unknown[][]> = {};
  const real = createMemoryStore({ now: () => clock.t });
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      const own = overrides[prop as keyof Store];
      const fn = own ?? Reflect.get(target, prop, receiver);
      if (typeof fn !== 'function') return fn;
      return (...args: unknown[]) => {
        (calls[String(prop)] ??= []).push(args);
        return own ? own(...args) : (fn as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Store;
  const deps = {
    store,
    sink: {
      name: 'test sink',
      deliver: async (_r: LeadRecord) => {
        if (sinkFails) throw new Error('sink down');
      },
    },
    notifier: { name: 'test notifier', notify: async () => {} },
    log: (event: string, fields?: Record<string, unknown>) => void lines.push({ event, fields }),
    now: () => clock.t,
  };
  const logged = (event: string) => lines.filter((l) => l.event === event).map((l) => l.fields);
  const count = (op: keyof Store) => calls[op]?.length ?? 0;
  return { clock, deps, logged, count };
}
const down = () => Promise.reject(new Error('store down'));
const submit = (deps: ReturnType<typeof setup>['deps'], key: string | null) =>
  submitLead({ body: LEAD, client: '203.0.113.7', idempotencyKey: key }, deps);

describe('a submission when the store fails after the claim', () => {
  it('a failed completion is logged as a warning with its error; the lead is still accepted', async () => {
    const { deps, logged } = setup({ complete: down });
    expect((await submit(deps, 'k1')).kind).toBe('accepted');
    expect(logged('idempotency_store_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
  });

  it('a failed release is logged as a warning with its error; the submission is still limited', async () => {
    const { deps, logged } = setup({ release: down });
    // The budget spent through another instance: this one learns of it from the store, after the claim.
    for (let i = 0; i < 5; i++) await deps.store.hit(LEAD_POLICY, '203.0.113.7', T0);
    expect((await submit(deps, 'k5')).kind).toBe('limited');
    expect(logged('idempotency_store_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
  });

  it('a failed refund is logged as a warning with its error; the lead is unrecorded', async () => {
    const { deps, logged } = setup({ refund: down, outboxPush: down }, true);
    expect(await submit(deps, null)).toEqual({ kind: 'unrecorded' });
    expect(logged('rate_limit_refund_failed')).toEqual([{ level: 'warn', error: 'store down' }]);
  });
});

describe('a submission gives back only what it took', () => {
  it('without an Idempotency-Key, a limited submission releases no key', async () => {
    const { deps, count } = setup();
    for (let i = 0; i < 5; i++) await submit(deps, null);
    expect((await submit(deps, null)).kind).toBe('limited');
    expect(count('claim')).toBe(0);
    expect(count('release')).toBe(0);
  });

  it('when the budget could not be checked, an unrecorded lead refunds nothing', async () => {
    const { deps, count, logged } = setup({ hit: down, outboxPush: down }, true);
    expect(await submit(deps, null)).toEqual({ kind: 'unrecorded' });
    expect(logged('rate_limit_store_failed')).toHaveLength(1);
    expect(count('refund')).toBe(0);
  });
});

describe("waiting for a key's first submission", () => {
  it('waits on at exactly ten seconds, and gives up after', async () => {
    const claims: number[] = [];
    const { clock, deps } = setup({
      claim: async (_key, fingerprint) => {
        claims.push(clock.t);
        // The first submission is still under way; the clock moves to the wait's last millisecond, then past it.
        clock.t = T0 + (claims.length === 1 ? 10_000 : 10_001);
        return { state: 'pending', fingerprint };
      },
    });
    expect(await submit(deps, 'k')).toEqual({ kind: 'key-busy', retryAfter: 2 });
    expect(claims).toEqual([T0, T0 + 10_000]);
  });
});
