/**
 * The in-process store's expiring maps (src/adapters/memory-store/expiry.ts): a sweep deletes, from every map of
 * the set, the entries whose time is up (an entry ending at the sweep's instant included) and keeps the others; it
 * runs at most once a minute, the first time as soon as it is asked.
 */
import { describe, expect, it } from 'vitest';
import { expiring } from '../../../src/adapters/memory-store/expiry.ts';

const T0 = Date.parse('2026-03-02T01:00:00Z');
const MINUTE = 60_000;

describe('a sweep', () => {
  it('deletes the entries whose time is up from every map, the one ending at that instant too', () => {
    const expiry = expiring();
    const names = expiry.map<string>();
    const counts = expiry.map<number>();
    names.set('gone', { value: 'a', until: T0 - 1 });
    names.set('ends-now', { value: 'b', until: T0 });
    names.set('kept', { value: 'c', until: T0 + 1 });
    counts.set('gone', { value: 1, until: T0 - 5_000 });
    counts.set('kept', { value: 2, until: T0 + MINUTE });
    expiry.sweep(T0);
    expect([...names.keys()]).toEqual(['kept']);
    expect([...counts.entries()]).toEqual([['kept', { value: 2, until: T0 + MINUTE }]]);
  });

  it('runs at most once a minute: again a full minute after the last one, not a millisecond sooner', () => {
    const expiry = expiring();
    const map = expiry.map<string>();
    expiry.sweep(T0);
    map.set('a', { value: 'a', until: T0 + 10 });
    expiry.sweep(T0 + MINUTE - 1);
    expect(map.has('a')).toBe(true);
    expiry.sweep(T0 + MINUTE);
    expect(map.has('a')).toBe(false);
  });

  it('a map made after a sweep is swept by the next one', () => {
    const expiry = expiring();
    expiry.sweep(T0);
    const late = expiry.map<string>();
    late.set('x', { value: 'x', until: T0 + 1 });
    expiry.sweep(T0 + 2 * MINUTE);
    expect(late.size).toBe(0);
  });
});
