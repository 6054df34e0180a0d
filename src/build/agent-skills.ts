/**
 * @module The agent-skills index and its one skill, written at build time for the site's origin: Agent
 * Skills Discovery via well-known URIs (cloudflare/agent-skills-discovery-rfc, v0.2.0) at
 * /.well-known/agent-skills/index.json, listing a SKILL.md in the Agent Skills format (agentskills.io:
 * YAML front matter with name and description, then markdown instructions) that teaches an agent this
 * site: find content, ask a question, read pages as markdown, check a lead in the sandbox, submit one only for a
 * person.
 */
import { ASK_LIMITS } from '../contract/ask.ts';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { COMPANY } from '../contract/company.ts';
import { LIMITS } from '../contract/limits.ts';
import { AGENT_SKILLS_PATH, fileOf, MACHINE_READABLE } from '../contract/links.ts';
import { MCP_TOOLS } from '../contract/mcp.ts';
import { DIALCODE_PATTERN, INTENTS, LeadSchema, MOVES, SEGMENTS, WAREHOUSES } from '../contract/schemas.ts';
import { HOME_SLUG, twinPathOfSlug, twinUrlOfSlug, urlOfSlug } from '../contract/slugs.ts';
import { endpoints } from './endpoints.ts';

/** The `$schema` of a v0.2.0 discovery index (an opaque identifier clients match exactly). */
export const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** Skill name: 1-64 of a-z, 0-9 and single hyphens, and the name of the folder SKILL.md sits in. */
export const SKILL_NAME = 'kartage-site';
/** The SKILL.md, in its own folder beside the index (the machine-readable files list's agentSkills). */
export const SKILL_PATH = `${AGENT_SKILLS_PATH.slice(0, AGENT_SKILLS_PATH.lastIndexOf('/'))}/${SKILL_NAME}/SKILL.md`;
export const SKILL_DESCRIPTION =
  'Find, read and cite pages of the Kartage website (software for moving, relocation and storage companies): ' +
  'search, questions answered with quotes from the site, the page index and llms.txt, pages as markdown, pricing, ' +
  'and the lead API. Use when a person asks about Kartage, its plans or prices, or wants to contact Kartage or book ' +
  'a demo; check a lead in the sandbox first and submit one only for a person who asked.';

/** The ask endpoint's limits (src/contract/ask.ts ASK_LIMITS). */
const ASK = ASK_LIMITS;

const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

/** The public endpoints, one line each: method, absolute URL (`<name>` for what the caller fills in), summary. */
export function endpointList(origin: string): string {
  return endpoints()
    .map((e) => {
      const query = e.query.map((q) => `${q}=<${q}>`).join('&');
      const url = origin + e.path.replace(/\{(\w+)\}/g, '<$1>') + (query ? `?${query}` : '');
      return `- \`${e.method} ${url}\`: ${e.summary.replace(/\.?$/, '.')}`;
    })
    .join('\n');
}

