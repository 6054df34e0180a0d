/**
 * @module The endpoints as the docs list them, generated from the operation list (src/operations/index.ts): the
 * developers page's endpoint table (a marker in its markdown, replaced when Astro renders it, so the page and its
 * `.md` twin both show it) and the agent skill's endpoint list (src/build/agent-skills.ts). A new public
 * operation appears in both without an edit; its summary and 200 description are what they say of it.
 */
import type { z } from 'zod';
import type { Operation } from '../http/operation.ts';
import { operations } from '../operations/index.ts';

/** A public operation as the docs show it. */
export interface Endpoint {
  id: string;
  method: string;
  /** As the contract writes it (`{slug}` for a parameter). */
  path: string;
  /** The query parameters a request must carry. */
  query: string[];
  /** The path with its required query parameters (`/api/v1/search?q=`). */
  request: string;
  tag: Operation['tag'];
  /** What it does (the operation's summary). */
  summary: string;
  /** What a 200 answers (its description). */
  returns: string;
}

/** The query parameters a request must carry: those the query schema refuses to leave out. */
function requiredQuery(op: Operation): string[] {
  const shape = (op.query as z.ZodObject | undefined)?.shape ?? {};
  return Object.keys(shape).filter((name) => !shape[name]!.safeParse(undefined).success);
}

/** The public operations (those in the OpenAPI document), in the operation list's order. */
export function endpoints(ops: readonly Operation[] = operations): Endpoint[] {
  return ops
    .filter((op) => op.public)
    .map((op) => {
      const query = requiredQuery(op);
      return {
        id: op.id,
        method: op.method,
        path: op.path,
        query,
        request: query.length ? `${op.path}?${query.map((q) => `${q}=`).join('&')}` : op.path,
        tag: op.tag,
        summary: op.summary,
        returns: op.responses[200].description,
      };
    });
}

/** A text as one table cell: one line, no trailing full stop, pipes escaped. */
const cell = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/\.$/, '').replaceAll('|', '\\|');

/** The markdown table of the public operations of a tag: what each does, its request and what it returns. */
export function endpointTable(tag: Operation['tag'], ops: readonly Operation[] = operations): string {
  const rows = endpoints(ops).filter((e) => e.tag === tag);
  if (!rows.length) throw new Error(`no public operation has the tag ${tag}`);
  return [
    '| Operation | Request | Returns |',
    '|---|---|---|',
    ...rows.map((e) => `| ${cell(e.summary)} | \`${e.method} ${e.request}\` | ${cell(e.returns)} |`),
  ].join('\n');
}

/** The marker a page's markdown holds where the endpoint table of a tag goes: `<!-- endpoint-table Content -->`. */
export const ENDPOINT_TABLE_MARKER = /^<!--\s*endpoint-table\s+(\w+)\s*-->$/;

/** The tags the operation type allows, for the marker's check. */
const TAGS: readonly Operation['tag'][] = ['Content', 'Leads', 'MCP', 'Internal'];

/**
 * An mdast plugin of the Sätteri processor (Astro's markdown) that replaces each marker with its table.
 * `tables` carries the tables themselves: Astro keeps rendered entries in its data store until its config
 * changes, and the plugin's data is part of that config, so a changed operation renders the page again.
 */
export function endpointTablePlugin(ops: readonly Operation[] = operations) {
  const tables = Object.fromEntries(
    TAGS.filter((tag) => endpoints(ops).some((e) => e.tag === tag)).map((tag) => [tag, endpointTable(tag, ops)]),
  );
  return {
    name: 'kartage-endpoint-table',
    tables,
    html(node: { value: string }) {
      const tag = ENDPOINT_TABLE_MARKER.exec(node.value.trim())?.[1];
      if (tag === undefined) return undefined;
      const table = tables[tag];
      if (!table) throw new Error(`<!-- endpoint-table ${tag} -->: no public operation has the tag ${tag}`);
      return { raw: `${table}\n` };
    },
  };
}
