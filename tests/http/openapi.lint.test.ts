/**
 * The published OpenAPI document (dist/openapi.json, from the build) passes two real linters with no
 * error: Spectral with its `spectral:oas` ruleset (.spectral.yaml) and Redocly with `recommended-strict`
 * (redocly.yaml; the by-design exceptions are in .redocly.lint-ignore.yaml). Every example in it is
 * valid against its schema, and the schemas carry no `$id` and no safe-integer bounds.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PROJECT_ROOT } from '../../server/main.ts';

const DOC = join(PROJECT_ROOT, 'dist', 'openapi.json');
const bin = (name: string) => join(PROJECT_ROOT, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[]) =>
  spawnSync(bin(cmd), args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000 });

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(DOC, 'utf8')) as Json;

describe('dist/openapi.json under real linters', () => {
  it('Spectral (spectral:oas) reports no error', () => {
    const r = run('spectral', ['lint', 'dist/openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json']);
    type Problem = { code: string; severity: number; message: string; path: string[] };
    const problems = JSON.parse(r.stdout || '[]') as Problem[];
    // Severity 0 is an error; warnings (1) and below do not fail the lint.
    const errors = problems.filter((p) => p.severity === 0);
    expect(errors.map((p) => `${p.code} at ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    expect(problems.length, r.stderr).toBeGreaterThanOrEqual(0);
  });

  it('Redocly (recommended-strict) reports no error', () => {
    const r = run('redocly', ['lint', 'dist/openapi.json', '--format', 'json']);
    type Report = { totals: { errors: number }; problems: { ruleId: string; message: string }[] };
    const out = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Report;
    expect(out.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(out.totals.errors).toBe(0);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('schemas and examples', () => {
  it('no component schema has an $id, and no schema has zod safe-integer bounds', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$id"');
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(doc.info.license?.name).toBeTruthy();
  });

  it('every example is valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const base = 'https://kartage.test/openapi.json';
    ajv.addSchema({ $id: base, components: { schemas: doc.components.schemas } });
    // Refs inside the document (`#/components/...`) made absolute, so ajv resolves them in the added copy.
    const absolute = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(absolute);
      if (!node || typeof node !== 'object') return node;
      const local = (k: string, v: unknown) => k === '$ref' && typeof v === 'string' && v.startsWith('#');
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, local(k, v) ? base + v : absolute(v)]));
    };
    const checked: string[] = [];
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = ajv.compile(absolute(schema) as Json);
      expect(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked.push(where);
    };
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        for (const p of (op.parameters ?? []) as Json[]) {
          if (p.example !== undefined) check(`${method} ${path} parameter ${p.name}`, p.schema, p.example);
        }
        const responses = Object.entries((op.responses ?? {}) as Json).map(([s, r]) => [s, (r as Json).content ?? {}]);
        const bodies = [['request', op.requestBody?.content ?? {}], ...responses] as [string, Record<string, Json>][];
        for (const [status, content] of bodies) {
          for (const [type, media] of Object.entries(content)) {
            if (media.example !== undefined) check(`${method} ${path} ${status} ${type}`, media.schema, media.example);
          }
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
