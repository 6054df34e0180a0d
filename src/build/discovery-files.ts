/**
 * @module The discovery files written at build time: the MCP registry server.json at /.well-known/mcp.json,
 * the ARD manifest at /.well-known/ard.json, the RFC 9727 API catalog at /.well-known/api-catalog and the
 * lead sandbox description at /api/v1/sandbox. Pure: an origin in, a JSON-able object out.
 */
import { LIMITS, policyOf } from '../contract/limits.ts';
import { MACHINE_READABLE as FILES, fileOf, SERVER_CARD_TYPE } from '../contract/links.ts';
import { MCP_SERVER_NAME, MCP_TOOLS } from '../contract/mcp.ts';
import {
  DIALCODE_PATTERN,
  INTENTS,
  LEAD_FIELDS,
  LeadSchema,
  MOVES,
  SEGMENTS,
  WAREHOUSES,
  type LeadInput,
  type LeadValidation,
} from '../contract/schemas.ts';
import { twinUrlOfSlug, urlOfSlug } from '../contract/slugs.ts';
import { sandboxAnswer } from '../operations/validate-lead.ts';

/**
 * Where derive.ts writes each file in the build output: the machine-readable files list's (src/contract/links.ts),
 * whose rewrites serve the two without an extension at their public paths.
 */
export const DISCOVERY_PATHS = {
  mcp: fileOf(FILES.mcpManifest),
  ard: fileOf(FILES.ard),
  apiCatalog: fileOf(FILES.apiCatalog),
  sandbox: fileOf(FILES.sandboxInfo),
} as const;

export { MCP_TOOLS };

/** Publisher segment of every ARD identifier: a stable name, not the origin the build is for. */
const ARD_PUBLISHER = 'kartage.com.au';

/** server.json schema the manifest follows (modelcontextprotocol/registry, docs/reference/server-json). */
export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** /.well-known/mcp.json: the MCP server in MCP registry server.json format (schema 2025-12-11). */
export function mcpServerJson(origin: string, version: string) {
  return {
    $schema: SERVER_SCHEMA_URL,
    // Reverse DNS of kartage.com.au, one slash: the schema's pattern is ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$.
    name: MCP_SERVER_NAME,
    title: 'Kartage website',
    description: 'Search and read Kartage pages and pricing: software for moving and storage companies.',
    version,
    websiteUrl: urlOfSlug(origin, 'developers'),
    remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }],
    // server.json has no field for a server card; publisher-provided metadata is the schema's open slot.
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        serverCard: { url: `${origin}${FILES.serverCard.path}`, type: SERVER_CARD_TYPE },
      },
    },
  };
}

