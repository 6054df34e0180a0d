/**
 * The plan recommendation (src/core/plans.ts, the MCP tool's answer) over the real pricing file: the
 * smallest plan that fits every need given, with one reason per need. tests/mcp holds it over the MCP
 * server; this runs in `npm run mutate` (bench/mutation.md).
 */
import { describe, expect, it, vi } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import type { Pricing } from '../../src/contract/content.ts';
import { needsModule, planThatFits, recommendPlan } from '../../src/core/plans.ts';

const pricing = pricingData as unknown as Pricing;

describe('the plan recommendation', () => {
  it('no need given: no recommendation', () => {
    expect(recommendPlan(pricing, {})).toBeUndefined();
  });

  it('moves alone: the plan of that band, with its price and the reason', () => {
    expect(recommendPlan(pricing, { moves: '500-2,000' })).toEqual({
      plan: 'growth',
      name: 'Growth',
      monthly: 890,
      priceFrom: false,
      reasons: ['500-2,000 moves a year fits Growth (up to 2,000 moves a year)'],
    });
  });

  it('warehouses alone: none, one, several', () => {
    expect(recommendPlan(pricing, { warehouses: 'None' })?.reasons).toEqual([
      'No warehouse fits Starter (warehouses: none)',
    ]);
    expect(recommendPlan(pricing, { warehouses: '1' })?.reasons).toEqual(['1 warehouse fits Growth (warehouses: 1)']);
    expect(recommendPlan(pricing, { warehouses: '6+' })).toEqual({
      plan: 'enterprise',
      name: 'Enterprise',
      monthly: 3900,
      priceFrom: true,
      reasons: ['6+ warehouses fits Enterprise (warehouses: 6+)'],
    });
  });

  it('the largest need wins, whichever need it is, every reason kept in order', () => {
    expect(recommendPlan(pricing, { moves: '10,000+', warehouses: '1' })).toMatchObject({
      plan: 'enterprise',
      reasons: [
        '10,000+ moves a year fits Enterprise (10,000+ moves a year)',
        '1 warehouse fits Growth (warehouses: 1)',
      ],
    });
    expect(recommendPlan(pricing, { moves: 'Under 500', warehouses: '2-5' })?.plan).toBe('professional');
  });

  it('a kind of work that needs a module raises the plan to the one that includes it', () => {
    expect(recommendPlan(pricing, { moves: 'Under 500', segment: 'International' })).toMatchObject({
      plan: 'professional',
      reasons: [
        'Under 500 moves a year fits Starter (up to 500 moves a year)',
        'International work needs the International module, included from Professional',
      ],
    });
    expect(recommendPlan(pricing, { segment: 'Military & government' })).toMatchObject({
      plan: 'enterprise',
      reasons: ['Military & government work needs the Military and government module, included from Enterprise'],
    });
  });

  it('any other kind of work is covered by every plan: the smallest, unless another need asks more', () => {
    expect(recommendPlan(pricing, { segment: 'Mixed' })).toMatchObject({
      plan: 'starter',
      priceFrom: false,
      reasons: ['Mixed work is covered by every plan, from Starter'],
    });
    expect(recommendPlan(pricing, { segment: 'Local & interstate', warehouses: '2-5' })?.plan).toBe('professional');
  });

  it('the module a kind of work needs is read from the price list: the first plan that includes it', () => {
    const moved = structuredClone(pricing);
    const growth = moved.plans.find((p) => p.id === 'growth')!;
    growth.includes = [...growth.includes, 'International module'];
    expect(recommendPlan(moved, { segment: 'International' })).toMatchObject({
      plan: 'growth',
      reasons: ['International work needs the International module, included from Growth'],
    });
    const renamed = { ...pricing, segmentModules: [{ segment: 'Mixed', module: 'Reporting suite' }] } as Pricing;
    expect(recommendPlan(renamed, { segment: 'Mixed' })?.plan).toBe('professional');
    expect(recommendPlan(renamed, { segment: 'International' })?.plan).toBe('starter');
  });

  it('one rule for every plan choice: each need its smallest covering plan, the biggest of those', () => {
    const plans = pricing.plans;
    expect(planThatFits(plans, [])).toEqual({ at: -1, each: [] });
    expect(planThatFits(plans, [(p) => p.id === 'growth', () => true, () => false])).toEqual({
      at: 1,
      each: [1, 0, -1],
    });
    expect(planThatFits(plans, [needsModule(plans, 'API access')])).toEqual({ at: 2, each: [2] });
  });

  it('a band no plan fits adds no reason', () => {
    const narrow = { ...pricing, plans: pricing.plans.slice(0, 2) } as Pricing;
    expect(recommendPlan(narrow, { moves: '10,000+' })).toBeUndefined();
    expect(recommendPlan(narrow, { moves: '10,000+', warehouses: '1' })).toMatchObject({
      plan: 'growth',
      reasons: ['1 warehouse fits Growth (warehouses: 1)'],
    });
    expect(recommendPlan(narrow, { segment: 'International' })).toBeUndefined();
    expect(recommendPlan(narrow, { warehouses: '6+' })).toBeUndefined();
    expect(recommendPlan(narrow, { warehouses: '6+', moves: 'Under 500' })?.reasons).toHaveLength(1);
  });
});

// Loaded afresh in each test (vi.resetModules()): the segment-module table is built when the module loads.
const load = async () => {
  vi.resetModules();
  return import('../../src/core/plans.ts');
};

describe('kinds of work that need a module', () => {
  it('international work needs the International module, from Professional', async () => {
    const { recommendPlan } = await load();
    expect(recommendPlan(pricing, { segment: 'International' })).toEqual({
      plan: 'professional',
      name: 'Professional',
      monthly: 1890,
      priceFrom: false,
      reasons: ['International work needs the International module, included from Professional'],
    });
  });

  it('military and government work needs its module, from Enterprise', async () => {
    const { recommendPlan } = await load();
    expect(recommendPlan(pricing, { segment: 'Military & government' })).toEqual({
      plan: 'enterprise',
      name: 'Enterprise',
      monthly: 3900,
      priceFrom: true,
      reasons: ['Military & government work needs the Military and government module, included from Enterprise'],
    });
  });
});
