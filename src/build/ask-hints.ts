/**
 * The assistant's search hints (ask-hints.json): for each section of the site's pages, a few words a visitor may
 * use for what the section says that the section itself does not ("drop down a plan" for a downgrade, "no bars"
 * for no signal). Written from the content alone (never from questions asked of it), indexed with the section's
 * words at build time and never shown: an answer still quotes only the section's own sentences. A hint names its
 * section by slug and heading (null: the page intro); tests/build/ask-hints.test.ts checks each names a section
 * the site has, so a renamed heading fails the tests instead of losing its hints.
 */
import { z } from 'zod';
import type { SectionHints } from '../core/ask/index.ts';
import data from './ask-hints.json' with { type: 'json' };

export const AskHintsSchema = z.array(
  z
    .object({
      slug: z.string().min(1),
      heading: z.string().min(1).nullable(),
      hints: z
        .array(
          z
            .string()
            .regex(/^[a-z0-9][a-z0-9' -]*$/)
            .max(80),
        )
        .max(12),
    })
    .strict(),
);
export type AskHint = z.infer<typeof AskHintsSchema>[number];

export const ASK_HINTS: readonly AskHint[] = AskHintsSchema.parse(data);

/** A heading as a key: the rendered page curls quotes ("What's next" is "What’s next" in the built markdown). */
export const headingKey = (heading: string | null) => heading?.replace(/[‘’]/g, "'").replace(/[“”]/g, '"') ?? null;

const byPage = new Map<string, Map<string | null, readonly string[]>>();
for (const h of ASK_HINTS) {
  let page = byPage.get(h.slug);
  if (!page) byPage.set(h.slug, (page = new Map()));
  page.set(headingKey(h.heading), h.hints);
}

const NONE: readonly string[] = [];

/** A page's hints by section heading (none for a page or section without hints). */
export const askHintsOf =
  (slug: string): SectionHints =>
  (heading) =>
    byPage.get(slug)?.get(headingKey(heading)) ?? NONE;