// Long on purpose: one literal that is the manifest as served, mostly data.
/** /.well-known/ard.json: the Agentic Resource Discovery manifest (ards-project/ard-spec, specVersion 1.0). */
export function ardJson(origin: string) {
  const id = (name: string) => `urn:air:${ARD_PUBLISHER}:site:${name}`;
  return {
    specVersion: '1.0',
    // The manifest schema (ai-catalog.schema.json, ard.cddl) makes host an object with a required displayName.
    host: { displayName: 'Kartage', documentationUrl: urlOfSlug(origin, 'developers') },
    entries: [
      {
        identifier: id('mcp'),
        displayName: 'Kartage website MCP server',
        // The MCP server card (SEP-2127 draft); the registry server.json is the next entry.
        type: SERVER_CARD_TYPE,
        url: `${origin}${FILES.serverCard.path}`,
        capabilities: [...MCP_TOOLS],
        representativeQueries: [
          'What does Kartage cost for a removalist with two warehouses?',
          'Does Kartage handle storage billing for a moving company?',
          'Which Kartage plan fits 2,000 moves a year?',
          'Find Kartage pages about crew apps and dispatch',
        ],
        description: `Public, read-only MCP server over Streamable HTTP at ${origin}/mcp, no authentication. Tools: ${MCP_TOOLS.join(', ')}.`,
      },
      {
        identifier: id('mcp-registry'),
        displayName: 'Kartage website MCP server (registry server.json)',
        // A registry server.json has no media type of its own: it is plain JSON (schema 2025-12-11).
        type: 'application/json',
        url: `${origin}${FILES.mcpManifest.path}`,
        representativeQueries: [
          'Install the Kartage MCP server from its registry manifest',
          'Which MCP transport and URL does the Kartage website use?',
        ],
        description:
          'The same MCP server in MCP registry server.json format (schema 2025-12-11): name, version ' +
          `and the streamable-http remote ${origin}/mcp.`,
      },
      {
        identifier: id('agent-skills'),
        displayName: 'Kartage agent skills',
        type: 'application/json',
        url: `${origin}${FILES.agentSkills.path}`,
        representativeQueries: [
          'How should an agent read the Kartage website?',
          'How do I book a Kartage demo for a user?',
        ],
        description:
          'Agent skills index: how to find content, read pages as markdown, check a lead in the sandbox ' +
          'and submit one only for a person who asked.',
      },
      {
        identifier: id('content-api'),
        displayName: 'Kartage content and lead API (OpenAPI)',
        type: 'application/openapi+json',
        url: `${origin}${FILES.openapiJson.path}`,
        representativeQueries: [
          'List every page on the Kartage website as JSON',
          'Search the Kartage website for storage billing',
          'Send an enquiry to Kartage on behalf of a user',
        ],
        description:
          'OpenAPI 3.1 description of the read-only content API (/api/v1), lead submission (/api/lead) and the lead sandbox. No authentication.',
      },
      {
        identifier: id('llms-txt'),
        displayName: 'Kartage llms.txt',
        // The media type the llms.txt project's well-known URI draft gives (AnswerDotAI/llms-txt, well-known-uri.md).
        type: 'text/markdown',
        url: `${origin}${FILES.llmsTxt.path}`,
        representativeQueries: [
          'What is Kartage and what does it do?',
          'Give me an index of the Kartage website in markdown',
        ],
        description: 'Site summary and an index of every page as markdown, plus the machine-readable files.',
      },
      {
        identifier: id('lead-sandbox'),
        displayName: 'Kartage lead validation sandbox',
        type: 'application/json',
        url: `${origin}${FILES.sandboxInfo.path}`,
        representativeQueries: [
          'Check a Kartage enquiry payload without sending it',
          'Which fields does a Kartage demo request need?',
        ],
        description: `Where the sandbox is (POST ${origin}/api/v1/lead/validate) and what it checks: the same validation as lead submission, writing nothing.`,
      },
    ],
  };
}

/** /.well-known/api-catalog: RFC 9727 API catalog as an RFC 9264 linkset (application/linkset+json). */
export function apiCatalog(origin: string) {
  const serviceDesc = [
    { href: `${origin}${FILES.openapiJson.path}`, type: 'application/openapi+json' },
    { href: `${origin}${FILES.openapiYaml.path}`, type: 'application/yaml' },
  ];
  const serviceDoc = [{ href: urlOfSlug(origin, 'developers'), type: 'text/html' }];
  // RFC 8631 service-meta: metadata about the service, here its usage policies.
  const serviceMeta = [
    { href: twinUrlOfSlug(origin, 'auth'), type: 'text/markdown', title: 'Authentication: none is needed' },
    { href: urlOfSlug(origin, 'api-deprecation-policy'), type: 'text/html', title: 'API deprecation policy' },
  ];
  return {
    linkset: [
      {
        anchor: `${origin}/api/v1`,
        'service-desc': serviceDesc,
        'service-doc': serviceDoc,
        'service-meta': serviceMeta,
      },
      {
        anchor: `${origin}/api/lead`,
        'service-desc': serviceDesc,
        'service-doc': serviceDoc,
        'service-meta': serviceMeta,
      },
      {
        anchor: `${origin}/mcp`,
        'service-desc': [
          { href: `${origin}${FILES.serverCard.path}`, type: SERVER_CARD_TYPE },
          { href: `${origin}${FILES.mcpManifest.path}`, type: 'application/json' },
        ],
        'service-doc': serviceDoc,
        'service-meta': serviceMeta,
      },
    ],
  };
}

const F = LIMITS.lead_fields;
/** The contract's defaults, read from the schema rather than retyped. */
const DEFAULTS = {
  dialcode: LeadSchema.shape.dialcode.parse(undefined),
  intent: LeadSchema.shape.intent.parse(undefined),
};
const TRUNCATED = (Object.keys(F) as (keyof typeof F)[]).filter((f) => f !== 'email');
const EXAMPLE = (LeadSchema.meta() as { examples: LeadInput[] }).examples[0]!;

