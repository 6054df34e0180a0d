/**
 * @module Builds the OpenAPI 3.1 document from the operation objects (src/operations/) and the zod
 * schemas: paths, parameters, bodies, responses and examples all come from each operation's declaration.
 * Written at build time to /openapi.json and /openapi.yaml. zod's JSON Schema output is draft 2020-12,
 * which OpenAPI 3.1 uses.
 */
import { z } from 'zod';
import { COMPANY } from '../contract/company.ts';
import { LIMITS } from '../contract/limits.ts';
import { ErrorSchema } from '../contract/schemas.ts';
import type { Operation, ResponseSpec } from './operation.ts';
import { notAllowedText } from './answers.ts';

export const API_VERSION = '1.0.0';

const isZodSchema = (s: unknown): s is z.ZodType => !!s && typeof s === 'object' && '_zod' in s;

/**
 * The named components: every zod schema an operation declares (query, body, responses), and every schema inside
 * them, that carries `.meta({ id })`. Derived, so a new named schema is a component without a list to edit.
 */
function namedSchemas(ops: readonly Operation[]): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const seen = new Set<unknown>();
  const visit = (s: unknown) => {
    if (!isZodSchema(s) || seen.has(s)) return;
    seen.add(s);
    const id = (s.meta() as { id?: string } | undefined)?.id;
    if (id) registry.add(s, { id });
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    const shape = def.shape as Record<string, unknown> | undefined;
    if (shape) for (const v of Object.values(shape)) visit(v);
    for (const k of ['element', 'innerType', 'in', 'out', 'left', 'right', 'valueType', 'keyType', 'catchall'])
      visit(def[k]);
    for (const o of (def.options as unknown[] | undefined) ?? []) visit(o);
  };
  visit(ErrorSchema);
  for (const op of ops) {
    visit(op.query);
    visit(op.body?.schema);
    visit(op.body?.doc);
    for (const r of Object.values(op.responses ?? {})) visit((r as ResponseSpec | undefined)?.schema);
  }
  return registry;
}

type Json = Record<string, unknown>;
/** A contract schema by reference when it is a named component, else written out in place. */
function ref(s: z.ZodType): Json {
  const id = (s.meta() as { id?: string } | undefined)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  const inline = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Json;
  publishable(inline);
  return inline;
}
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The schema of a JSON request body in its input form: a field with a default is optional to the sender. A named
 * schema with such a field is written as the object over its component's fields, each by reference, since
 * generators read a default in a component as a value always present (openapi-typescript makes the field required).
 */
function inputRef(s: z.ZodType, components: Record<string, Json>): Json {
  const id = (s.meta() as { id?: string } | undefined)?.id;
  const component = id ? components[id] : undefined;
  const fields = Object.entries((component?.properties ?? {}) as Record<string, Json>);
  if (!component || !fields.some(([, f]) => f.default !== undefined)) return ref(s);
  const field = (name: string) => ({ $ref: `#/components/schemas/${id}/properties/${name}` });
  return {
    type: 'object',
    ...(component.description ? { description: component.description } : {}),
    properties: Object.fromEntries(fields.map(([name]) => [name, field(name)])),
    ...(component.required ? { required: component.required } : {}),
  };
}

const perWindow = (l: { limit: number; windowSeconds: number }, unit: string) => {
  const window = l.windowSeconds === 60 ? 'minute' : l.windowSeconds === 3600 ? 'hour' : `${l.windowSeconds} seconds`;
  return `${l.limit} ${unit} per ${window}`;
};

/** zod's bounds of a safe integer (+-(2^53 - 1)): true of every JSON number a client sends, so noise. */
const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * A zod JSON Schema made fit to publish, in place: no `$schema` and no `$id` (the `uri` option names each
 * component `#/components/schemas/X` for its `$ref`s; as an `$id` that is illegal, a URI with a fragment),
 * and no safe-integer bounds.
 */
function publishable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) publishable(n);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  delete o.$schema;
  delete o.$id;
  if (o.minimum === -SAFE_BOUND) delete o.minimum;
  if (o.maximum === SAFE_BOUND) delete o.maximum;
  for (const v of Object.values(o)) publishable(v);
}

/** Parameters from a zod object, one OpenAPI parameter per key. */
function params(schema: z.ZodObject, where: 'query' | 'path'): Json[] {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(js.properties).map(([name, s]) => {
    const { description, example, examples, ...rest } = s as Json;
    if (rest.type === 'integer') delete rest.pattern; // how a query integer is parsed, not part of its type
    publishable(rest);
    const dflt = (schema.shape[name] as z.ZodType).safeParse(undefined);
    if (dflt.success && dflt.data !== undefined) rest.default = dflt.data;
    const sample = example ?? (Array.isArray(examples) ? examples[0] : undefined);
    return {
      name,
      in: where,
      required: where === 'path' || (js.required?.includes(name) ?? false),
      description,
      schema: rest,
      ...(sample ? { example: sample } : {}),
    };
  });
}

