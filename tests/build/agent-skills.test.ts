/**
 * The agent-skills index over real HTTP: /.well-known/agent-skills/index.json as Agent Skills Discovery
 * v0.2.0 (cloudflare/agent-skills-discovery-rfc) defines it, its SKILL.md in the Agent Skills format
 * (agentskills.io specification: front matter keys and limits), the digest over the served bytes, and
 * every link of the skill answering on the local server (the sandbox example validating clean).
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.ts';
import { postJson, send, type HttpAnswer } from '../helpers/http.ts';
import { AGENT_SKILLS_SCHEMA, endpointList } from '../../src/build/agent-skills.ts';
import { COMPANY } from '../../src/contract/company.ts';
import { operations } from '../../src/operations/index.ts';
import type { RunningServer } from '../../server/main.ts';

/** Agent Skills name rule: 1-64 characters, lowercase letters, digits and single inner hyphens. */
const SKILL_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;
const FRONT_MATTER_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

let server: RunningServer;
let origin: string;
let index: HttpAnswer;
/** The public URL as the local server's URL (the build's origin is SITE_URL, not the test port). */
const local = (url: string) => server.url + new URL(url).pathname + new URL(url).search;

beforeAll(async () => {
  server = await startTestServer();
  origin = server.deps.content.origin;
  index = await send(`${server.url}/.well-known/agent-skills/index.json`);
});
afterAll(() => server?.close());

