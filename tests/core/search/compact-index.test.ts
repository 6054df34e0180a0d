/**
 * The index build's fast path (eachWord, one term lookup per distinct word, counts in typed arrays) gives the
 * same index as the plain definition: every field through `analyze`, terms numbered in order of first use,
 * BM25F saturation per page. Checked on generated pages (ASCII and not: accents, ligatures, ß, other scripts,
 * lone surrogates, stop words) and on the project's own pages (build/content.json; `npm test` builds first).
 */
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyze,
  analyzeSynonyms,
  eachWord,
  fold,
  words,
  type SynonymEntry,
} from '../../../src/core/search/analyze.ts';
import {
  bareTitle,
  buildIndex,
  FIELDS,
  headingsOf,
  K1,
  MIN_IDF,
  type IndexablePage,
  type SerializedIndex,
} from '../../../src/core/search/compact-index.ts';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };

const synonyms = { entries: lexicon.synonyms };
import { DATA_DIR } from '../../../src/config.ts';
import { CONTENT_FILE, type ContentData } from '../../../src/core/content.ts';
import type { PageKind } from '../../../src/contract/content.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The index as its format defines it, written plainly (the shape buildIndex had before its fast path). */
function referenceIndex(pages: IndexablePage[], syn: SynonymEntry[]): SerializedIndex {
  const names = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const raw: number[][] = [];
  const lengths = names.map(() => new Float64Array(pages.length));
  const fields = pages.map((p, doc) => {
    const f = [bareTitle(p.title), headingsOf(p.markdown), p.description ?? '', p.text].map(analyze);
    const local = new Map<number, number[]>();
    f.forEach((ts, k) => {
      lengths[k]![doc] = ts.length;
      for (const t of ts) {
        let id = ids.get(t);
        if (id === undefined) {
          ids.set(t, (id = terms.length));
          terms.push(t);
          raw.push([]);
        }
        if (!local.has(id)) local.set(id, [0, 0, 0, 0]);
        local.get(id)![k]!++;
      }
    });
    for (const [id, tf] of local) raw[id]!.push(doc, ...tf);
    return f;
  });
  const n = pages.length;
  const avg = lengths.map((l) => Math.max(1, l.reduce((a, b) => a + b, 0) / Math.max(1, n)));
  const varint = (x: number) => {
    let s = '';
    for (; x >= 32; x = Math.floor(x / 32)) s += ALPHABET[32 | (x & 31)];
    return s + ALPHABET[x];
  };
  let postings = '';
  const offsets: number[] = [];
  const df = raw.map((r) => r.length / 5);
  for (const r of raw) {
    offsets.push(postings.length);
    let prev = -1;
    for (let i = 0; i < r.length; i += 5) {
      const doc = r[i]!;
      let tf = 0;
      names.forEach((name, f) => {
        const { weight, b } = FIELDS[name];
        tf += (weight * r[i + 1 + f]!) / (1 - b + (b * lengths[f]![doc]!) / avg[f]!);
      });
      postings += varint(doc - prev - 1) + ALPHABET[Math.max(1, Math.min(63, Math.round((63 * tf) / (K1 + tf))))];
      prev = doc;
    }
  }
  return {
    format: 'kartage-bm25f-1',
    slugs: pages.map((p) => p.slug),
    kinds: pages.map((p) => p.kind),
    titles: fields.map((f) => f[0]!.join(' ')),
    descriptions: fields.map((f) => f[2]!.join(' ')),
    terms: terms.join(' '),
    idf: df.map((d) => Math.round(1000 * Math.max(MIN_IDF, Math.log(1 + (n - d + 0.5) / (d + 0.5))))),
    df,
    offsets,
    postings,
    synonyms: analyzeSynonyms(syn),
  };
}

/** Text from words of the site, stop words, punctuation and characters folding treats specially. */
const pieces = fc.constantFrom(
  'Moving',
  'moving',
  'removalist',
  'Utilization',
  'utilisation',
  'the',
  'a',
  'of',
  'How',
  'storage',
  'quotes',
  'Café',
  'ÉTÉ',
  'Straße',
  'ﬁle',
  'm³',
  'Ⅻ',
  'naïve',
  'e\u0301',
  'crew’s',
  '—',
  '…',
  'Ωμέγα',
  'ΟΔΟΣ',
  '東京',
  '𝐀𝐁',
  '😀',
  '\ud800',
  '\udc00x',
  '_',
  '-',
  '42',
  '3.5',
  'x2',
  ' ',
  '  ',
  '\n',
  '. ',
  ', ',
  '#',
);
const text = fc
  .array(fc.oneof(pieces, fc.string({ maxLength: 6, unit: 'binary' })), { maxLength: 40 })
  .map((a) => a.join(''));
const page = fc.record({
  title: text,
  description: fc.option(text, { nil: undefined }),
  headings: fc.array(text, { maxLength: 4 }),
  text,
  kind: fc.constantFrom<PageKind[]>('page', 'post', 'listing'),
});

describe('the search index build', () => {
  it('splits text into words as the plain definition does (runs of letters and digits after folding)', () => {
    const plainWords = (s: string) =>
      fold(s)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (s) => {
        const seen: string[] = [];
        eachWord(s, (w) => seen.push(w));
        expect(seen).toEqual(plainWords(s));
        expect(words(s)).toEqual(seen);
      }),
      { numRuns: 2000 },
    );
  });

  it('builds the same index as the plain definition on generated pages', () => {
    fc.assert(
      fc.property(fc.array(page, { maxLength: 12 }), (list) => {
        const pages: IndexablePage[] = list.map((p, i) => ({
          slug: `p${String(i).padStart(3, '0')}`,
          title: p.title,
          description: p.description,
          markdown: `---\ntitle: x\n---\n${p.headings.map((h) => `## ${h}\n\nbody\n`).join('\n')}`,
          text: p.text,
          kind: p.kind,
        }));
        expect(buildIndex(pages, synonyms.entries)).toEqual(referenceIndex(pages, synonyms.entries));
      }),
      { numRuns: 300 },
    );
  });

  it("builds the same index as the plain definition on the project's pages", () => {
    const file = `${DATA_DIR}/${CONTENT_FILE}`;
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (node server/build-check.ts)`);
    const data = JSON.parse(readFileSync(file, 'utf8')) as ContentData;
    expect(data.pages.length).toBeGreaterThan(10);
    const built = JSON.stringify(buildIndex(data.pages, synonyms.entries));
    expect(built).toBe(JSON.stringify(referenceIndex(data.pages, synonyms.entries)));
  });
});
