/**
 * Every operation that names an MCP tool (`mcp:` in src/operations/, docs/add-an-operation.md) is offered by
 * that tool with the same limits: each query parameter of the operation is an argument of the tool (under the
 * tool's `restNames` when it names it otherwise) with the same length and range bounds, and each path parameter
 * is an argument too. Derived from the operation list: a new operation declaring `mcp:` is checked here as is.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOLS } from '../../src/mcp/tools.ts';
import { operations } from '../../src/operations/index.ts';

type Properties = Record<string, Record<string, unknown>>;
const propertiesOf = (schema: z.ZodType | undefined): Properties =>
  schema ? ((z.toJSONSchema(schema, { io: 'input' }) as { properties?: Properties }).properties ?? {}) : {};
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
/** The bounds a JSON Schema property sets (absent ones left out, so a failure shows what differs). */
const boundsOf = (p: Record<string, unknown> | undefined) =>
  Object.fromEntries(BOUNDS.flatMap((k) => (p?.[k] === undefined ? [] : [[k, p[k]]])));

const mirrored = operations.filter((op) => op.mcp);

describe('MCP tools mirror their operations', () => {
  it('each operation naming a tool names one the server offers, and no tool mirrors two operations', () => {
    expect(mirrored.length).toBeGreaterThan(0);
    const names = mirrored.map((op) => op.mcp);
    expect(new Set(names).size, names.join(', ')).toBe(names.length);
    for (const op of mirrored)
      expect(
        TOOLS.map((t) => t.name),
        op.id,
      ).toContain(op.mcp);
  });

  it.each(mirrored.map((op) => [op.id, op] as const))(
    '%s: its tool takes its parameters, with the same limits',
    (_, op) => {
      const tool = TOOLS.find((t) => t.name === op.mcp)!;
      const args = propertiesOf(tool.input);
      const renamed = Object.entries(tool.restNames ?? {});
      const argOf = (name: string) => renamed.find(([, rest]) => rest === name)?.[0] ?? name;
      const query = propertiesOf(op.query);
      const params = propertiesOf(op.params);
      for (const [arg, rest] of renamed) {
        expect(args, `${tool.name} restNames`).toHaveProperty(arg);
        expect({ ...query, ...params }, `${tool.name} restNames`).toHaveProperty(rest!);
      }
      for (const [name, schema] of Object.entries(query)) {
        const arg = args[argOf(name)];
        expect(arg, `${op.id} query ${name}: no argument ${argOf(name)} of ${tool.name}`).toBeDefined();
        expect(boundsOf(arg), `${op.id} query ${name}`).toEqual(boundsOf(schema));
      }
      for (const name of Object.keys(params))
        expect(args[argOf(name)], `${op.id} path ${name}: no argument ${argOf(name)} of ${tool.name}`).toBeDefined();
    },
  );
});
