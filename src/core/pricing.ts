/**
 * @module Plan recommendation from the lead form's bands: the smallest plan that fits the moves per year,
 * the warehouses and the kind of work. Reads the one pricing file (content/data/pricing.json).
 */
import type { Plan, Pricing } from '../contract/content.ts';
import type { MOVES, SEGMENTS, WAREHOUSES } from '../contract/schemas.ts';

export interface PlanNeeds {
  segment?: (typeof SEGMENTS)[number];
  warehouses?: (typeof WAREHOUSES)[number];
  moves?: (typeof MOVES)[number];
}

export interface Recommendation {
  plan: string;
  name: string;
  monthly: number;
  /** True when the price is a starting point and the plan is quoted. */
  priceFrom: boolean;
  reasons: string[];
}

/** Kinds of work that need a module only larger plans include. */
const SEGMENT_NEEDS: Partial<Record<NonNullable<PlanNeeds['segment']>, { plan: string; module: string }>> = {
  International: { plan: 'professional', module: 'International module' },
  'Military & government': { plan: 'enterprise', module: 'Military and government module' },
};

/** The recommended plan, or undefined when no need was given. */
export function recommendPlan(pricing: Pricing, needs: PlanNeeds): Recommendation | undefined {
  const order = pricing.plans;
  let at = -1;
  const reasons: string[] = [];
  const need = (index: number, reason: string) => {
    if (index < 0) return;
    reasons.push(reason);
    at = Math.max(at, index);
  };
  if (needs.moves) {
    const i = order.findIndex((p) => p.fits.moves.includes(needs.moves!));
    need(i, `${needs.moves} moves a year fits ${order[i]?.name} (${order[i]?.movesPerYear} moves a year)`);
  }
  if (needs.warehouses) {
    const i = order.findIndex((p) => p.fits.warehouses.includes(needs.warehouses!));
    need(
      i,
      `${needs.warehouses === 'None' ? 'No warehouse' : `${needs.warehouses} warehouse${needs.warehouses === '1' ? '' : 's'}`} fits ${order[i]?.name} (warehouses: ${order[i]?.warehouses})`,
    );
  }
  const seg = needs.segment && SEGMENT_NEEDS[needs.segment];
  if (seg) {
    const i = order.findIndex((p) => p.id === seg.plan);
    need(i, `${needs.segment} work needs the ${seg.module}, included from ${order[i]?.name}`);
  } else if (needs.segment) {
    need(0, `${needs.segment} work is covered by every plan, from ${order[0]?.name}`);
  }
  if (at < 0) return undefined;
  const plan: Plan = order[at]!;
  return { plan: plan.id, name: plan.name, monthly: plan.monthly, priceFrom: !!plan.priceFrom, reasons };
}
