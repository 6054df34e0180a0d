/**
 * Fuzzing the read side over real HTTP: listPages, getPage (JSON, markdown, HEAD, conditional), search and
 * batch. Every expected status comes from the contract's schemas (ListPagesQuerySchema, SearchQuerySchema,
 * BatchRequestSchema) applied to what the server will see, and every 200 body is checked against the
 * response schemas; every answer also meets the generic oracle (support.ts `checkAnswer`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BatchRequestSchema,
  BatchResponseSchema,
  ListPagesQuerySchema,
  ListPagesResponseSchema,
  PageSchema,
  SearchQuerySchema,
  SearchResponseSchema,
  SLUG_PATTERN,
} from '../../src/contract/schemas.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import {
  anyJson,
  anyString,
  budget,
  checkAnswer,
  clientArb,
  deepJson,
  expectErrorBody,
  frame,
  framingArb,
  objectText,
  params,
  pickClient,
  nextClient,
  report,
  request,
  routedPath,
  runs,
  sendable,
  startFuzzServer,
  withInvalidUtf8,
  expectHealthy,
  expectVaryOn,
  markdownNotWanted,
  type FuzzServer,
} from './support.ts';
import { timedRequest } from '../helpers/raw-http.ts';

let s: FuzzServer;
let slugs: string[];
let known: Set<string>;
beforeAll(async () => {
  s = await startFuzzServer();
  slugs = s.slugs;
  known = new Set(slugs);
});
afterAll(async () => {
  console.info(report('read'));
  await s?.close();
});

/** Percent-encodes every byte outside printable ASCII (and those in `also`), leaving the rest verbatim. */
const pct = (text: string, also = '') =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      b > 0x20 && b < 0x7f && !also.includes(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** A query string from pairs: properly encoded, or raw (stray `%`, `+`, `&`, `=`, `#` left as they are). */
const queryArb = (pairs: fc.Arbitrary<[string, string][]>) =>
  fc
    .tuple(pairs, fc.boolean())
    .map(([ps, proper]) =>
      proper ? new URLSearchParams(ps).toString() : ps.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&'),
    );

/** The pairs that are there. */
const present = (...pairs: ([string, string] | null)[]): [string, string][] =>
  pairs.filter((x): x is [string, string] => x !== null);

/** Query parameters as the server reads them: WHATWG parsing, first value of a repeated name. */
const firstValues = (target: string): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URL(target, 'http://fuzz.invalid').searchParams) if (!(k in out)) out[k] = v;
  return { ...out };
};

const intText = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: min - 2, max: max + 2 }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        String(min),
        String(max),
        String(max + 1),
        String(min - 1),
        '0',
        '-0',
        '01',
        '1.0',
        '1e1',
        ' 5',
        '5 ',
        '+5',
        '',
        '999999',
        '1000000',
        '９',
        '٣',
        '0x10',
        'NaN',
      ),
    },
    { weight: 1, arbitrary: anyString(12, 300) },
  );
const slugish = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'blog/',
      'product/',
      'solutions/',
      'customers/',
      'b',
      'pricing',
      'index',
      'zzz',
      'a',
      '-',
      '/',
      '',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9/-]{0,20}$/) },
  { weight: 2, arbitrary: anyString(30, 300) },
  { weight: 1, arbitrary: fc.integer({ min: 290, max: 310 }).map((n) => 'b'.repeat(n)) },
);
const extraParam = fc.tuple(
  fc.oneof(
    fc.constantFrom('limit', 'cursor', 'prefix', 'q', 'LIMIT', 'limit[]', '__proto__', 'constructor', 'toString', ''),
    anyString(8, 300),
  ),
  anyString(20, 300),
);

