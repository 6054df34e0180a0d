/**
 * @module The child side of the per-need cold start (bench/needs.ts): in a fresh process, imports the
 * file-backed content source, answers one request of one need from the data folder and prints one JSON line:
 * import time, first-answer time and the time since the process started. Nothing else is imported first.
 * The ask need also imports the assistant and the price list (its import time includes them); its answer is
 * askSite for `question` (default: the API's example question).
 *
 *   node bench/need-child.ts <dataDir> <need> <slug> [question]
 */
import type { Pricing } from '../src/contract/content.ts';

const [dataDir, need, slug, question = 'Is there a free trial?'] = process.argv.slice(2);
const t0 = performance.now();
const { createContentFiles } = await import('../src/adapters/content-files.ts');
const { searchSite } = await import('../src/core/search/engine.ts');
const assistant =
  need === 'ask'
    ? {
        ...(await import('../src/core/ask/answer.ts')),
        pricing: (await import('../content/data/pricing.json', { with: { type: 'json' } })).default,
      }
    : undefined;
const t1 = performance.now();
const src = createContentFiles(dataDir!);
let answer: unknown;
switch (need) {
  case 'entries': // listPages' first page
    answer = src
      .entries()
      .slice(0, 20)
      .map((e) => e.slug);
    break;
  case 'entry': // the edge step's headers for one page
    answer = src.entry(slug!)?.tokens;
    break;
  case 'pages': // getPage
    answer = src.page(slug!)?.markdown.length;
    break;
  case 'search':
    answer = searchSite({ content: src, index: src.searchIndex() }, 'storage billing', 10).results.map(
      (r) => r.snippet.length,
    );
    break;
  case 'ask': {
    // askSite as the operation calls it (the price list as the build ships it; deps.pricing checks its schema too)
    const { askSite, pricing } = assistant!;
    const now = Date.parse('2026-11-25T02:00:00Z'); // within support hours, as bench/ask.ts
    const r = askSite({ index: src.askIndex(), pricing: pricing as Pricing, origin: src.origin, now }, { question });
    answer = [r.answered, r.answer.length, r.sources.length];
    break;
  }
  case 'files': // the edge step: is this a static file?
    answer = [src.hasFile(`/${slug}.md`), src.hasFile('/nope.md')];
    break;
  default:
    throw new Error(`unknown need ${need}`);
}
const t2 = performance.now();
if (answer === undefined) throw new Error(`no answer for ${need} ${slug}`);
console.log(
  JSON.stringify({
    importMs: t1 - t0,
    firstAnswerMs: t2 - t1,
    startToAnswerMs: t2,
    answer: JSON.stringify(answer).length,
  }),
);
