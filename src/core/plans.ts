/**
 * @module The plan that fits, by the pricing page's rule (each need points to the smallest plan that covers it; the
 * biggest of those wins): the one rule the chat's pricing answers and the lead form's recommendation both use. Reads
 * the one pricing file (content/data/pricing.json).
 */
import type { Plan, Pricing } from '../contract/content.ts';
import type { MOVES, SEGMENTS, WAREHOUSES } from '../contract/schemas.ts';

/** What a need asks of a plan: whether the plan covers it. */
export type Need = (plan: Plan, at: number) => boolean;

/** The plan that fits every need: `at`, the biggest of `each` need's smallest covering plan (-1: none). */
export function planThatFits(plans: readonly Plan[], needs: readonly Need[]): { at: number; each: number[] } {
  const each = needs.map((covers) => plans.findIndex(covers));
  return { at: Math.max(-1, ...each), each };
}

/** The need for a module: covered by the first plan whose list of what it includes names it, and every bigger one. */
export const needsModule =
  (plans: readonly Plan[], module: string): Need =>
  (_plan, at) =>
    plans.slice(0, at + 1).some((p) => p.includes.includes(module));

/** What the lead form asks: the kind of work, the warehouses, the moves a year. */
export interface PlanNeeds {
  segment?: (typeof SEGMENTS)[number];
  warehouses?: (typeof WAREHOUSES)[number];
  moves?: (typeof MOVES)[number];
}

/** The plan recommended, its price and the reason each need gave. */
export interface Recommendation {
  plan: string;
  name: string;
  monthly: number;
  /** True when the price is a starting point and the plan is quoted. */
  priceFrom: boolean;
  reasons: string[];
}

/** The recommended plan for the lead form's bands, or undefined when no need was given. */
export function recommendPlan(pricing: Pricing, needs: PlanNeeds): Recommendation | undefined {
  const plans = pricing.plans;
  const asked: [Need, (p: Plan) => string][] = [];
  const { moves, warehouses, segment } = needs;
  if (moves) {
    asked.push([
      (p) => p.fits.moves.includes(moves),
      (p) => `${moves} moves a year fits ${p.name} (${p.movesPerYear} moves a year)`,
    ]);
  }
  if (warehouses) {
    const some = warehouses === 'None' ? 'No warehouse' : `${warehouses} warehouse${warehouses === '1' ? '' : 's'}`;
    asked.push([
      (p) => p.fits.warehouses.includes(warehouses),
      (p) => `${some} fits ${p.name} (warehouses: ${p.warehouses})`,
    ]);
  }
  const module = segment && pricing.segmentModules.find((m) => m.segment === segment)?.module;
  if (module) {
    asked.push([needsModule(plans, module), (p) => `${segment} work needs the ${module}, included from ${p.name}`]);
  } else if (segment) {
    asked.push([() => true, (p) => `${segment} work is covered by every plan, from ${p.name}`]);
  }
  const { at, each } = planThatFits(
    plans,
    asked.map(([need]) => need),
  );
  if (at < 0) return undefined;
  const reasons = asked.flatMap(([, reason], i) => (each[i]! < 0 ? [] : [reason(plans[each[i]!]!)]));
  const plan = plans[at]!;
  return { plan: plan.id, name: plan.name, monthly: plan.monthly, priceFrom: !!plan.priceFrom, reasons };
}
