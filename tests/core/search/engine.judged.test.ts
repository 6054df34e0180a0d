/**
 * The judged query sets over the real build (build/content.json, build/search-index.json; `npm test` builds
 * first): the API's relevance must not drop below what the engine reaches today (a small margin), and a title
 * query returns only pages holding every content word of the title in some word form.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR } from '../../../src/config.ts';
import { CONTENT_FILE, SEARCH_FILE, type ContentData } from '../../../src/core/content.ts';
import { contentFromData } from '../../../src/core/content-source.ts';
import { analyze, loadSearchIndex, searchSite } from '../../../src/core/search/engine.ts';
import { bareTitle } from '../../../src/core/search/compact-index.ts';
import { evaluate, loadJudged } from '../../helpers/search-metrics.ts';

const data = JSON.parse(readFileSync(join(DATA_DIR, CONTENT_FILE), 'utf8')) as ContentData;
const index = loadSearchIndex(readFileSync(join(DATA_DIR, SEARCH_FILE), 'utf8'));
const content = contentFromData(data, () => index);
const api = (q: string) => searchSite({ content, index }, q, 10).results.map((r) => r.slug);

describe('judged queries (API search)', () => {
  it('tuning set: nDCG@10 >= 0.92, MRR >= 0.95, no query without a result', async () => {
    const f = await evaluate(loadJudged('judged-queries'), api);
    expect(f.ndcg10).toBeGreaterThanOrEqual(0.92);
    expect(f.mrr).toBeGreaterThanOrEqual(0.95);
    expect(f.perQuery.filter((r) => !r.top.length).map((r) => r.q)).toEqual([]);
  });

  it('held-out set: nDCG@10 >= 0.8, at most 1 in 10 without a result', async () => {
    const f = await evaluate(loadJudged('held-out-queries'), api);
    expect(f.ndcg10).toBeGreaterThanOrEqual(0.8);
    expect(f.zeroShare).toBeLessThanOrEqual(0.1);
  });

  it('word-form and spelling variants find the same pages; an abbreviation finds the pages of its long form too', () => {
    const same: [string, string][] = [
      ['truck utilization report', 'truck utilisation report'],
      ['how to reduce damage claims', 'reducing damage claims'],
      ['video surveying', 'video surveys'],
      ['containerized storage', 'containerised storage'],
      ['defense relocations', 'defence relocation'],
    ];
    for (const [variant, base] of same) expect(api(variant), variant).toEqual(api(base));
    for (const [short, long] of [
      ['sso', 'single sign-on'],
      ['eofy', 'end of financial year'],
      ['CoR', 'chain of responsibility'],
    ]) {
      const found = searchSite({ content, index }, short!, 50).results.map((r) => r.slug);
      expect(found.length, short).toBeGreaterThan(0);
      for (const slug of searchSite({ content, index }, long!, 50).results.map((r) => r.slug))
        expect(found, short).toContain(slug);
    }
  });
});

describe('title queries', () => {
  it('every content word of a page title occurs, in some word form, in each result', () => {
    const formsOf = new Map(
      data.pages.map((p) => [p.slug, new Set(analyze(`${p.title} ${p.description ?? ''} ${p.text}`))]),
    );
    for (const page of data.pages) {
      const q = bareTitle(page.title);
      const words = analyze(q);
      const results = api(q);
      expect(results, q).toContain(page.slug);
      for (const slug of results)
        for (const w of words) expect(formsOf.get(slug)!.has(w), `${q}: ${slug} lacks ${w}`).toBe(true);
    }
  });
});