describe('/.well-known/agent-skills/index.json', () => {
  it('is a v0.2.0 discovery index: $schema, and skills with name, type, description, url and digest', () => {
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^application\/json/);
    expect(index.headers['access-control-allow-origin']).toBe('*');
    const body = index.json();
    expect(Object.keys(body).sort()).toEqual(['$schema', 'skills']);
    expect(body.$schema).toBe(AGENT_SKILLS_SCHEMA);
    expect(body.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(body.skills).toHaveLength(1);
    for (const skill of body.skills) {
      expect(Object.keys(skill).sort()).toEqual(['description', 'digest', 'name', 'type', 'url']);
      expect(skill.name).toMatch(SKILL_NAME);
      expect(skill.type).toBe('skill-md');
      expect(skill.description.length).toBeGreaterThan(0);
      expect(skill.description.length).toBeLessThanOrEqual(1024);
      expect(skill.url).toBe(`${origin}/.well-known/agent-skills/${skill.name}/SKILL.md`);
      expect(skill.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('the SKILL.md is served as markdown, matches its digest, and follows the Agent Skills format', async () => {
    const [entry] = index.json().skills;
    const r = await send(local(entry.url));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(`sha256:${createHash('sha256').update(Buffer.from(r.text, 'utf8')).digest('hex')}`).toBe(entry.digest);

    const [, yaml, body] = r.text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/)!;
    const front = parseYaml(yaml!) as Record<string, unknown>;
    for (const key of Object.keys(front)) expect(FRONT_MATTER_KEYS).toContain(key);
    expect(front.name).toBe(entry.name);
    // The name is the skill's folder.
    expect(new URL(entry.url).pathname.split('/').at(-2)).toBe(front.name);
    expect(front.description).toBe(entry.description);
    expect(String(front.compatibility).length).toBeLessThanOrEqual(500);
    for (const v of Object.values(front.metadata as object)) expect(typeof v).toBe('string');
    // Instructions small enough to load whole: under 500 lines and about 5,000 tokens.
    expect(body!.split('\n').length).toBeLessThan(500);
    expect(body!.length / 4).toBeLessThan(5000);
    for (const topic of [
      'Find content',
      'Ask a question',
      'Read a page as markdown',
      'Check a lead in the sandbox',
      'Submit a lead only for a person who asked',
    ]) {
      expect(body).toContain(`## ${topic}`);
    }
  });

  it('says how to ask the site a question: the request, what an answer holds, no answer and the handoff', async () => {
    const skill = (await send(local(index.json().skills[0].url))).text;
    const ask = skill.slice(skill.indexOf('## Ask a question'), skill.indexOf('## Read a page as markdown'));
    expect(ask).toContain(`POST ${origin}/api/v1/ask`);
    expect(ask).toContain('{"question": "Is there a free trial?"}');
    expect(ask).toContain('2 to 500');
    for (const field of ['answer', 'sources', 'slug', 'title', 'heading', 'url', 'text', 'role']) {
      expect(ask, field).toContain(`\`${field}\``);
    }
    expect(ask).toContain('`answered: false` means the site has no answer');
    for (const intent of ['demo', 'contact', 'callback', 'message']) expect(ask, intent).toContain(`\`${intent}\``);
    expect(ask).toMatch(/up to 10 earlier\s+turns/);
    expect(ask).toContain('`conversation: [{"question", "sources":');
    expect(ask).toContain('over 16 KB gets 413');
    expect(ask).toContain('`extractive`');
    // Metered as a read, never cached.
    expect(skill).toMatch(/\(search, ask, pages, batch, sandbox, MCP; a question is\s+one\)/);
    expect(skill).toContain('(ask answers never are)');
  });

  it("lists every public endpoint from the operations, and gives the company's contact details", async () => {
    const skill = (await send(local(index.json().skills[0].url))).text;
    expect(skill).toContain(`## Every endpoint\n`);
    expect(skill).toContain(endpointList(origin));
    for (const op of operations.filter((o) => o.public)) expect(skill, op.id).toContain(`${op.method} ${origin}`);
    expect(skill).toContain(`call ${COMPANY.phone} or email ${COMPANY.salesEmail}`);
  });

  it('every link of the skill answers on the local server', async () => {
    const skill = (await send(local(index.json().skills[0].url))).text;
    const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // An absolute URL of the site; one followed by `<` is a template (`?q=<terms>`), not a link.
    const urls = [...skill.matchAll(new RegExp(`(POST )?(${escaped}[^\\s)\`<>"]*)`, 'g'))]
      .filter((m) => skill[m.index! + m[0].length] !== '<')
      .map((m) => ({ post: Boolean(m[1]), url: m[2]!.replace(/\.$/, '') }));
    const gets = [...new Set(urls.filter((u) => !u.post).map((u) => u.url))];
    const posts = [...new Set(urls.filter((u) => u.post).map((u) => u.url))];
    expect(gets.length).toBeGreaterThan(10);
    for (const url of gets) expect((await send(local(url))).status, url).toBe(200);
    expect(gets).toEqual(
      expect.arrayContaining([`${origin}/llms.txt`, `${origin}/pricing.md`, `${origin}/openapi.json`]),
    );

    expect(posts.map((u) => new URL(u).pathname).sort()).toEqual([
      '/api/lead',
      '/api/v1/ask',
      '/api/v1/lead/validate',
      '/api/v1/pages/batch',
      '/mcp',
    ]);
    // The sandbox accepts the skill's example body as it is; the batch example finds both pages.
    const example = JSON.parse(skill.match(/```json\n([\s\S]*?)\n```/)![1]!);
    const checked = await postJson(local(`${origin}/api/v1/lead/validate`), example);
    expect(checked.status).toBe(200);
    expect(checked.json()).toMatchObject({ sandbox: true, wouldSubmit: true, problems: [] });
    const batch = await postJson(local(`${origin}/api/v1/pages/batch`), { slugs: ['pricing', 'faq'] });
    expect(batch.json().results.map((r: { found: boolean }) => r.found)).toEqual([true, true]);
    // The submission endpoint and the MCP server exist (an empty lead is refused, nothing is created).
    expect((await postJson(local(`${origin}/api/lead`), {})).status).toBe(400);
    const mcp = await postJson(
      local(`${origin}/mcp`),
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      {
        headers: { Accept: 'application/json, text/event-stream' },
      },
    );
    expect(mcp.status).toBe(200);
  });
});
