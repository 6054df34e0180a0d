/** @module What `npm run ask:fit` reads: the development questions and the product's index over the build. */
import type { AskIndex } from '../../src/core/ask/index.ts';
import { productIndex as indexOf } from './engine.ts';
import { headingKey } from './sections.ts';
import { questionsOf, type SectionRef, type SetQuestion, setsOf } from './sets.ts';

export type DevQuestion = SetQuestion;

/** The development split's questions (never the test split's). */
export const devQuestions = (): DevQuestion[] => questionsOf(setsOf('dev'));

/** The product's index over the built pages (build/), learning what the build learns but no judged question. */
export const productIndex = (buildDir = new URL('../../build', import.meta.url).pathname): AskIndex =>
  indexOf(buildDir);

/** The index's sections of judged references. */
export function sectionsOf(index: AskIndex, refs: readonly SectionRef[]): Set<number> {
  const out = new Set<number>();
  for (const r of refs)
    for (const s of index.sectionsOf(r.slug)) if (headingKey(index.heading(s)) === headingKey(r.heading)) out.add(s);
  return out;
}