describe('GET /api/v1/pages (listPages)', () => {
  it(
    `answers as ListPagesQuerySchema says, with the index in slug order after the cursor (${runs()} runs)`,
    async () => {
      const pairs = fc
        .tuple(
          fc.option(fc.tuple(fc.constant('limit'), intText(LIMITS.listLimit.min, LIMITS.listLimit.max)), { freq: 2 }),
          fc.option(fc.tuple(fc.constant('cursor'), fc.oneof(fc.constantFrom(...slugs), slugish)), { freq: 2 }),
          fc.option(fc.tuple(fc.constant('prefix'), slugish), { freq: 2 }),
          fc.array(extraParam, { maxLength: 3 }),
          fc.boolean(),
        )
        .map(([l, c, p, extra, shuffle]) => {
          const ps = present(l, c, p).concat(extra);
          return shuffle ? ps.reverse() : ps;
        });
      await fc.assert(
        fc.asyncProperty(queryArb(pairs), clientArb, fc.constantFrom('GET', 'HEAD'), async (query, hot, method) => {
          const target = `/api/v1/pages${query ? `?${query}` : ''}`;
          const ans = await request(s.url + target, { method, from: pickClient(hot) });
          checkAnswer({ method, target }, ans);
          if (ans.status === 429) return void expect(hot, 'only a hot client runs out of budget').toBeDefined();
          expect(ans.headers['ratelimit-policy']).toBe('120;w=60');
          const q = ListPagesQuerySchema.safeParse(firstValues(target));
          expect(ans.status, `${target.slice(0, 300)}: ${ans.text.slice(0, 200)}`).toBe(q.success ? 200 : 400);
          if (method === 'HEAD') return;
          if (!q.success) return expectErrorBody(ans, 400);
          const body = ListPagesResponseSchema.parse(ans.json());
          const { limit, cursor, prefix } = q.data;
          const eligible = slugs
            .filter((x) => (cursor === undefined || x > cursor) && (prefix === undefined || x.startsWith(prefix)))
            .sort();
          expect(body.pages.map((p) => p.slug)).toEqual(eligible.slice(0, limit));
          expect(body.count).toBe(body.pages.length);
          if (eligible.length > limit) expect(body.nextCursor).toBe(eligible[limit - 1]);
          else expect(body.nextCursor).toBeUndefined();
        }),
        params(),
      );
    },
    budget(runs()),
  );
});

