/**
 * A typed client of the Kartage API, generated from its OpenAPI document and used with no cast. From this folder,
 * with the local server running (`npm start`):
 *
 *   npx openapi-typescript http://localhost:4321/openapi.json -o kartage-api.d.ts
 *   npx tsc -p .                  # tsconfig.json here: strict
 *   node typed-client.ts http://localhost:4321
 *
 * It lists pages, reads one as JSON and as markdown, searches, reads a batch, checks a lead in the sandbox,
 * asks the chat a question and, only on a local server (loopback), submits the lead for real.
 * tests/contract/generated-client.test.ts generates the types from the served document, compiles this file
 * with `tsc --strict` and runs it against the local server.
 */
import createClient from 'openapi-fetch';
import type { paths } from './kartage-api.js';

const base = process.argv[2] ?? 'http://localhost:4321';
/**
 * A JSON client: each answer is typed by its `application/json` body (a page's 200 also has a `text/markdown` one,
 * a lead's a `text/html` one for the site's form; a client of every media type gets the union of them).
 */
const api = createClient<paths, 'application/json'>({ baseUrl: base });

/** The answer's body, or the process stops with the API's error. */
function ok<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new Error(`${r.response.url}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

const list = ok(await api.GET('/api/v1/pages', { params: { query: { limit: 5, prefix: 'product/' } } }));
console.log(`pages: ${list.count}, first ${list.pages[0]?.slug}, more: ${list.nextCursor !== undefined}`);

const page = ok(await api.GET('/api/v1/pages/{slug}', { params: { path: { slug: 'pricing' } } }));
console.log(`page: ${page.title} (${page.markdown.length} characters of markdown, updated ${page.updated})`);

const markdown = ok(
  await api.GET('/api/v1/pages/{slug}', {
    params: { path: { slug: 'pricing' } },
    headers: { Accept: 'text/markdown' },
    parseAs: 'text',
  }),
);
console.log(`markdown: ${markdown.split('\n').find((l) => l.startsWith('# '))}`);

const search = ok(await api.GET('/api/v1/search', { params: { query: { q: 'storage billing', limit: 3 } } }));
for (const r of search.results) console.log(`search: ${r.score} ${r.slug}: ${r.snippet}`);

const batch = ok(await api.POST('/api/v1/pages/batch', { body: { slugs: ['pricing', 'no-such-page'] } }));
for (const r of batch.results) {
  if (r.found) console.log(`batch: ${r.slug}: ${r.page.title}`);
  else console.log(`batch: ${r.slug}: ${r.error}`);
}

const lead = { name: 'Sam Taylor', email: 'sam@harbourline.example', message: 'Typed client example.' };
const check = ok(await api.POST('/api/v1/lead/validate', { body: lead }));
console.log(`sandbox: would submit ${check.wouldSubmit}`);
// A lead the sandbox refuses: 422, its body the same LeadValidation with every problem.
const bad = await api.POST('/api/v1/lead/validate', { body: { ...lead, email: 'not-an-email' } });
if (bad.error && 'problems' in bad.error)
  for (const p of bad.error.problems) console.log(`sandbox: ${p.field}: ${p.error}`);

const answer = ok(await api.POST('/api/v1/ask', { body: { question: 'Is there a free trial?' } }));
console.log(`ask: answered ${answer.answered}: ${answer.answer.split('\n')[0]}`);
for (const s of answer.sources) console.log(`ask source: ${s.role} ${s.url}`);
if (answer.handoff) console.log(`ask handoff: ${answer.handoff.intent} at ${answer.handoff.url}`);
// A follow-up: the earlier turn goes with it (the server keeps nothing per visitor).
const turn = { question: answer.question, sources: answer.sources.map(({ slug, heading }) => ({ slug, heading })) };
const question = 'How much is Growth a month?';
const next = ok(await api.POST('/api/v1/ask', { body: { question, conversation: [turn] } }));
const working = next.working ? `, ${next.working.plan}: ${next.working.monthly} AUD a month` : '';
console.log(`ask again: answered ${next.answered}${working}`);

if (['localhost', '127.0.0.1', '[::1]'].includes(new URL(base).hostname)) {
  const sent = ok(await api.POST('/api/lead', { body: lead, headers: { 'Idempotency-Key': crypto.randomUUID() } }));
  console.log(`lead: accepted ${sent.ok}`);
} else console.log('lead: not submitted (only to a local server: a lead reaches a sales team)');
