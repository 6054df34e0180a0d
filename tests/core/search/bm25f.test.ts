/**
 * BM25F postings written and read back (src/core/search/bm25f.ts): every document holding a term comes back in
 * order, with its score, whatever the gaps between documents and at the lowest and highest saturation levels;
 * the written string needs no escaping in JSON or a URL. Scores are checked against BM25F computed here from
 * the counts the test gave the builder.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The character table is built when the module loads: each test loads it afresh, so it writes and reads with
// the table of that load.
let Bm25fBuilder: typeof import('../../../src/core/search/bm25f.ts').Bm25fBuilder;
let Bm25fPostings: typeof import('../../../src/core/search/bm25f.ts').Bm25fPostings;
let K1: number;
beforeEach(async () => {
  vi.resetModules();
  ({ Bm25fBuilder, Bm25fPostings, K1 } = await import('../../../src/core/search/bm25f.ts'));
});

/** Gaps between consecutive holders of "crate": each side of every base-32 digit boundary. */
const GAPS = [0, 1, 30, 31, 32, 33, 1022, 1023, 1024, 1025, 32_767, 32_768];

/** One field, no length normalisation: a document's tf~ is `weight` x its count. */
function build(weight: number, counts: Map<number, number>, n: number, minIdf = 0) {
  const builder = new Bm25fBuilder([{ weight, b: 0 }]);
  const crate = builder.termId('crate');
  const van = builder.termId('van');
  for (let doc = 0; doc < n; doc++) {
    for (let k = 0; k < (counts.get(doc) ?? 0); k++) builder.count(0, crate);
    if (!counts.has(doc)) builder.count(0, van);
    builder.next();
  }
  const data = builder.build(minIdf);
  return { data, postings: new Bm25fPostings(data) };
}

/** BM25F of a document whose tf~ is `tf`, among `n` documents `df` of which hold the term. */
function expectedScore(tf: number, n: number, df: number, minIdf = 0): number {
  const idf = Math.round(1000 * Math.max(minIdf, Math.log(1 + (n - df + 0.5) / (df + 0.5)))) / 1000;
  const level = Math.max(1, Math.min(63, Math.round((63 * tf) / (K1 + tf))));
  return Math.fround((idf * level) / 63);
}

describe('postings written and read back', () => {
  it('give back every document holding a term, in order, across gaps of every varint length', () => {
    const docs: number[] = [];
    let at = -1;
    for (const gap of GAPS) docs.push((at += gap + 1));
    const counts = new Map(docs.map((d, i) => [d, 1 + (i % 5)]));
    const { postings } = build(1, counts, at + 2);
    const p = postings.postings(postings.termId('crate')!);
    expect([...p.docs]).toEqual(docs);
    expect([...p.scores]).toEqual(docs.map((d) => expectedScore(counts.get(d)!, at + 2, docs.length)));
    expect(postings.df(postings.termId('van')!)).toBe(at + 2 - docs.length);
  });

  it('tell whether a document holds a term: every holder, and no document between, before or after them', () => {
    const docs: number[] = [];
    let at = -1;
    for (const gap of GAPS) docs.push((at += gap + 1));
    const { postings } = build(1, new Map(docs.map((d) => [d, 1])), at + 3);
    for (const d of docs) expect(postings.holds('crate', d)).toBe(true);
    const others = [-1, ...docs.flatMap((d) => [d - 1, d + 1]), at + 2, at + 5].filter((d) => !docs.includes(d));
    for (const d of others) expect(postings.holds('crate', d)).toBe(false);
    expect(postings.holds('van', docs[0]!)).toBe(false);
    expect(postings.holds('van', docs[1]! - 1)).toBe(true);
    expect(postings.holds('lorry', 0)).toBe(false);
  });

  it('keep the lowest and the two highest saturation levels apart (1, 62 and 63 sixty-thirds)', () => {
    // tf~ 0.001 rounds to level 0, kept at 1; 100 is level 62; 10,000 is level 63.
    for (const [weight, level] of [
      [0.001, 1],
      [100, 62],
      [10_000, 63],
    ] as const) {
      const { postings } = build(weight, new Map([[1, 1]]), 3);
      const p = postings.postings(postings.termId('crate')!);
      const idf = Math.round(1000 * Math.log(1 + 2.5 / 1.5)) / 1000;
      expect([...p.docs], String(weight)).toEqual([1]);
      expect([...p.scores], String(weight)).toEqual([Math.fround((idf * level) / 63)]);
      expect(p.scores[0], String(weight)).toBe(expectedScore(weight, 3, 1));
    }
  });

  it('floor the idf at the minimum given, for a term on every document', () => {
    const { postings } = build(
      1,
      new Map([
        [0, 2],
        [1, 2],
      ]),
      2,
      0.3,
    );
    const p = postings.postings(postings.termId('crate')!);
    expect([...p.scores]).toEqual([expectedScore(2, 2, 2, 0.3), expectedScore(2, 2, 2, 0.3)]);
    expect(postings.idf(postings.termId('crate')!)).toBe(0.3);
  });

  it('are written in characters JSON and URLs take as they are', () => {
    const docs = GAPS.map((_, i) => i * 997);
    const { data } = build(10_000, new Map(docs.map((d) => [d, 1])), docs.at(-1)! + 1);
    expect(data.postings.length).toBeGreaterThan(GAPS.length * 2);
    expect(JSON.stringify(data.postings)).toBe(`"${data.postings}"`);
    expect(encodeURIComponent(data.postings)).toBe(data.postings);
  });
});
