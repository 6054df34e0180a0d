/**
 * @module Which sentence the chat quotes, on the dev split: for each fact question whose `why` states the fact (the
 * persona sets'), and each judged section holding one sentence that plainly states it (the sentence sharing the most
 * idf-weighted terms with the `why`, its next below 0.7 of it, at least 6), whether the section's quotes hold that
 * sentence. Dev only (the test split's sets have no `why`). `npm run eval:ask:sentences`
 */
import { analyse } from '../../src/core/ask/analyse.ts';
import { quotesFrom, sentencesOf, termsOf } from '../../src/core/ask/compose.ts';
import { productIndex, sectionsOf } from './data.ts';
import { PRICING } from './engine.ts';
import { questionsOf, setsOf } from './sets.ts';

/** How often the quotes of a judged section hold the sentence stating the fact, and how many quotes they are. */
export function sentenceFigures() {
  const index = productIndex();
  const [figures, misses] = [{ sections: 0, quoted: 0, quotes: 0 }, [] as string[]];
  for (const q of questionsOf(setsOf('dev'))) {
    if (q.kind !== 'fact' || !q.why) continue;
    const why = termsOf(q.why);
    const groups = analyse(q.question, [], index, index.lexicon).parts.flatMap((p) => p.groups);
    const named = PRICING.plans.map((p) => p.name.toLowerCase()).filter((n) => q.question.toLowerCase().includes(n));
    for (const s of sectionsOf(index, q.answers ?? [])) {
      const all = sentencesOf(index, s);
      const shared = all.map((x) => [...termsOf(x.plain)].reduce((a, t) => a + (why.has(t) ? index.idf(t) : 0), 0));
      const [first = 0, second = 0] = [...shared].sort((a, b) => b - a);
      if (all.length < 2 || first < 6 || second > 0.7 * first) continue;
      const stating = all[shared.indexOf(first)]!;
      const quotes = quotesFrom(index, s, { text: q.question, groups }, named);
      figures.sections++;
      figures.quotes += quotes.length;
      if (quotes.some((x) => x.start === stating.start)) figures.quoted++;
      else misses.push(`${q.set}/${q.id} ${q.question}\n  states: ${stating.plain}\n  quoted: ${quotes[0]?.plain}`);
    }
  }
  return { ...figures, misses };
}

if (import.meta.main) {
  const f = sentenceFigures();
  if (process.argv.includes('--misses')) console.log(f.misses.join('\n'));
  const mean = (f.quotes / f.sections).toFixed(2);
  console.log(
    `dev: ${f.sections} judged sections of fact questions with a stated fact; the stating sentence quoted in`,
  );
  console.log(`${f.quoted} (${(f.quoted / f.sections).toFixed(3)}), ${mean} sentences quoted a section on average`);
}
