/**
 * @module Schemas of the content in `content/`: page and post front matter, and the pricing data that the
 * pricing page, the search index and the MCP pricing tool all read.
 */
import { z } from 'zod';
import { INTENTS, MOVES, SEGMENTS, WAREHOUSES } from './schemas.ts';

const date = z.coerce.date().transform((d) => d.toISOString().slice(0, 10));

/**
 * What a `pages` entry is, set in its front matter (`kind:`, default `page`). It decides the page's layout
 * and extras, and how llms.txt and search treat it: `home` (the hero), `pricing` (the plans), `listing` (the
 * index of the pages in the folder named by its slug: `blog` lists `blog/...`, `customers` the stories;
 * search never ranks it above a page it lists), `form` (a lead form; `form:` names its intent), `faq` (a page
 * of questions, with schema.org FAQPage data) and `page` (a plain page).
 */
export const PAGE_KINDS = ['home', 'pricing', 'listing', 'form', 'faq', 'page'] as const;
/** A page's kind: one of PAGE_KINDS for a `pages` entry; every `blog` entry is a `post` (a dated article). */
export type PageKind = (typeof PAGE_KINDS)[number] | 'post';

export const PageFrontmatterSchema = z
  .strictObject({
    title: z.string().min(2).max(80),
    description: z.string().min(50).max(200),
    updated: date,
    eyebrow: z.string().max(40).optional(),
    lead: z.string().max(400).optional(),
    kind: z.enum(PAGE_KINDS).default('page'),
    /** The lead form's intent on a `form` page (`demo` books a walkthrough, `enquiry` is a question). */
    form: z.enum(INTENTS).optional(),
  })
  .refine((d) => (d.kind === 'form') === (d.form !== undefined), {
    message: 'a page of kind "form" names its form (form: demo or form: enquiry), and no other page does',
    path: ['form'],
  });

export const PostFrontmatterSchema = z.strictObject({
  title: z.string().min(2).max(120),
  description: z.string().min(50).max(200),
  published: date,
  updated: date.optional(),
  author: z.string().min(2),
  tags: z
    .array(z.string().regex(/^[a-z0-9 -]+$/))
    .min(1)
    .max(6),
});

export const PlanSchema = z.strictObject({
  id: z.enum(['starter', 'growth', 'professional', 'enterprise']),
  name: z.string(),
  /** AUD per month excluding GST; for Enterprise the starting price. */
  monthly: z.number().int().positive(),
  priceFrom: z.boolean().default(false),
  quoted: z.boolean().default(false),
  officeUsers: z.number().int().positive().nullable().meta({ description: 'null means unlimited' }),
  movesPerYear: z.string(),
  maxMovesPerYear: z.number().int().positive().nullable(),
  warehouses: z.string(),
  maxWarehouses: z.number().int().min(0).nullable(),
  crewDevices: z.number().int().positive().optional(),
  trial: z.boolean(),
  includes: z.array(z.string()).min(1),
  /** The lead form's bands that this plan is the natural fit for. */
  fits: z.strictObject({ moves: z.array(z.enum(MOVES)), warehouses: z.array(z.enum(WAREHOUSES)) }),
});
export type Plan = z.infer<typeof PlanSchema>;

export const PricingSchema = z.strictObject({
  currency: z.literal('AUD'),
  period: z.literal('month'),
  gst: z.literal('excluded'),
  plans: z.array(PlanSchema).length(4),
  addOns: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      price: z.number().int().positive(),
      unit: z.string(),
      /** The plan's allowance the add-on adds to: a count of that many in all is the plan's own, then extras. */
      adds: z.enum(['officeUsers', 'crewDevices']).optional(),
      /** How many of the unit the add-on is named for one bundle holds (1,000 messages an SMS bundle). */
      bundleSize: z.number().int().positive().optional(),
    }),
  ),
  onboarding: z.strictObject({ from: z.number().int().positive(), note: z.string() }),
  annualDiscount: z.string(),
  /** Paid annually, a year costs this many months (`annualDiscount` says the same in words). */
  annualBilling: z.strictObject({ monthsCharged: z.number().int().min(1).max(12) }),
  trialDays: z.number().int().positive(),
  segments: z.array(z.enum(SEGMENTS)),
  /** Kinds of work that need a module: the plan that fits is the first whose list of what it includes names it. */
  segmentModules: z.array(z.strictObject({ segment: z.enum(SEGMENTS), module: z.string() })),
});
export type Pricing = z.infer<typeof PricingSchema>;
