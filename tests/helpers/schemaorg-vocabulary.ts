/**
 * @module Writes tests/data/schemaorg-vocabulary.json, the compact schema.org vocabulary the JSON-LD test
 * checks against: every class with its direct superclasses, every property with the classes it applies to
 * (domainIncludes), its expected value types (rangeIncludes) and whether it is superseded.
 *
 * Source: schema.org release 30.0, `data/releases/30.0/schemaorg-current-https.jsonld` in
 * github.com/schemaorg/schemaorg (the "current" vocabulary: core and pending, no attic).
 * Usage: node tests/helpers/schemaorg-vocabulary.ts <path to schemaorg-current-https.jsonld>
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Ref = { '@id': string };
type Node = Record<string, unknown> & { '@id': string; '@type': string | string[] };

const RELEASE = '30.0';
const list = (v: unknown): Ref[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]) as Ref[];
const name = (r: Ref) => r['@id'].replace(/^schema:/, '');

const [input] = process.argv.slice(2);
if (!input) throw new Error('usage: node tests/helpers/schemaorg-vocabulary.ts <schemaorg-current-https.jsonld>');
const raw = readFileSync(input);
const graph = (JSON.parse(raw.toString('utf8')) as { '@graph': Node[] })['@graph'];

const classes: Record<string, string[]> = {};
const properties: Record<string, { domains: string[]; ranges: string[]; supersededBy?: string }> = {};
for (const node of graph) {
  if (!node['@id'].startsWith('schema:')) continue;
  const types = ([] as string[]).concat(node['@type']);
  if (types.includes('rdfs:Class'))
    classes[name(node)] = list(node['rdfs:subClassOf'])
      .filter((r) => r['@id'].startsWith('schema:'))
      .map(name);
  if (types.includes('rdf:Property')) {
    const superseded = list(node['schema:supersededBy'])[0];
    properties[name(node)] = {
      domains: list(node['schema:domainIncludes']).map(name),
      ranges: list(node['schema:rangeIncludes']).map(name),
      ...(superseded ? { supersededBy: name(superseded) } : {}),
    };
  }
}
const out = {
  source: `https://github.com/schemaorg/schemaorg/blob/main/data/releases/${RELEASE}/schemaorg-current-https.jsonld`,
  release: RELEASE,
  sha256: createHash('sha256').update(raw).digest('hex'),
  classes,
  properties,
};
writeFileSync(resolve(import.meta.dirname, '../data/schemaorg-vocabulary.json'), `${JSON.stringify(out)}\n`);
console.log(`${Object.keys(classes).length} classes, ${Object.keys(properties).length} properties`);
