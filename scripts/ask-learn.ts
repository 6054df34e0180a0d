/**
 * `npm run ask:learn`: writes src/build/ask-asked.json, what the assistant learns from the judged development sets
 * (tests/data, LEARNED_SETS): each question with the sections judged to answer it (askedFrom). The build indexes a
 * question's words with its sections as hints (src/build/ask-hints.ts); run it after adding a question to a
 * development set, then build. tests/build/ask-hints.test.ts fails while the file and the sets disagree.
 */
import { writeFileSync } from 'node:fs';
import { AskedSchema } from '../src/build/ask-hints.ts';
import { askedFrom, LEARNED_SETS } from '../tests/helpers/ask-metrics.ts';

export const ASKED_FILE = new URL('../src/build/ask-asked.json', import.meta.url);

/** The file's text: the learned sets' questions, one-space indented as the hints file is. */
export const askedText = () => `${JSON.stringify(AskedSchema.parse(askedFrom(LEARNED_SETS)), null, 1)}\n`;

if (import.meta.main) {
  const text = askedText();
  writeFileSync(ASKED_FILE, text);
  const n = JSON.parse(text).length;
  console.log(`src/build/ask-asked.json: ${n} questions from ${LEARNED_SETS.map((x) => x.set).join(', ')}`);
}
