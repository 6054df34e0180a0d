/**
 * @module A schema.org checker for JSON-LD: every `@type` must be a class of the vocabulary, every property
 * must apply to the node's type (its domainIncludes holds the type or one of its ancestors) and not be
 * superseded, and every value must fit the property's expected types (rangeIncludes). The vocabulary is
 * tests/data/schemaorg-vocabulary.json (schema.org release 30.0; see tests/helpers/schemaorg-vocabulary.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface Vocabulary {
  source: string;
  release: string;
  classes: Record<string, string[]>;
  properties: Record<string, { domains: string[]; ranges: string[]; supersededBy?: string }>;
}

export const vocabulary: Vocabulary = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../data/schemaorg-vocabulary.json'), 'utf8'),
);

/** A class and all its superclasses. */
export function ancestors(type: string): Set<string> {
  const out = new Set<string>();
  const walk = (t: string) => {
    if (out.has(t)) return;
    out.add(t);
    for (const s of vocabulary.classes[t] ?? []) walk(s);
  };
  walk(type);
  return out;
}

/** ISO 8601 calendar date, at year, month or day precision, with an optional time. */
const ISO_DATE = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
const typesOf = (node: Record<string, unknown>) => ([] as unknown[]).concat(node['@type'] ?? []) as string[];

/** Whether a literal fits one of the expected types (schema.org's data types: Text, URL, Number, Date…). */
function literalFits(value: unknown, ranges: string[]): boolean {
  const expected = new Set(ranges.flatMap((r) => [...ancestors(r)]));
  if (typeof value === 'boolean') return expected.has('Boolean');
  if (typeof value === 'number') return expected.has('Number') || expected.has('Text');
  if (typeof value !== 'string') return false;
  if (expected.has('Text')) return true;
  if ((expected.has('Date') || expected.has('DateTime')) && ISO_DATE.test(value)) return true;
  // schema.org's data model: where a thing is expected, a URL that identifies it will do (Google's
  // BreadcrumbList examples give ListItem.item that way).
  return /^https?:\/\//.test(value) && (expected.has('URL') || expected.has('Thing'));
}

/** Every problem of a JSON-LD value, each prefixed with the JSON path where it sits. */
export function schemaProblems(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => schemaProblems(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  if (Array.isArray(node['@graph'])) return schemaProblems(node['@graph'], `${path}.@graph`);
  const types = typesOf(node);
  // A bare reference ({"@id": …}) points at a node described elsewhere.
  if (!types.length) return Object.keys(node).every((k) => k === '@id') ? [] : [`${path}: node without @type`];
  const problems: string[] = [];
  const unknown = types.filter((t) => !(t in vocabulary.classes));
  if (unknown.length) return [`${path}: ${unknown.join(', ')} is not a schema.org ${vocabulary.release} type`];
  const lineage = new Set(types.flatMap((t) => [...ancestors(t)]));
  for (const [key, v] of Object.entries(node)) {
    if (key.startsWith('@')) continue;
    // Potential Actions annotations (schema.org/docs/actions.html): `<property>-input` on an Action.
    const annotation = key.match(/^(.+)-(input|output)$/);
    const name = annotation && lineage.has('Action') ? annotation[1]! : key;
    const prop = vocabulary.properties[name];
    if (!prop) {
      problems.push(`${path}.${key}: no schema.org property of that name`);
      continue;
    }
    if (!prop.domains.some((d) => lineage.has(d)))
      problems.push(`${path}.${key}: not a property of ${types.join('/')}`);
    if (prop.supersededBy) problems.push(`${path}.${key}: superseded by ${prop.supersededBy}`);
    if (annotation && name !== key) {
      if (typeof v !== 'string') problems.push(`${path}.${key}: an annotation is a string`);
      continue;
    }
    for (const [i, item] of ([] as unknown[]).concat(v).entries()) {
      const at = Array.isArray(v) ? `${path}.${key}[${i}]` : `${path}.${key}`;
      if (item && typeof item === 'object') {
        const itemTypes = typesOf(item as Record<string, unknown>);
        const fits = !itemTypes.length || itemTypes.some((t) => prop.ranges.some((r) => ancestors(t).has(r)));
        if (!fits) problems.push(`${at}: ${itemTypes.join('/')} is not one of ${prop.ranges.join(', ')}`);
        problems.push(...schemaProblems(item, at));
      } else if (!literalFits(item, prop.ranges)) {
        problems.push(`${at}: ${JSON.stringify(item)} is not one of ${prop.ranges.join(', ')}`);
      }
    }
  }
  return problems;
}

/** Every node of a JSON-LD document (the top level, @graph members and nested nodes), depth first. */
export function allNodes(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(allNodes);
  if (!value || typeof value !== 'object') return [];
  const node = value as Record<string, unknown>;
  return [
    node,
    ...Object.entries(node)
      .filter(([k]) => k !== '@context')
      .flatMap(([, v]) => allNodes(v)),
  ];
}

/** The nodes of a document whose @type is `type` (fields typed loosely: tests read them freely). */
export const nodesOfType = (doc: unknown, type: string): Record<string, any>[] =>
  allNodes(doc).filter((n) => typesOf(n).includes(type));
