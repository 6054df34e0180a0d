// The chat under hostile questions, over real HTTP: every question of the hostile corpus, alone and
// with ten earlier turns of itself, through POST /api/v1/ask and through the MCP search tool (a query ending in "?"
// is answered by the chat too), answers 200 or 400 with the contract's body. Speed is measured in `npm run bench`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AskResponseSchema } from '../../src/contract/ask.ts';
import { ASK_LIMITS } from '../../src/contract/limits.ts';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import { HOSTILE_QUESTIONS } from '../helpers/hostile-questions.ts';
import { PROJECT_ROOT, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';

let server: RunningServer;
let client: number;

beforeAll(async () => {
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore(),
  });
  server = await startTestServer({ deps, trustProxy: true });
});
afterAll(async () => {
  await server?.close();
});

/** Each request from its own address: the corpus is bigger than one client's read budget. */
const ask = (body: unknown) =>
  fetch(`${server.url}/api/v1/ask`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.34.0.${(client = (client ?? 0) + 1)}` },
  });

describe('hostile questions', () => {
  for (const [name, question] of Object.entries(HOSTILE_QUESTIONS)) {
    it(`${name}: answered 200 alone, and 200 or 413 (a body past its limit) after ten turns of itself`, async () => {
      // Cut by characters, never inside one: half a character is a 400 of its own (below).
      let cut = [...question];
      while (cut.join('').length > ASK_LIMITS.questionMax - 1) cut = cut.slice(0, -1);
      const asked = `${cut.join('')}?`;
      expect(asked.length).toBeLessThanOrEqual(ASK_LIMITS.questionMax);
      const alone = await ask({ question: asked });
      expect(alone.status).toBe(200);
      expect(AskResponseSchema.parse(await alone.json()).mode).toBe('extractive');
      const turns = await ask({
        question: asked,
        conversation: Array.from({ length: ASK_LIMITS.turnsMax }, () => ({ question: asked })),
      });
      expect([200, 413]).toContain(turns.status);
      const body = await turns.json();
      if (turns.status === 200) AskResponseSchema.parse(body);
      else expect(body).toMatchObject({ status: 413, error: expect.any(String) });
    });
  }

  it('NUL and a lone surrogate in a question or a turn are a 400 with the Error body', async () => {
    for (const body of [
      { question: 'is there a trial\u0000?' },
      { question: 'is there a trial \ud800?' },
      { question: 'and Growth?', conversation: [{ question: 'is there a trial \udc00' }] },
    ]) {
      const res = await ask(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 400, error: expect.stringMatching(/NUL|surrogate/) });
    }
  });

  it('the MCP search tool answers every hostile question ending in "?"', async () => {
    const mcp = new Client({ name: 'kartage-hostile', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { 'X-Forwarded-For': '10.34.1.1' } },
      }),
    );
    try {
      for (const question of Object.values(HOSTILE_QUESTIONS)) {
        const query = `${question.slice(0, 199)}?`;
        const r = await mcp.callTool({ name: 'search_kartage_site', arguments: { query } });
        expect(r.isError, query.slice(0, 20)).toBeFalsy();
      }
    } finally {
      await mcp.close();
    }
  });
});
