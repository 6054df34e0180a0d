/**
 * The sliding window's numbers (src/core/rate-limit.ts), shared by every engine: what is left, and when a
 * refused client has a unit again, exactly (the first millisecond `slidingWindowAllows` lets one more in),
 * whether that moment comes later in this window (the previous one's weight falling) or in the next (this
 * one's). tests/adapters/store/rate-limits.test.ts holds them through each engine; these were written against
 * the mutants `npm run mutate` left (bench/mutation.md). Also `retryMinutes` on an empty value.
 */
import { describe, expect, it } from 'vitest';
import type { LimitPolicy } from '../../src/core/ports.ts';
import { retryMinutes, slidingWindowAllows, slidingWindowResult } from '../../src/core/rate-limit.ts';

const read: LimitPolicy = { name: 'read', limit: 120, windowSeconds: 60, algorithm: 'sliding-window' };
const START = Date.UTC(2026, 10, 23, 10, 0, 0); // a minute boundary
const W = 60_000;

describe('the sliding window', () => {
  it('an allowed unit: what is left counts the previous window by its overlap, the reset is the window end', () => {
    expect(slidingWindowResult(read, 60, 10, START + W / 2, true)).toEqual({
      allowed: true,
      limit: 120,
      remaining: 80,
      resetAt: START + W,
    });
    expect(slidingWindowResult(read, 0, 130, START + 1, true).remaining).toBe(0);
    expect(slidingWindowResult(read, 90, 0, START + 15_000, true).remaining).toBe(120 - 67);
  });

  it('refused while the previous window weighs: free the first millisecond its weight lets one in', () => {
    const r = slidingWindowResult(read, 120, 60, START + W / 2, false);
    expect(r).toEqual({ allowed: false, limit: 120, remaining: 0, resetAt: START + W / 2 + 1 });
    expect(slidingWindowAllows(read, 120, 60, r.resetAt)).toBe(true);
    expect(slidingWindowAllows(read, 120, 60, r.resetAt - 1)).toBe(false);
    const late = slidingWindowResult(read, 100, 90, START + 50_000, false);
    expect(late.resetAt).toBe(START + 42_000 + 1);
    expect(slidingWindowAllows(read, 100, 90, late.resetAt)).toBe(true);
    expect(slidingWindowAllows(read, 100, 90, late.resetAt - 1)).toBe(false);
  });

  it('refused with this window full: free in the next one, as this window now weighs', () => {
    const full = slidingWindowResult(read, 0, 120, START + 1_000, false);
    expect(full.resetAt).toBe(START + W + 1);
    expect(slidingWindowAllows(read, 120, 0, full.resetAt)).toBe(true);
    expect(slidingWindowAllows(read, 120, 0, full.resetAt - 1)).toBe(false);
    const over = slidingWindowResult(read, 50, 150, START + 1_000, false);
    expect(over.resetAt).toBe(START + W + 12_000 + 1);
    expect(slidingWindowAllows(read, 150, 0, over.resetAt)).toBe(true);
    expect(slidingWindowAllows(read, 150, 0, over.resetAt - 1)).toBe(false);
  });

  it('refused with neither window over the budget (a budget lowered meanwhile): the end of this window', () => {
    expect(slidingWindowResult(read, 0, 100, START + 1_000, false).resetAt).toBe(START + W);
  });
});

describe('retryMinutes', () => {
  it('an empty value says nothing', () => {
    expect(retryMinutes('')).toBeNull();
    expect(retryMinutes(undefined)).toBeNull();
  });
});
