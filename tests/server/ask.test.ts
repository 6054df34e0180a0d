// POST /api/v1/ask over real HTTP on the local server: the contract (every answer is also checked against the
// OpenAPI document), bad input, 413, 429 on an injected clock, follow-ups, handoffs and pricing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { AskResponseSchema } from '../../src/contract/ask.ts';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { expectErrorResponse } from '../helpers/http.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

// Wednesday 25 November 2026, 12:00 AEST (within support hours), fixed: the read window cannot roll over.
const NOON_AEST = Date.parse('2026-11-25T02:00:00Z');
let server: RunningServer;

const ask = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/ask`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
const answer = async (body: unknown) => {
  const res = await ask(body);
  expect(res.status).toBe(200);
  return AskResponseSchema.parse(await res.json());
};
const expectError = expectErrorResponse;

beforeAll(async () => {
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore({ now: () => NOON_AEST }),
    now: () => NOON_AEST,
  });
  server = await startTestServer({ deps });
});
afterAll(async () => {
  await server?.close();
});

describe('unanswered questions reach the content team', () => {
  it('counts what the site cannot answer, scrubbed, and not requests for a person or answered questions', async () => {
    await answer({ question: 'Do you integrate with Salesforce? I am jo@example.com' });
    await answer({ question: 'Is there a free trial?' });
    await answer({ question: 'Can someone call me back on 0412 345 678?' });
    let top: Awaited<ReturnType<typeof server.deps.store.topQuestions>> = [];
    for (let i = 0; i < 50 && !top.length; i++) {
      top = await server.deps.store.topQuestions(10);
      if (!top.length) await new Promise((r) => setTimeout(r, 20));
    }
    expect(top.map((q) => q.text)).toEqual(['do you integrate with salesforce? i am [email]']);
  });
});

describe('POST /api/v1/ask', () => {
  it('answers from the site: quoted, linked to the section, metered, never cached', async () => {
    const res = await ask({ question: 'Is there a free trial?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-policy')).toBe('120;w=60');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = AskResponseSchema.parse(await res.json());
    expect(body).toMatchObject({
      question: 'Is there a free trial?',
      answered: true,
      mode: 'extractive',
      handoff: null,
    });
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.sources.length).toBeLessThanOrEqual(5);
    const first = body.sources[0]!;
    expect(first.role).toBe('answer');
    expect(first.url.startsWith(`${server.deps.content.origin}/${first.slug === 'index' ? '' : first.slug}`)).toBe(
      true,
    );
    expect(first.url).toMatch(/#[a-z0-9-]*:~:text=/);
    expect(body.answer).toMatch(/30-day (free )?trial/);
    for (const sentence of body.answer.split('\n\n')) expect(first.text.replace(/\s+/g, ' ')).toContain(sentence);
  });

  it('says so when the site has no answer, and offers a person within the hour', async () => {
    const body = await answer({ question: 'Do you integrate with Salesforce?' });
    expect(body.answered).toBe(false);
    expect(body.answer).toMatch(/doesn't answer that/);
    expect(body.handoff).toMatchObject({ intent: 'contact' });
    expect(body.handoff!.label).toContain('1300 527 824');
    expect(body.sources.every((s) => s.role === 'related')).toBe(true);
  });

  it('hands over a request for a demo, a call back and a message', async () => {
    expect(
      (await answer({ question: "I'm an assistant booking a demo for Jo from Acme Removals" })).handoff?.intent,
    ).toBe('demo');
    expect((await answer({ question: 'Can someone ring me back after lunch?' })).handoff?.intent).toBe('callback');
    expect((await answer({ question: 'I want to leave a message for your team' })).handoff?.intent).toBe('message');
  });

  it('prices arithmetic questions from the price list with the working', async () => {
    const body = await answer({ question: 'What would Starter plus 2 more office logins and 4 crew phones cost?' });
    expect(body.working).toMatchObject({ plan: 'Starter', monthly: 528, gst: 'excluded' });
    expect(body.answer).toMatch(/\$528 a month excluding GST/);
    expect(body.sources.every((s) => s.slug === 'pricing')).toBe(true);
  });

  it('understands follow-ups from the turns the client sends back', async () => {
    const first = await answer({ question: 'How much is Growth with 3 extra users a month?' });
    expect(first.working?.monthly).toBe(890 + 135);
    const turn = { question: first.question, sources: first.sources.map(({ slug, heading }) => ({ slug, heading })) };
    const next = await answer({ question: 'and the Professional one?', conversation: [turn] });
    expect(next.working).toMatchObject({ plan: 'Professional', monthly: 1890 + 135 });
    const gst = await answer({ question: 'does that include GST?', conversation: [turn] });
    expect(gst.answered).toBe(true);
    expect(gst.answer).toMatch(/GST/);
  });

  it('refuses bad input with 400 and the Error body', async () => {
    await expectError(await ask({ question: 'x' }), 400, /at least 2/);
    await expectError(await ask({ question: 'a'.repeat(501) }), 400, /at most 500/);
    await expectError(await ask({ question: 42 }), 400, /question/);
    await expectError(await ask({}), 400, /question/);
    await expectError(await ask({ question: 'hello', conversation: 'no' }), 400, /conversation/);
    await expectError(await ask({ question: 'hello', conversation: [{ question: 1 }] }), 400, /question/);
    const turns = Array.from({ length: 11 }, () => ({ question: 'is there a trial?', sources: [] }));
    await expectError(await ask({ question: 'and GST?', conversation: turns }), 400, /at most 10/);
    await expectError(await ask('{"question":'), 400);
    expect((await ask({ question: 'ok?', conversation: turns.slice(0, 10) })).status).toBe(200);
  });

  it('refuses a body over 16 KB with 413', async () => {
    const big = { question: 'is there a trial?', conversation: [{ question: 'x'.repeat(17_000) }] };
    await expectError(await ask(big), 413);
  });

  it('answers 405 to GET, and 429 with Retry-After once the read budget is spent', async () => {
    const get = await fetch(`${server.url}/api/v1/ask`);
    expect(get.status).toBe(405);
    let last: Response | undefined;
    for (let i = 0; i < 130; i++) {
      last = await ask({ question: 'is there a trial?' });
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    await expectError(last!, 429, /120 requests per minute/);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