// Long on purpose: a template that is the published SKILL.md, read top to bottom as the agent reads it.
/** The SKILL.md text for an origin (every URL absolute; every number and list from the contract). */
export function skillMarkdown(origin: string): string {
  const F = LIMITS.lead_fields;
  const pricingMd = twinUrlOfSlug(origin, 'pricing');
  const example = (LeadSchema.meta()?.examples as Record<string, string>[] | undefined)?.[0];
  const front = toYaml(
    {
      name: SKILL_NAME,
      description: SKILL_DESCRIPTION,
      compatibility: `Needs web access to ${new URL(origin).host}. No account, key or authentication.`,
      metadata: { site: `${origin}/`, openapi: `${origin}/openapi.json` },
    },
    { lineWidth: 0 },
  );
  return `---
${front}---

# The Kartage website

Kartage sells operating software to removalists, international movers and storage operators in Australia
and New Zealand. Everything on ${origin}/ is public and needs no authentication: do not send an
\`Authorization\` header. Cite the page URL (\`url\`) of whatever you quote.

## Find content

1. Search: \`GET ${origin}/api/v1/search?q=<terms>&limit=<1-${LIMITS.searchLimit.max}>\`
   (at least ${LIMITS.searchMinLength} characters; every term must appear; ${LIMITS.searchLimit.default} results
   by default). Each result has \`slug\`, \`title\`, \`url\`, \`markdown_url\` and a \`snippet\`.
   Example: ${origin}/api/v1/search?q=storage+billing
2. Page index: \`GET ${origin}/api/v1/pages?prefix=<slug prefix>&limit=<1-${LIMITS.listLimit.max}>\`; pass
   \`nextCursor\` back as \`cursor\` until it is absent. Blog posts have the prefix \`blog/\`.
   Example: ${origin}/api/v1/pages?prefix=product/
3. Overview for a language model: [llms.txt](${origin}/llms.txt) lists every page with a line about it;
   [sitemap.xml](${origin}/sitemap.xml) lists every URL with its last change.
4. MCP: \`POST ${origin}/mcp\` (Streamable HTTP, stateless) offers the same as tools:
   ${list(MCP_TOOLS)}. Its manifest is [mcp.json](${origin}/.well-known/mcp.json).

## Ask a question

\`POST ${origin}/api/v1/ask\` with \`{"question": "Is there a free trial?"}\` (${ASK.questionMin} to ${ASK.questionMax}
characters) answers from the site's own content: every sentence of \`answer\` is quoted from a section in
\`sources\` (best first; each has \`slug\`, \`title\`, \`heading\`, \`url\`, \`text\` and \`role\`), and its \`url\`
opens the page at that section. Nothing is invented; a pricing question that needs arithmetic ("Starter plus
two extra office users") gets the monthly figure with its working from the price list, excluding GST.

- \`answered: false\` means the site has no answer: tell the person so, do not guess. \`handoff\` then offers
  a person: \`intent\` (\`demo\`, \`contact\`, \`callback\` or \`message\`), a \`label\` to show and the \`url\`
  of the form. The endpoint sends nothing; a lead is the lead API below, only for a person who asked.
- A follow-up carries up to ${ASK.turnsMax} earlier turns, oldest first: \`conversation: [{"question", "sources":
  [{"slug", "heading"}]}]\`. Nothing is kept between requests. A body over ${ASK.bodyBytes / 1024} KB gets 413.
- \`mode\` is always \`extractive\`: quote and link its sources, as you would a page.
- In a browser with WebMCP, the page's \`ask_site\` tool asks the same endpoint and returns its JSON answer.

## Read a page as markdown

- Append \`.md\` to a page URL (the home page is \`${twinPathOfSlug(HOME_SLUG)}\`): [pricing.md](${pricingMd}).
- Or send \`Accept: text/markdown\` to the page URL itself (\`${urlOfSlug(origin, 'pricing')}\`): the same bytes.
- As JSON with the markdown and metadata: \`GET ${origin}/api/v1/pages/<slug>\`
  (example: ${origin}/api/v1/pages/pricing); up to ${LIMITS.batchMax} at once:
  \`POST ${origin}/api/v1/pages/batch\` with \`{"slugs": ["pricing", "faq"]}\`.
- Prices on the [pricing page](${pricingMd}) are per month in Australian dollars, excluding GST.

## Check a lead in the sandbox

Before any submission, \`POST ${origin}/api/v1/lead/validate\` with the lead as JSON. It runs the same
checks as submission and writes nothing. 200 means it would go through as it is; 422 lists every
\`problems\` item as \`{field, error}\`, and \`wouldSubmit\` is false only when submission would refuse it
(name missing, email invalid). Fix what it reports, or ask the person.

| Field | Rules |
|---|---|
| \`name\` | required, one line, up to ${F.name} characters |
| \`email\` | required, a work email, up to ${F.email} characters |
| \`company\` | up to ${F.company} characters |
| \`phone\`, \`dialcode\` | up to ${F.phone} characters; dial code \`${DIALCODE_PATTERN.source}\`, default \`+61\` |
| \`country\` | up to ${F.country} characters |
| \`message\` | up to ${F.message} characters |
| \`intent\` | ${list(INTENTS)} (\`demo\` books a walkthrough) |
| \`segment\` | ${list(SEGMENTS)} |
| \`warehouses\` | ${list(WAREHOUSES)} |
| \`moves\` | moves per year: ${list(MOVES)} |

Example body:

\`\`\`json
${JSON.stringify(example, null, 2)}
\`\`\`

## Submit a lead only for a person who asked

\`POST ${origin}/api/lead\` creates a record in Kartage's sales CRM and a real person replies. Use it only
when the person you are helping asked you to contact Kartage or book a demo for them, with their own
details, and confirmed what will be sent. Never submit to test, to explore, or with invented details.

- Send an \`Idempotency-Key\` header (a new UUID per lead, up to ${LIMITS.idempotencyKeyMax} characters) and
  the same key on every retry of that lead: a replay creates nothing new.
- 200 \`{"ok": true}\`: sent. 400: name or email is wrong (the sandbox would have said). 429: wait
  \`Retry-After\` seconds (${LIMITS.lead.limit} leads an hour per address). 502: it could not be recorded; tell
  the person to call ${COMPANY.phone} or email ${COMPANY.salesEmail} (the chat on the website shows both when it
  cannot record their details either).
- Or let the person send it themselves: the [demo form](${origin}/demo) and the
  [contact form](${origin}/contact). In a browser with WebMCP, the page's \`book_demo\` tool fills the
  demo form for the person to review and send; it never sends it.

## Every endpoint

Every public endpoint and what it does; [openapi.json](${origin}/openapi.json) describes each in full
(parameters, bodies, answers).

${endpointList(origin)}

## Limits

- ${LIMITS.read.limit} API requests a minute per address (search, ask, pages, batch, sandbox, MCP; a question is
  one); the HTML pages and \`.md\` files are free. On 429, wait \`Retry-After\` seconds.
- Answers may be cached for ${LIMITS.cacheSeconds / 60} minutes (ask answers never are). The full API
  description: [openapi.json](${origin}/openapi.json).
`;
}

export const sha256Digest = (body: string | Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;

/** The discovery index listing the skill, with the SHA-256 digest of the SKILL.md bytes. */
export function agentSkillsIndex(origin: string, skill: string) {
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [
      {
        name: SKILL_NAME,
        type: 'skill-md',
        description: SKILL_DESCRIPTION,
        url: origin + SKILL_PATH,
        digest: sha256Digest(skill),
      },
    ],
  };
}

/** Writes the index and the SKILL.md into the build output (called by the derive step). */
export async function writeAgentSkills(distDir: string, origin: string): Promise<void> {
  const skill = skillMarkdown(origin);
  const files = [
    [SKILL_PATH, skill],
    [fileOf(MACHINE_READABLE.agentSkills), `${JSON.stringify(agentSkillsIndex(origin, skill), null, 2)}\n`],
  ];
  for (const [path, body] of files) {
    await mkdir(dirname(join(distDir, path!)), { recursive: true });
    await writeFile(join(distDir, path!), body!);
  }
}
