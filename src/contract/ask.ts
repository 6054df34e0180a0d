/**
 * @module The assistant's contract (POST /api/v1/ask, additive to v1): the question with up to ten earlier turns,
 * and the answer made of quoted sections. Validation, the OpenAPI document and the tests read these.
 */
import { z } from 'zod';
import { ASK_LIMITS } from './limits.ts';

// The numbers live in the zod-free limits module, so the browser code (chat, WebMCP) reads the same ones.
export { ASK_LIMITS };

const SectionRefSchema = z.object({
  slug: z.string().max(200).meta({ description: 'Page slug of a section the turn was answered from.' }),
  heading: z.string().max(300).nullable().meta({ description: "The section's heading; null for the page intro." }),
});

/** Text a person can have typed: no NUL and no lone surrogate (half of a character, which no keyboard sends). */
const isText = (s: string) => s.isWellFormed() && !s.includes('\u0000');

export const AskTurnSchema = z.object({
  question: z
    .string({ error: 'each conversation turn needs its question (a string)' })
    .max(ASK_LIMITS.questionMax, `a conversation turn's question has at most ${ASK_LIMITS.questionMax} characters`)
    .refine(isText, "a conversation turn's question must be text: no NUL and no lone surrogate"),
  sources: z
    .array(SectionRefSchema)
    .max(ASK_LIMITS.sourcesMax, `a conversation turn cites at most ${ASK_LIMITS.sourcesMax} sections`)
    .optional()
    .meta({ description: 'The sections the turn was answered from (its `sources`, slug and heading).' }),
});

export const AskRequestSchema = z
  .object({
    question: z
      .string({ error: 'question must be a string' })
      .trim()
      .min(ASK_LIMITS.questionMin, `question must be at least ${ASK_LIMITS.questionMin} characters after trimming`)
      .max(ASK_LIMITS.questionMax, `question must be at most ${ASK_LIMITS.questionMax} characters`)
      .refine(isText, 'question must be text: no NUL and no lone surrogate')
      .meta({ description: 'The question, as a visitor or an agent would ask it.' }),
    conversation: z
      .array(AskTurnSchema, { error: 'conversation must be an array of earlier turns' })
      .max(ASK_LIMITS.turnsMax, `conversation holds at most ${ASK_LIMITS.turnsMax} earlier turns`)
      .optional()
      .meta({
        description:
          'Earlier turns, oldest first (at most 10), so a follow-up ("and the Professional one?") is understood. ' +
          'The server keeps nothing per visitor.',
      }),
  })
  .meta({
    id: 'AskRequest',
    examples: [
      { question: 'Is there a free trial?' },
      {
        question: 'and the Professional one?',
        conversation: [
          { question: 'How much is Growth a month?', sources: [{ slug: 'pricing', heading: 'Compare plans' }] },
        ],
      },
    ],
  });
export type AskRequest = z.infer<typeof AskRequestSchema>;

export const AskSourceSchema = z
  .object({
    slug: z.string().meta({ description: 'Page slug.' }),
    title: z.string().meta({ description: 'Page title.' }),
    heading: z.string().nullable().meta({ description: "The section's heading; null for the page intro." }),
    url: z.url().meta({
      description:
        "Lands on the section: the heading's anchor, plus a text fragment (#:~:text=) for the quoted sentence.",
    }),
    text: z.string().meta({ description: "The section's text, as the page's markdown twin has it." }),
    role: z.enum(['answer', 'related']).meta({
      description: '`answer`: the answer quotes it; `related`: related to the question but not quoted as its answer.',
    }),
  })
  .meta({ id: 'AskSource' });

export const HandoffSchema = z
  .object({
    intent: z.enum(['demo', 'contact', 'callback', 'message']).meta({
      description:
        '`demo`: the demo form; `contact`: an enquiry (or the right channel, such as support); `callback`: a phone ' +
        'number and a time; `message`: leave a message.',
    }),
    label: z
      .string()
      .meta({ description: 'What to tell the visitor; fits the hour (support hours 7am to 7pm AEST, Mon-Sat).' }),
    url: z.url().meta({ description: 'The page with the matching form.' }),
  })
  .meta({ id: 'Handoff' });

const WorkingLineSchema = z.object({
  item: z.string(),
  quantity: z.int(),
  unitPrice: z.number().meta({ description: 'AUD, excluding GST.' }),
  amount: z.number(),
  unit: z.string().meta({ description: 'How the price is billed (per month, per bundle).' }),
});

export const WorkingSchema = z
  .object({
    plan: z.string(),
    lines: z.array(WorkingLineSchema),
    monthly: z.number().meta({ description: 'AUD a month, excluding GST.' }),
    annual: z.number().optional().meta({
      description:
        "AUD a year, when the question asks for it: paid annually (the price list's annual billing) or month by month.",
    }),
    chosenFor: z
      .object({ officeUsers: z.int().optional(), movesPerYear: z.int().optional(), warehouses: z.int().optional() })
      .optional()
      .meta({
        description:
          "The question named no plan: the figures the plan was chosen from (the pricing page's rule: each " +
          'figure points to the smallest plan that covers it; the biggest of those wins).',
      }),
    unpriced: z
      .array(
        z.object({
          item: z.string().meta({ description: "What was counted: an add-on's name in the price list, or a figure." }),
          asked: z.string().meta({ description: "The question's words that count it (a long number shortened)." }),
          reason: z.enum(['not-a-number', 'negative', 'too-large', 'not-whole', 'over-limit']).meta({
            description:
              'Why it is not priced: not a number, below zero, too large to work out exactly, not a whole number, ' +
              'or more than the most the assistant prices of one thing.',
          }),
          unitPrice: z.number().optional().meta({ description: "The price list's price per unit, AUD excl. GST." }),
          unit: z.string().optional().meta({ description: 'How that price is billed (per user per month).' }),
        }),
      )
      .optional()
      .meta({
        description:
          'Quantities the question counts that the price list cannot price: left out of `lines` and `monthly`, ' +
          'and said so in the answer with their price per unit.',
      }),
    from: z.boolean().meta({ description: 'The plan is quoted: the figure is a starting price.' }),
    currency: z.literal('AUD'),
    gst: z.literal('excluded'),
  })
  .meta({ id: 'PricingWorking', description: 'The arithmetic of a pricing answer, each price from the price list.' });

export const AskResponseSchema = z
  .object({
    question: z.string().meta({ description: 'Echo of the question (trimmed).' }),
    answered: z.boolean().meta({ description: 'Whether the site answers it. When false, `answer` says so.' }),
    answer: z.string().meta({
      description:
        'Markdown made only of sentences quoted from `sources` (and, for pricing arithmetic, the working). When ' +
        '`answered` is false, one sentence saying the site has no answer, then the related sections.',
    }),
    sources: z
      .array(AskSourceSchema)
      .max(ASK_LIMITS.sourcesMax)
      .meta({ description: 'Sections, best first, at most 5.' }),
    handoff: HandoffSchema.nullable().meta({
      description: 'A person to hand over to: set when one is asked for, or when the site has no answer.',
    }),
    mode: z.literal('extractive'),
    reason: z.enum(['answered', 'no-match', 'known-gap', 'handoff']).meta({
      description:
        'Why the question was answered or not: `answered`; `no-match` (no section answers it well enough); ' +
        '`known-gap` (nearer a question the site is known not to answer, asked by visitors before or written from ' +
        'the content, than any it answers); `handoff` (a request for a person, answered by offering one).',
    }),
    working: WorkingSchema.optional(),
  })
  .meta({ id: 'AskResponse' });
export type AskResponse = z.infer<typeof AskResponseSchema>;