// Long on purpose: one literal that is the sandbox description as served, mostly data.
/** GET /api/v1/sandbox: where the lead sandbox is, what it checks, what it answers, with examples. */
export function sandboxInfo(origin: string) {
  // The answers are the sandbox's own, run on the example payloads: the texts cannot drift from the validation.
  const changedRequest = { ...EXAMPLE, dialcode: '61', segment: 'Removals' };
  const clean = sandboxAnswer(EXAMPLE, null);
  const changed = sandboxAnswer(changedRequest, null);
  return {
    sandbox: {
      method: 'POST',
      url: `${origin}/api/v1/lead/validate`,
      operationId: 'validateLead',
      contentType: 'application/json',
    },
    summary: `Checks a lead payload with the same validation as POST ${origin}/api/lead, including payloads that would be rejected or silently truncated. It writes nothing (no CRM record), sends nothing (no email or notification) and spends no lead budget.`,
    submitLead: {
      method: 'POST',
      url: `${origin}/api/lead`,
      use: 'Only on behalf of a person who asked to contact Kartage, with their own details. Never to test: use the sandbox.',
    },
    authentication: 'None. No key, token or signup; an Authorization header is ignored.',
    fields: {
      required: ['name', 'email'],
      optional: LEAD_FIELDS.filter((f) => f !== 'name' && f !== 'email'),
      maxLength: F,
      enums: { intent: INTENTS, segment: SEGMENTS, warehouses: WAREHOUSES, moves: MOVES },
      patterns: { dialcode: DIALCODE_PATTERN.source },
      defaults: DEFAULTS,
    },
    outcomes: {
      reject: {
        effect: 'Submission answers 400 and records nothing. The sandbox answers 422 with wouldSubmit false.',
        when: [
          'name missing or blank',
          `email missing, not a valid address, or over ${F.email} characters (an address is never cut)`,
        ],
      },
      truncate: {
        effect:
          'Submission stores the value cut to its maximum length, and any text field without its text-direction ' +
          'controls and zero-width characters. The sandbox answers 422 with wouldSubmit true.',
        when: TRUNCATED.map((field) => ({ field, maxLength: F[field] })),
      },
      drop: {
        effect:
          'Submission ignores the value and applies the default, if there is one. The sandbox answers 422 with wouldSubmit true.',
        when: [
          `dialcode not matching ${DIALCODE_PATTERN.source} (default ${DEFAULTS.dialcode})`,
          `intent not one of ${INTENTS.join(', ')} (default ${DEFAULTS.intent})`,
          'segment, warehouses or moves not one of their values',
          'any field the Lead schema does not define',
        ],
      },
    },
    responses: {
      200: 'LeadValidation with sandbox true, wouldSubmit true and empty problems: submission would accept the payload unchanged.',
      400: 'Error: the body is not JSON, or not a JSON object.',
      413: `Error: the body is larger than ${LIMITS.leadBodyBytes} bytes.`,
      422: 'LeadValidation listing every problem as {field, error}; wouldSubmit is false only when a problem would make submission reject the payload. Nothing was created.',
      429: 'Error: this IP spent its read budget; wait Retry-After seconds.',
    },
    rateLimit: {
      counts: 'as a read',
      limit: LIMITS.read.limit,
      windowSeconds: LIMITS.read.windowSeconds,
      policy: policyOf(LIMITS.read),
      headers: [
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Retry-After (on 429)',
      ],
      leadBudget: `Not spent: lead submission allows ${LIMITS.lead.limit} per IP per hour, and the sandbox uses none of it.`,
    },
    examples: [
      {
        title: 'A payload submission would accept unchanged',
        request: EXAMPLE,
        response: { status: clean.status, body: clean.body as LeadValidation },
      },
      {
        title: 'A payload submission would accept after dropping two values',
        request: changedRequest,
        response: { status: changed.status, body: changed.body as LeadValidation },
      },
    ],
    errorText: 'The wording of `error` strings may change; match on `field` and on `wouldSubmit`.',
    docs: {
      openapi: `${origin}${FILES.openapiJson.path}`,
      developers: urlOfSlug(origin, 'developers'),
      authentication: twinUrlOfSlug(origin, 'auth'),
    },
  };
}
