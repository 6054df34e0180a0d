/**
 * The index's character table (src/core/search/compact-index.ts): postings are written and read in the URL-safe
 * base-64 alphabet of RFC 4648 section 5. The table is built when the module loads, so each test loads the
 * module afresh (vi.resetModules()) and writes and reads with that load's table.
 */
import { describe, expect, it, vi } from 'vitest';
import type { IndexablePage } from '../../../src/core/search/compact-index.ts';

const load = async () => {
  vi.resetModules();
  return import('../../../src/core/search/compact-index.ts');
};

/** RFC 4648 section 5, "base64url": value i is the i-th character. */
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** 41 pages: "crate" on the first and the last (a gap of 39 pages: two varint characters), "van" on the rest. */
const pages: IndexablePage[] = Array.from({ length: 41 }, (_, i) => ({
  slug: `p${i}`,
  title: `Page ${i}`,
  text: i === 0 || i === 40 ? 'crate' : 'van',
  kind: 'page',
}));

describe('postings in the base64url alphabet', () => {
  it('a term is written as varint gaps and 6-bit scores, each one base64url character', async () => {
    const { buildIndex } = await load();
    const data = buildIndex(pages);
    const terms = data.terms.split(' ');
    const id = terms.indexOf('crate');
    const at = data.offsets[id]!;
    const crate = data.postings.slice(at, at + 5);
    // Gap 0 -> "A"; gap 39 -> 32|7 = 39 ("n"), then 1 ("B"); a score character after each page.
    expect(crate[0]).toBe('A');
    expect(crate.slice(2, 4)).toBe('nB');
    for (const c of [crate[1]!, crate[4]!]) {
      expect(BASE64URL.indexOf(c)).toBeGreaterThanOrEqual(1);
    }
    expect([...data.postings].filter((c) => !BASE64URL.includes(c))).toEqual([]);
  });

  it('reads back the pages and scores it wrote', async () => {
    const { buildIndex, SearchIndex } = await load();
    const data = buildIndex(pages);
    const index = new SearchIndex(data);
    const id = index.termId('crate')!;
    const at = data.offsets[id]!;
    const { docs, scores } = index.postings(id);
    expect([...docs]).toEqual([0, 40]);
    const idf = data.idf[id]! / 1000;
    const quantised = [data.postings[at + 1]!, data.postings[at + 4]!].map((c) => BASE64URL.indexOf(c));
    expect([...scores]).toEqual(quantised.map((q) => Math.fround((idf * q) / 63)));
    // The last two characters of the alphabet, "-" (62) and "_" (63), read as their values.
    const hand = new SearchIndex({ ...data, terms: 'x', idf: [63_000], df: [2], offsets: [0], postings: 'A_A-' });
    expect([...hand.postings(0).docs]).toEqual([0, 1]);
    expect([...hand.postings(0).scores]).toEqual([63, 62]);
  });
});