/** A response of an operation as OpenAPI writes it. */
function responseDoc(r: ResponseSpec): Json {
  const content: Json = {};
  if (r.schema) {
    const schema = isZodSchema(r.schema) ? ref(r.schema) : r.schema;
    content['application/json'] = { schema, ...(r.example !== undefined ? { example: r.example } : {}) };
  }
  for (const type of r.also ?? []) content[type] = { schema: { type: 'string' } };
  return {
    description: r.description,
    ...(r.headers?.length ? { headers: Object.fromEntries(r.headers.map((h) => [h, hdr(h)])) } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** One operation's entry under its path; `components` are the document's named schemas. */
function operationDoc(op: Operation, components: Record<string, Json>): Json {
  const parameters = [
    ...(op.params ? params(op.params, 'path') : []),
    ...(op.query ? params(op.query as z.ZodObject, 'query') : []),
    ...(op.headerParams ?? []).map((h) => ({ ...h, in: 'header', required: false })),
  ];
  let requestBody: Json | undefined;
  if (op.body) {
    const body = op.body.doc ?? op.body.schema;
    const example = op.body.example !== undefined ? { example: op.body.example } : {};
    requestBody = {
      required: true,
      content: {
        'application/json': { schema: inputRef(body, components), ...example },
        // The site's own form posts it (no generated client does): it names the component itself.
        ...(op.body.form ? { 'application/x-www-form-urlencoded': { schema: ref(body) } } : {}),
      },
    };
  } else if (op.ownBody) {
    requestBody = { required: true, content: { 'application/json': op.ownBody } };
  }
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    security: [],
    ...(op.deprecated ? { deprecated: true } : {}),
    description: op.description,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, responseDoc(r)])),
  };
}

/** The 405 of a method an operation's path always refuses. */
const refusedDoc = (op: Operation, r: NonNullable<Operation['refuses']>[number]): Json => ({
  operationId: r.id,
  summary: r.summary,
  tags: [op.tag],
  security: [],
  description: r.description,
  responses: {
    405: responseDoc({
      description: r.description.replace(/^Always 405: /, ''),
      schema: ErrorSchema,
      example: { error: notAllowedText(op), status: 405 },
    }),
  },
});

/** The OpenAPI 3.1 document for the site at `origin`, of the operations `ops` (src/operations/index.ts's list). */
export function buildOpenApi(origin: string, ops: readonly Operation[]): Json {
  const { schemas } = z.toJSONSchema(namedSchemas(ops), {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'input',
    unrepresentable: 'any',
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) publishable(s);
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    if (!op.public) continue;
    const path = (paths[op.path] ??= {});
    path[op.method.toLowerCase()] = operationDoc(op, schemas);
    for (const r of op.refuses ?? []) path[r.method.toLowerCase()] = refusedDoc(op, r);
  }
  const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kartage public site content and lead API',
      version: API_VERSION,
      summary: 'Read-only content of kartage.com.au, lead submission, a lead sandbox and an MCP server.',
      description: `Public and unauthenticated: no signup, key or token; an Authorization header is ignored. Reads: ${perWindow(LIMITS.read, 'requests')} per IP. Lead submission: ${perWindow(LIMITS.lead, 'leads')} per IP. Every page is also markdown (append \`.md\`, or send \`Accept: text/markdown\`). The authenticated tenant API on api.kartage.com.au is a separate system.`,
      contact: { name: COMPANY.name, email: COMPANY.supportEmail, url: `${origin}/developers` },
      // The content is Kartage's own, usable under the site's terms (no open licence).
      license: { name: 'Kartage website terms of use', url: `${origin}/terms` },
    },
    servers: [{ url: origin }],
    externalDocs: { description: 'Developer guide', url: `${origin}/developers` },
    tags: [
      { name: 'Content', description: 'Read-only site content.' },
      { name: 'Leads', description: 'Enquiries and demo bookings.' },
      { name: 'MCP', description: 'Model Context Protocol endpoint.' },
    ],
    security: [],
    paths,
    components: {
      schemas,
      headers: {
        'RateLimit-Limit': { ...int('Requests allowed in the window.'), required: true },
        'RateLimit-Remaining': { ...int('Requests left in the window.'), required: true },
        'RateLimit-Reset': {
          ...int('Seconds until the window resets (for leads: until a slot frees).'),
          required: true,
        },
        'RateLimit-Policy': {
          description: 'Quota and window in seconds, e.g. `120;w=60` or `5;w=3600`.',
          required: true,
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait before retrying.',
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
        'Idempotency-Replayed': {
          description: '`true` when this response replays an earlier one with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        Vary: { description: 'Responses vary by `Accept`.', schema: { type: 'string' } },
        ETag: { description: 'Strong validator of the representation.', schema: { type: 'string' } },
        'Cache-Control': {
          description: `Reads may be cached for ${LIMITS.cacheSeconds / 60} minutes, by the client only (private).`,
          schema: { type: 'string' },
        },
      },
    },
  };
}
