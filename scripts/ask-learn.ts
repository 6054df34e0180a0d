/**
 * `npm run ask:learn`: adds a visitor's question, reviewed from `npm run ask:report`, to what the chat learns
 * (src/build/ask-asked.json): the sections that answer it, or none (a known gap, which the chat then declines
 * plainly). The build indexes its words with its sections as expansions; rebuild, then `npm run eval:ask`.
 *
 *   npm run ask:learn -- --question "do you do payroll?" --section "faq#Does Kartage do payroll?" --note "..."
 *   npm run ask:learn -- --question "is there a status page?" --gap --note "no page says; asked 14 times"
 *
 * A section is `slug#heading` as the page writes it (`slug#` for the page intro). A judged evaluation question
 * (eval/ask/sets) is refused: the product never learns the questions it is measured on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadContent } from '../src/adapters/composition-root.ts';
import { type AskedQuestion, AskedSchema, headingKey } from '../src/build/ask-hints.ts';
import { judgedQuestions, squashQuestion } from '../eval/ask/sets.ts';
import { PROJECT_ROOT } from '../server/main.ts';

export const ASKED_FILE = new URL('../src/build/ask-asked.json', import.meta.url);

/** Why a reviewed question cannot be added (undefined: it can), given the built site's sections. */
export function refusal(
  q: AskedQuestion,
  sectionExists: (slug: string, heading: string | null) => boolean,
  judged: ReadonlySet<string>,
): string | undefined {
  if (judged.has(squashQuestion(q.question)))
    return 'it is a judged evaluation question (eval/ask/sets): never learned';
  const missing = q.sections.find((s) => !sectionExists(s.slug, s.heading));
  if (missing) return `no section ${missing.slug}#${missing.heading ?? ''} on the built site`;
  return undefined;
}

/** A `slug#heading` argument as a section reference (`slug#`: the intro). */
export const sectionRef = (arg: string) => {
  const at = arg.indexOf('#');
  return at < 0 ? { slug: arg, heading: null } : { slug: arg.slice(0, at), heading: arg.slice(at + 1) || null };
};

const USAGE = 'usage: npm run ask:learn -- --question "..." (--section "slug#heading"... | --gap) --note "..."';

/** The command's options, or the usage and exit code 2 on an unknown or malformed one. */
function readArgs() {
  try {
    return parseArgs({
      options: {
        question: { type: 'string' },
        section: { type: 'string', multiple: true, default: [] },
        gap: { type: 'boolean', default: false },
        note: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

if (import.meta.main) {
  const values = readArgs();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.question || !values.note || values.gap === values.section.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const content = loadContent(join(PROJECT_ROOT, 'build'));
  const index = content.askIndex();
  const exists = (slug: string, heading: string | null) =>
    index.sectionsOf(slug).some((s) => headingKey(index.heading(s)) === headingKey(heading));
  const judged = judgedQuestions();
  const q: AskedQuestion = { question: values.question, sections: values.section.map(sectionRef), note: values.note };
  const why = refusal(q, exists, judged);
  if (why) {
    console.error(`not added: ${why}`);
    process.exit(1);
  }
  const all = AskedSchema.parse([...JSON.parse(readFileSync(ASKED_FILE, 'utf8')), q]);
  writeFileSync(ASKED_FILE, `${JSON.stringify(all, null, 1)}\n`);
  console.log(`src/build/ask-asked.json: ${all.length} reviewed questions (rebuild, then npm run eval:ask)`);
}
