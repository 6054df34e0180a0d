/**
 * @module The endpoint docs generated from the operation list (src/build/endpoints.ts): the developers page's
 * table, as the marker in its markdown becomes on the rendered page and in its `.md` twin, and the agent skill's
 * endpoint list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointList } from '../../src/build/agent-skills.ts';
import { ENDPOINT_TABLE_MARKER, endpoints, endpointTable, endpointTablePlugin } from '../../src/build/endpoints.ts';
import { defineOperation } from '../../src/http/operation.ts';
import { operations } from '../../src/operations/index.ts';
import { htmlFileOfSlug, twinPathOfSlug } from '../../src/contract/slugs.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const publicOps = operations.filter((op) => op.public);
const contentOps = publicOps.filter((op) => op.tag === 'Content');

describe('the endpoints', () => {
  it('are the public operations, in the list order, with their required query parameters', () => {
    expect(endpoints().map((e) => e.id)).toEqual(publicOps.map((op) => op.id));
    expect(endpoints().find((e) => e.id === 'searchSite')).toMatchObject({
      request: '/api/v1/search?q=',
      query: ['q'],
    });
    expect(endpoints().find((e) => e.id === 'listPages')).toMatchObject({ request: '/api/v1/pages', query: [] });
    expect(endpoints().some((e) => e.id === 'leadsFlush')).toBe(false);
  });

  it('a new public operation is in the table of its tag', () => {
    const extra = defineOperation({
      id: 'getPricing',
      method: 'GET',
      path: '/api/v1/pricing',
      summary: 'Plans | add-ons.',
      description: 'The plans.',
      tag: 'Content',
      serve: { function: 'v1/pricing' },
      responses: { 200: { description: 'The pricing data.' } },
      meter: 'none',
      cache: 'static',
      cors: true,
      data: [],
      public: true,
      handler: () => ({ status: 200, body: {} }),
    });
    const table = endpointTable('Content', [...operations, extra]);
    expect(table.split('\n').at(-1)).toBe('| Plans \\| add-ons | `GET /api/v1/pricing` | The pricing data |');
  });
});

describe("the developers page's endpoint table", () => {
  const table = endpointTable('Content');

  it('has a row per public content operation: what it does, its request, what it returns', () => {
    const rows = table.split('\n');
    expect(rows.slice(0, 2)).toEqual(['| Operation | Request | Returns |', '|---|---|---|']);
    expect(rows.slice(2)).toHaveLength(contentOps.length);
    contentOps.forEach((op, i) => {
      expect(rows[i + 2], op.id).toContain(`\`${op.method} ${op.path}`);
      expect(rows[i + 2], op.id).toContain(op.responses[200].description.replace(/\.$/, ''));
    });
    expect(table).toContain('`GET /api/v1/search?q=`');
  });

  it('replaces its marker when Astro renders markdown, and leaves other HTML alone', () => {
    const plugin = endpointTablePlugin();
    expect(plugin.html({ value: '<!-- endpoint-table Content -->\n' })).toEqual({ raw: `${table}\n` });
    expect(plugin.html({ value: '<!-- a comment -->' })).toBeUndefined();
    expect(plugin.html({ value: '<div>endpoint-table Content</div>' })).toBeUndefined();
    expect(() => plugin.html({ value: '<!-- endpoint-table Nope -->' })).toThrow(/no public operation has the tag/);
    // Its tables ride in Astro's config, so a changed operation clears Astro's cache of rendered entries.
    expect(JSON.parse(JSON.stringify(plugin)).tables.Content).toBe(table);
  });

  it('is on the built page and in its twin, and the markdown source holds only the marker', () => {
    const source = readFileSync(join(PROJECT_ROOT, 'content', 'pages', 'developers.md'), 'utf8');
    const markers = source.split('\n').filter((l) => ENDPOINT_TABLE_MARKER.test(l));
    expect(markers).toEqual(['<!-- endpoint-table Content -->']);
    expect(source).not.toContain('| Operation |');
    const html = readFileSync(join(PROJECT_ROOT, 'dist', htmlFileOfSlug('developers')), 'utf8');
    const twin = readFileSync(join(PROJECT_ROOT, 'dist', twinPathOfSlug('developers')), 'utf8');
    for (const op of contentOps) {
      const request = endpoints().find((e) => e.id === op.id)!.request;
      const escaped = request.replace(/[?]/g, '\\$&');
      expect(html, op.id).toMatch(new RegExp(`<td><code>${op.method} ${escaped}</code></td>`));
      expect(twin, op.id).toMatch(new RegExp(`\\| \`${op.method} ${escaped}\` +\\|`));
    }
    expect(twin).not.toContain('endpoint-table');
  });
});

describe("the agent skill's endpoint list", () => {
  it('names every public operation: method, absolute URL and what it does', () => {
    const list = endpointList('https://kartage.example').split('\n');
    expect(list).toHaveLength(publicOps.length);
    publicOps.forEach((op, i) => {
      const path = op.path.replace(/\{(\w+)\}/g, '<$1>');
      expect(list[i], op.id).toMatch(
        new RegExp(`^- \`${op.method} https://kartage\\.example${path.replace(/[?]/g, '\\?')}`),
      );
      expect(list[i], op.id).toContain(op.summary.replace(/\.$/, ''));
    });
    expect(list).toContain('- `GET https://kartage.example/api/v1/search?q=<q>`: Ranked full-text search.');
  });
});