describe('GET /api/v1/search (searchSite)', () => {
  it(
    `answers as SearchQuerySchema says, ranked, at most limit results (${runs()} runs)`,
    async () => {
      const words = fc.constantFrom(
        'storage',
        'billing',
        'crew',
        'app',
        'offline',
        'quoting',
        'xero',
        'military',
        'pricing',
        'st',
        'qu',
        'zzzz',
        'the',
        'and',
      );
      const qText = fc.oneof(
        { weight: 3, arbitrary: fc.array(words, { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')) },
        { weight: 3, arbitrary: anyString(30, 300) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'a',
            ' a ',
            'ab',
            '  ',
            'ÉTÉ',
            'Storage',
            'stör',
            'stor*',
            'crew-app',
            '"crew app"',
            'a b c d e f g h i j k l m n o p q r s t u v w x y z',
          ),
        },
        {
          weight: 1,
          arbitrary: fc
            .integer({ min: 495, max: 505 })
            .chain((n) => fc.constantFrom('a', ' ', 'é', '😀').map((c) => `ab${c.repeat(n)}`)),
        },
      );
      const pairs = fc
        .tuple(
          fc.option(fc.tuple(fc.constant('q'), qText), { freq: 8 }),
          fc.option(fc.tuple(fc.constant('limit'), intText(LIMITS.searchLimit.min, LIMITS.searchLimit.max)), {
            freq: 2,
          }),
          fc.array(extraParam, { maxLength: 2 }),
        )
        .map(([q, l, extra]) => present(q, l).concat(extra));
      await fc.assert(
        fc.asyncProperty(queryArb(pairs), clientArb, async (query, hot) => {
          const target = `/api/v1/search${query ? `?${query}` : ''}`;
          const ans = await request(s.url + target, { from: pickClient(hot) });
          checkAnswer({ method: 'GET', target }, ans);
          if (ans.status === 429) return void expect(hot, 'only a hot client runs out of budget').toBeDefined();
          const q = SearchQuerySchema.safeParse(firstValues(target));
          expect(ans.status, `${target.slice(0, 300)}: ${ans.text.slice(0, 200)}`).toBe(q.success ? 200 : 400);
          if (!q.success) {
            expectErrorBody(ans, 400);
            expect(ans.json().error).toMatch(/\b(q|limit)\b/);
            return;
          }
          const body = SearchResponseSchema.parse(ans.json());
          expect(body.query).toBe(q.data.q);
          expect(body.count).toBe(body.results.length);
          expect(body.count).toBeLessThanOrEqual(q.data.limit);
          for (const r of body.results) expect(known.has(r.slug)).toBe(true);
          expect(new Set(body.results.map((r) => r.slug)).size).toBe(body.count);
          const scores = body.results.map((r) => r.score);
          expect(scores).toEqual([...scores].sort((a, b) => b - a));
        }),
        params(),
      );
    },
    budget(runs()),
  );
});

describe('GET /api/v1/pages/{slug} (getPage)', () => {
  // Accept headers whose answer the contract settles: markdown when text/markdown ranks above HTML and
  // JSON; JSON otherwise (the default, and whenever JSON or HTML is preferred).
  const MARKDOWN = [
    'text/markdown',
    'text/markdown, text/html;q=0.9',
    'text/html;q=0.5, text/markdown',
    'text/markdown, application/json;q=0.5',
    'application/json;q=0.5, text/markdown',
  ];
  const JSONISH = [
    undefined,
    'application/json',
    'text/html',
    '*/*',
    'text/markdown;q=0',
    'text/html, text/markdown;q=0.5',
    'application/json, text/markdown;q=0.5',
    'text/markdown;q=0.5, application/json',
    'application/json;q=0.9, text/markdown;q=0.8',
    'text/markdown;q=0.4, application/json;q=0.6, text/html;q=0.1',
  ];
  it(
    `known slugs answer the page, as JSON or markdown; others 404 (${runs()} runs)`,
    async () => {
      const mutated = fc
        .tuple(
          fc.constantFrom(...slugs),
          fc.constantFrom<(x: string) => string>(
            (x) => x.toUpperCase(),
            (x) => `${x}/`,
            (x) => `${x}.json`,
            (x) => `${x}.md`,
            (x) => `${x}/x`,
            (x) => x.replace(/-/g, '_'),
            (x) => `${x}\u0000`,
            (x) => ` ${x}`,
            (x) => `${x}%`,
            (x) => `${x}?a=1`,
            (x) => `${x}#top`,
            (x) => `${x};v=1`,
            (x) => `${x}//`,
            (x) => x.normalize('NFD'),
            (x) => `${x}\u200b`,
          ),
        )
        .map(([x, f]) => f(x));
      const slug = fc
        .oneof(
          { weight: 5, arbitrary: fc.constantFrom(...slugs) },
          { weight: 2, arbitrary: mutated },
          { weight: 1, arbitrary: fc.constantFrom('batch', 'batch/', 'index', '', 'pages', 'blog', 'blog/') },
          { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9/-]{1,30}$/) },
          { weight: 2, arbitrary: anyString(40, 300) },
        )
        .filter((x) => !x.split('/').some((seg) => /^(\.|%2e){1,2}$/i.test(seg)));
      const accept = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...JSONISH) },
        { weight: 2, arbitrary: fc.constantFrom(...MARKDOWN) },
        // Headers the contract does not settle (no ranking of markdown against both, a type it does not
        // name, a malformed q): either representation, but never markdown when JSON ranks above it.
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/*',
            'text/plain',
            'text/x-markdown',
            'text/x-markdown, text/markdown;q=0.1',
            'application/json, text/markdown;q=0.5',
            'text/markdown;q=abc',
            'text/markdown;q=2, text/html',
            ',,,',
            ';;',
            'text/markdown; charset=utf-8',
          ),
        },
        { weight: 1, arbitrary: anyString(30).filter(sendable) },
      );
      const ifNoneMatch = fc.option(
        fc.oneof(fc.constantFrom('*', '"nope"', 'W/"x"', '', '"a", *'), anyString(10).filter(sendable)),
        { freq: 4 },
      );
      await fc.assert(
        fc.asyncProperty(
          slug,
          accept,
          ifNoneMatch,
          fc.constantFrom('GET', 'GET', 'HEAD'),
          clientArb,
          async (sl, acc, inm, method, hot) => {
            const target = `/api/v1/pages/${pct(sl, '%?#;\\')}`;
            const headers: Record<string, string> = {};
            if (acc !== undefined) headers.Accept = acc;
            if (inm !== null) headers['If-None-Match'] = inm;
            const ans = await request(s.url + target, { method, headers, from: pickClient(hot) });
            checkAnswer({ method, target, headers }, ans);
            if (ans.status === 429) return void expect(hot, 'only a hot client runs out of budget').toBeDefined();
            const routed = routedPath(target).slice('/api/v1/pages/'.length);
            if (routed === 'batch') return void expect(ans.status).toBe(405);
            expect(ans.headers['ratelimit-policy'], 'getPage is metered').toBe('120;w=60');
            const found = SLUG_PATTERN.test(routed) && known.has(routed);
            const ct = ans.headers['content-type'];
            const wantMarkdown = acc !== undefined && MARKDOWN.includes(acc);
            if (!found) {
              expect(ans.status, `${target.slice(0, 300)}: ${ans.text.slice(0, 200)}`).toBe(404);
              // The 404 is negotiated too (markdown or JSON), so a cache must key it on Accept.
              expectVaryOn(ans, 'Accept', target.slice(0, 300));
              if (method === 'HEAD') return;
              if (wantMarkdown) expect(ct, `a markdown 404 for ${acc}`).toMatch(/^text\/markdown/);
              if (JSONISH.includes(acc)) expect(ct, `a JSON 404 for ${acc}`).toMatch(/^application\/json/);
              return;
            }
            const matchesAny = inm?.split(',').some((t) => t.trim() === '*') ?? false;
            expect(ans.status, target.slice(0, 300)).toBe(matchesAny ? 304 : 200);
            expectVaryOn(ans, 'Accept', target.slice(0, 300));
            if (ans.status !== 200) return;
            if (wantMarkdown) expect(ct, String(acc)).toMatch(/^text\/markdown/);
            if (JSONISH.includes(acc) || markdownNotWanted(acc ?? ''))
              expect(ct, `JSON for ${acc}`).toMatch(/^application\/json/);
            expect(ans.headers.etag).toBeTruthy();
            if (method === 'HEAD') return;
            if (/^application\/json/.test(ct!)) expect(PageSchema.parse(ans.json()).slug).toBe(routed);
            else {
              expect(ct).toMatch(/^text\/markdown/);
              expect(ans.text.length).toBeGreaterThan(0);
            }
          },
        ),
        params(),
      );
    },
    budget(runs()),
  );
});

describe('POST /api/v1/pages/batch (getPagesBatch)', () => {
  it(
    `answers as BatchRequestSchema says: one result per slug in order; 400 bad input; 413 over 64 KB (${runs()} runs)`,
    async () => {
      const slugText = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...slugs) },
        { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9/-]{1,20}$/) },
        { weight: 2, arbitrary: anyString(20) },
      );
      const slugsArr = fc.oneof(
        { weight: 6, arbitrary: fc.array(slugText, { minLength: 1, maxLength: 8 }) },
        { weight: 1, arbitrary: fc.array(slugText, { minLength: 48, maxLength: 52 }) },
        { weight: 1, arbitrary: fc.array(fc.oneof(slugText, anyJson), { maxLength: 5 }) },
      );
      const text = fc.oneof(
        { weight: 8, arbitrary: slugsArr.map((a) => JSON.stringify({ slugs: a })) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(slugsArr, fc.dictionary(anyString(6), anyJson, { maxKeys: 3 }))
            .map(([a, extra]) => JSON.stringify({ ...extra, slugs: a })),
        },
        { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify({ slugs: v })) },
        { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? '') },
        {
          weight: 1,
          arbitrary: fc
            .tuple(slugsArr, fc.constantFrom('__proto__', 'constructor', 'prototype'))
            .map(([a, k]) =>
              objectText([
                [k, JSON.stringify({ slugs: a })],
                ...(k === '__proto__' ? [] : [['slugs', JSON.stringify(a)] as [string, string]]),
              ]),
            ),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.integer({ min: 1, max: 40_000 }),
              fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
            )
            .map(([d, k]) => `{"slugs":${deepJson(d, k)}}`),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '',
            ' ',
            '\n',
            '{',
            '{"slugs":',
            '{"slugs":["a",]}',
            "{'slugs':['a']}",
            '{"slugs":["a"]}x',
            'null',
            '[]',
            '"slugs"',
            '\ufeff{"slugs":["pricing"]}',
            '{"slugs":["pricing"],"slugs":[]}',
          ),
        },
        { weight: 1, arbitrary: anyString(40) },
        {
          weight: 1,
          arbitrary: fc.integer({ min: 65_500, max: 66_000 }).map((n) => JSON.stringify({ slugs: ['x'.repeat(n)] })),
        },
      );
      const bytes = fc.oneof(
        { weight: 4, arbitrary: text.map((t) => Buffer.from(t, 'utf8')) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(text, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }))
            .map(([t, cuts]) => withInvalidUtf8(t, cuts)),
        },
      );
      const contentType = fc.constantFrom<string | undefined>(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      );
      await fc.assert(
        fc.asyncProperty(bytes, framingArb, contentType, clientArb, async (body, cuts, ct, hot) => {
          const target = '/api/v1/pages/batch';
          const headers: Record<string, string> = ct ? { 'Content-Type': ct } : {};
          const ans = await request(s.url + target, {
            method: 'POST',
            headers,
            body: frame(body, cuts),
            from: pickClient(hot),
          });
          checkAnswer({ method: 'POST', target, headers }, ans);
          if (ans.status === 429) return void expect(hot, 'only a hot client runs out of budget').toBeDefined();
          if (body.length > LIMITS.readBodyBytes) return void expect(ans.status).toBe(413);
          const decoded = new TextDecoder().decode(body);
          let parsed: { ok: true; value: unknown } | { ok: false } = { ok: false };
          try {
            if (decoded.trim()) parsed = { ok: true, value: JSON.parse(decoded) };
          } catch {}
          const req = parsed.ok ? BatchRequestSchema.safeParse(parsed.value) : undefined;
          expect(ans.status, ans.text.slice(0, 200)).toBe(req?.success ? 200 : 400);
          if (!req?.success) return;
          const res = BatchResponseSchema.parse(ans.json());
          expect(res.count).toBe(req.data.slugs.length);
          expect(res.results.map((r) => r.slug)).toEqual(req.data.slugs);
          res.results.forEach((r, i) => {
            const want = req.data.slugs[i]!;
            expect(r.found).toBe(SLUG_PATTERN.test(want) && known.has(want));
            if (r.found) expect(PageSchema.parse(r.page).slug).toBe(want);
            else expect(r.error).toBeTruthy();
          });
        }),
        params(),
      );
    },
    budget(runs(), 60),
  );
});

describe('afterwards', () => {
  it('the server still answers a simple GET and logged no 5xx or unhandled error', async () => {
    await expectHealthy(s);
  });
});

describe('fixed bugs found by fuzzing (each check failed before its fix)', () => {
  // Fixed: negotiation ignored JSON's q-value (markdown's q was compared with HTML's only), so
  // `Accept: application/json, text/markdown;q=0.5` got markdown from getPage and from page URLs.
  it('an Accept that prefers application/json over text/markdown gets JSON from getPage, HTML from the page', async () => {
    const qs = fc
      .tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 1, max: 9 }))
      .filter(([j, m]) => j > m)
      .map(([j, m]) => [j / 10, m / 10] as const);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...slugs), qs, fc.boolean(), async (slug, [jq, mq], jsonFirst) => {
        const json = `application/json${jq === 1 ? '' : `;q=${jq}`}`;
        const md = `text/markdown;q=${mq}`;
        const accept = jsonFirst ? `${json}, ${md}` : `${md}, ${json}`;
        const ans = await timedRequest(`${s.url}/api/v1/pages/${slug}`, {
          headers: { Accept: accept },
          from: nextClient(),
        });
        expect(ans.status).toBe(200);
        expect(ans.headers['content-type'], accept).toMatch(/^application\/json/);
        expectVaryOn(ans, 'Accept', accept);
        // A page URL has no JSON: the client that prefers JSON to markdown gets the HTML page.
        const page = await timedRequest(`${s.url}/${slug === 'index' ? '' : slug}`, {
          headers: { Accept: accept },
          from: nextClient(),
        });
        expect(page.status).toBe(200);
        expect(page.headers['content-type'], accept).toMatch(/^text\/html/);
        expectVaryOn(page, 'Accept', accept);
      }),
      { ...params(), numRuns: 20 },
    );
  });
});
