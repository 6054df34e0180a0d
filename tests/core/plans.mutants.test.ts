/**
 * The kinds of work that need a module (pricing.json's `segmentModules`, read by src/core/plans.ts): the
 * module is loaded inside each test, after vi.resetModules(), so a mutant of module-level code is caught too.
 */
import { describe, expect, it, vi } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import type { Pricing } from '../../src/contract/content.ts';

const pricing = pricingData as unknown as Pricing;
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
