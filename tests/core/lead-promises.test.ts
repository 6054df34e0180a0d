/**
 * The lead path's promises that no test held before, each with the contract's own numbers
 * written here as the contract writes them (SPEC.md, DESIGN.md section 2), not read from the source:
 * - an Idempotency-Key replays for 24 hours, and not after;
 * - a second request with a key whose first request is still running waits, and after 10 seconds gets "busy"
 *   (the 409), not sooner and not much later;
 * - a value of exactly the maximum length of each bounded field is kept whole, with no problem, and the
 *   sandbox answers 200; one character more is reported.
 * Clocks are injected: nothing here depends on the time of day or waits for real time beyond a few polls.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { validateLead } from '../../src/core/lead-validation.ts';
import fc from 'fast-check';
import { sandboxLead, serialised, submitLead } from '../../src/core/leads.ts';
import type { LeadRecord, LeadSink } from '../../src/core/ports.ts';

/** The contract's numbers, as written there. */
const CONTRACT = {
  idempotencyWindowSeconds: 24 * 60 * 60,
  waitForFirstSeconds: 10,
  max: { name: 120, email: 200, company: 200, phone: 40, country: 60, message: 4000, idempotencyKey: 200 },
};

const T0 = Date.parse('2026-03-02T01:00:00Z');

function setup(sinkDeliver?: (r: LeadRecord) => Promise<void>) {
  const clock = { t: T0 };
  const delivered: LeadRecord[] = [];
  const sink: LeadSink = {
    name: 'recording sink',
    deliver: sinkDeliver ?? (async (r) => void delivered.push(r)),
  };
  const deps = {
    store: createMemoryStore({ now: () => clock.t }),
    sink,
    notifier: { name: 'none', notify: async () => {} },
    log: () => {},
    now: () => clock.t,
  };
  return { clock, delivered, deps };
}

const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example', company: 'Harbourline Removals' };
const submit = (deps: ReturnType<typeof setup>['deps'], key: string, client = '203.0.113.7') =>
  submitLead({ body: lead, client, idempotencyKey: key }, deps);

describe('the idempotency window (SPEC: "a retry with the same key within 24 hours replays")', () => {
  it('replays a second before 24 hours and makes a new lead a second after', async () => {
    const { clock, delivered, deps } = setup();
    expect((await submit(deps, 'window-key')).kind).toBe('accepted');
    clock.t = T0 + (CONTRACT.idempotencyWindowSeconds - 1) * 1000;
    expect((await submit(deps, 'window-key')).kind).toBe('replayed');
    expect(delivered).toHaveLength(1);
    clock.t = T0 + (CONTRACT.idempotencyWindowSeconds + 1) * 1000;
    expect((await submit(deps, 'window-key')).kind).toBe('accepted');
    expect(delivered).toHaveLength(2);
  });
});

describe('two requests with one key at once (DESIGN: "the second waits for the first\'s result or gets 409")', () => {
  it('the second waits while the first runs, and is told busy once 10 seconds have passed', async () => {
    let finish: () => void = () => {};
    const first = new Promise<void>((r) => (finish = r));
    let entered: () => void = () => {};
    const delivering = new Promise<void>((r) => (entered = r));
    const { clock, deps } = setup(() => {
      entered();
      return first;
    });
    const running = submit(deps, 'busy-key');
    // The first request holds the key and is in the sink before the second one starts.
    await delivering;
    // The second request's clock moves a second per reading: it polls the key about every 100 ms of real time.
    const started = clock.t;
    const second = await submitLead(
      { body: lead, client: '203.0.113.7', idempotencyKey: 'busy-key' },
      { ...deps, now: () => (clock.t += 1000) },
    );
    expect(second.kind).toBe('key-busy');
    const waited = (clock.t - started) / 1000;
    expect(waited).toBeGreaterThan(CONTRACT.waitForFirstSeconds);
    expect(waited).toBeLessThanOrEqual(CONTRACT.waitForFirstSeconds + 3);
    finish();
    expect((await running).kind).toBe('accepted');
  });

  it('a second request after the first finished replays it', async () => {
    const { deps, delivered } = setup();
    const [a, b] = await Promise.all([submit(deps, 'pair-key'), submit(deps, 'pair-key')]);
    expect([a.kind, b.kind].sort()).toEqual(['accepted', 'replayed']);
    expect(delivered).toHaveLength(1);
  });
});

/** An address of exactly `n` characters that is still a valid address (labels under 64 characters). */
function emailOf(n: number): string {
  const local = 'sam';
  let domain = 'harbourline.example';
  const room = n - local.length - 1 - domain.length;
  const labels: string[] = [];
  for (let left = room; left > 0; ) {
    const size = Math.min(60, left - 1);
    labels.push('a'.repeat(size));
    left -= size + 1;
  }
  domain = [...labels, domain].join('.');
  return `${local}@${domain}`;
}

describe('exactly at the maximum length, every bounded field (SPEC "Lead" and "Limits")', () => {
  const at = {
    name: 'N'.repeat(CONTRACT.max.name),
    email: emailOf(CONTRACT.max.email),
    company: 'C'.repeat(CONTRACT.max.company),
    phone: '4'.repeat(CONTRACT.max.phone),
    country: 'A'.repeat(CONTRACT.max.country),
    message: 'm'.repeat(CONTRACT.max.message),
  };

  it('the built address is what it should be', () => {
    expect(at.email).toHaveLength(CONTRACT.max.email);
  });

  it('every field at its maximum is kept whole, with no problem, and the sandbox finds none either', () => {
    const check = validateLead(at);
    expect(check.problems).toEqual([]);
    expect(check.wouldSubmit).toBe(true);
    expect(check.lead).toMatchObject(at);
    const key = 'k'.repeat(CONTRACT.max.idempotencyKey);
    expect(sandboxLead(at, key)).toEqual({ kind: 'checked', wouldSubmit: true, problems: [] });
  });

  it.each(Object.keys(at) as (keyof typeof at)[])('%s one character over is reported', (field) => {
    const over = { ...at, [field]: field === 'email' ? emailOf(CONTRACT.max.email + 1) : `${at[field]}x` };
    const check = validateLead(over);
    expect(check.problems.map((p) => p.field)).toEqual([field]);
  });

  it('an Idempotency-Key one character over is refused', () => {
    expect(sandboxLead(at, 'k'.repeat(CONTRACT.max.idempotencyKey + 1))).toMatchObject({
      kind: 'checked',
      wouldSubmit: false,
      keyProblem: expect.stringContaining(`at most ${CONTRACT.max.idempotencyKey}`),
    });
  });
});

describe('the payload fingerprint', () => {
  it('serialises any JSON value as JSON.stringify does, without recursion', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => serialised(v) === JSON.stringify(v)));
  });

  it('tells two values apart that differ 10,000 levels down (JSON.stringify gives up near 4,400)', () => {
    const deep = (leaf: number) => JSON.parse(`${'['.repeat(10_000)}${leaf}${']'.repeat(10_000)}`) as unknown;
    expect(() => JSON.stringify(deep(1))).toThrow(RangeError);
    expect(serialised(deep(1))).not.toBe(serialised(deep(2)));
  });
});
