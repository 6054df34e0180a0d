/**
 * @module zod -> JSON Schema for MCP tool definitions, without the noise an agent pays for in every
 * `tools/list`: no `$schema`, no +-2^53 bounds on plain integers, no regex beside a `format` (zod's
 * 300-character date pattern), no `$defs`/`$ref` indirection (the contract's named schemas are inlined),
 * no examples; output schemas also without `additionalProperties: false`, bounds and defaults.
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;
/** Bounds and defaults of values the server produces: true, but nothing an agent needs to read them. */
const OUTPUT_NOISE = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'default',
]);

function clean(node: unknown, defs: Record<string, unknown>, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => clean(n, defs, output));
  if (!node || typeof node !== 'object') return node;
  const src = node as Json;
  if (typeof src.$ref === 'string' && src.$ref.startsWith('#/$defs/')) {
    const { $ref, ...rest } = src;
    return clean({ ...(defs[$ref.slice('#/$defs/'.length)] as Json), ...rest }, defs, output);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === '$schema' || k === '$defs' || k === 'examples' || k === 'example' || k === 'id') continue;
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    if (k === 'pattern' && 'format' in src) continue;
    if (output && ((k === 'additionalProperties' && v === false) || OUTPUT_NOISE.has(k))) continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, clean(s, defs, output)]))
        : clean(v, defs, output);
  }
  return out;
}

/** The JSON Schema of a tool's input (`io: 'input'`: defaults make fields optional) or output. */
export function toolJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return clean(raw, (raw.$defs as Record<string, unknown>) ?? {}, io === 'output') as { type: 'object' };
}
