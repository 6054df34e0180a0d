/**
 * The assistant's search hints (src/build/ask-hints.json, src/build/ask-hints.ts) and learned questions
 * (src/build/ask-asked.json): each names a section the built site has (a renamed heading fails here instead of
 * silently losing its hints), and the build indexes each word of a section's hints and questions with that
 * section, once, unless the site's own text is full of it (HINT_MAX_SHARE).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/adapters/deps.ts';
import {
  ASK_ASKED,
  ASK_HINTS,
  ASK_LEARNING,
  ASK_WRITTEN,
  AskHintsSchema,
  AskQuestionsSchema,
  askHintsOf,
  headingKey,
  hintsFrom,
} from '../../src/build/ask-hints.ts';
import { ASKED_FILE, askedText } from '../../scripts/ask-learn.ts';
import { ASK_SETS, askSourcesOf, LEARNED_SETS, loadJudged } from '../helpers/ask-metrics.ts';
import { analyze, eachWord, isStopWord, termOf } from '../../src/core/search/analyze.ts';
import { askedTerms, askIndexOf, HINT_MAX_SHARE, inContext } from '../../src/core/ask/index.ts';
import data from '../../src/build/ask-hints.json' with { type: 'json' };
import written from '../../src/build/ask-questions.json' with { type: 'json' };
import { PROJECT_ROOT } from '../helpers/server.ts';

const content = loadContent(join(PROJECT_ROOT, 'build'));
const index = content.askIndex();
// The same pages indexed without hints: what each section's own text holds.
const plain = askIndexOf(askSourcesOf(content));
const sectionId = new Map<string, number>();
for (let s = 0; s < index.sectionCount; s++) {
  const [page, heading] = index.data.sections[s]!;
  sectionId.set(`${index.data.pages[page]!.slug}#${headingKey(heading)}`, s);
}
const idOf = (slug: string, heading: string | null) => sectionId.get(`${slug}#${headingKey(heading)}`);

/**
 * Checks the built index against hints (a section's phrases): each word its own text lacks is indexed with it once
 * when uncommon (HINT_MAX_SHARE), never when common. Returns what is wrong and how many words were each.
 */
function indexed(entries: readonly { slug: string; heading: string | null; hints: readonly string[] }[]) {
  const limit = Math.floor(index.sectionCount * HINT_MAX_SHARE);
  const holds = (term: string, id: number) => {
    const list = index.postings(term) ?? new Int32Array();
    for (let i = 0; i < list.length; i += 3) if (list[i] === id) return list[i + 1]! + list[i + 2]!;
    return 0;
  };
  const missing: string[] = [];
  let added = 0;
  let common = 0;
  for (const h of entries) {
    const id = idOf(h.slug, h.heading)!;
    for (const hint of h.hints) {
      eachWord(hint, (w) => {
        if (isStopWord(w)) return;
        const t = termOf(w);
        // A word the section's own text holds counts as often as the text says; a hint's, once.
        const ownText = plain.postings(t);
        let inText = false;
        for (let i = 0; ownText && i < ownText.length; i += 3) if (ownText[i] === id) inText = true;
        if (inText) return;
        if (plain.df(t) > limit) {
          common++;
          if (holds(t, id) !== 0) missing.push(`${h.slug}#${h.heading}: common word ${w} indexed`);
        } else {
          added++;
          if (holds(t, id) !== 1) missing.push(`${h.slug}#${h.heading}: ${w}`);
        }
      });
    }
  }
  return { missing, added, common };
}

describe('the search hints', () => {
  it('are lower-case phrases, at most 12 a section, each section named once', () => {
    expect(AskHintsSchema.safeParse(data).success).toBe(true);
    expect(AskHintsSchema.safeParse([{ slug: 'faq', heading: null, hints: ['Upper Case'] }]).success).toBe(false);
    const keys = ASK_HINTS.map((h) => `${h.slug}#${headingKey(h.heading)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('each names a section the built site has', () => {
    expect(ASK_HINTS.filter((h) => idOf(h.slug, h.heading) === undefined).map((h) => `${h.slug}#${h.heading}`)).toEqual(
      [],
    );
  });

  it("the build indexes each uncommon word of a section's hints with that section, and no common one", () => {
    const { missing, added, common } = indexed(ASK_HINTS);
    expect(missing).toEqual([]);
    expect(added).toBeGreaterThan(3000);
    expect(common).toBeGreaterThan(0);
  });

  it('a page or section without hints has none; curled and straight quotes name the same heading', () => {
    expect(askHintsOf('no/such-page')(null)).toEqual([]);
    const curled = ASK_HINTS.find((h) => h.heading?.includes("'"))!;
    expect(hintsFrom(ASK_HINTS, [])(curled.slug)(curled.heading!.replace(/'/g, '’'))).toEqual(curled.hints);
  });
});

describe('the written questions (src/build/ask-questions.json)', () => {
  it('are at most six a section, each section named once, and name sections the built site has', () => {
    expect(AskQuestionsSchema.safeParse(written).success).toBe(true);
    expect(AskQuestionsSchema.safeParse([{ slug: 'faq', heading: null, questions: [] }]).success).toBe(false);
    const keys = ASK_WRITTEN.map((w) => `${w.slug}#${headingKey(w.heading)}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      ASK_WRITTEN.filter((w) => idOf(w.slug, w.heading) === undefined).map((w) => `${w.slug}#${w.heading}`),
    ).toEqual([]);
    // Most of the site's sections have some (navigation and heading-only sections have none).
    expect(ASK_WRITTEN.length).toBeGreaterThan(index.sectionCount * 0.85);
  });

  it("the build indexes each uncommon word of a section's written questions with it, as a hint's", () => {
    const { missing, added } = indexed(ASK_WRITTEN.map((w) => ({ ...w, hints: w.questions })));
    expect(missing).toEqual([]);
    expect(added).toBeGreaterThan(2000);
  });

  it('each is kept as a learned question with its section, after the asked ones', () => {
    const asked = ASK_ASKED.filter((q) => q.sections.length).length;
    const all = ASK_WRITTEN.flatMap((w) => w.questions.map((question) => ({ w, question })));
    expect(ASK_LEARNING.learned.length).toBe(asked + all.length);
    expect(ASK_LEARNING.learned.slice(asked).map((q) => q.question)).toEqual(all.map((x) => x.question));
    const { w, question } = all[all.length >> 1]!;
    const near = index.nearestAsked(question);
    expect(near.similarity).toBeCloseTo(1, 2);
    expect(near.sections).toContain(idOf(w.slug, w.heading));
  });
});

describe('the learned questions (src/build/ask-asked.json)', () => {
  it('are the questions of the learned sets, as `npm run ask:learn` writes them', () => {
    expect(readFileSync(ASKED_FILE, 'utf8')).toBe(askedText());
    expect(new Set(ASK_ASKED.map((q) => q.set))).toEqual(new Set(LEARNED_SETS.map((x) => x.set)));
  });

  it('never hold a question of a set that is not learned (the clean measure stays unseen)', () => {
    const asked = new Set(ASK_ASKED.map((q) => q.question));
    const unlearned = ASK_SETS.filter((x) => !LEARNED_SETS.some((l) => l.set === x.set));
    expect(unlearned.length).toBeGreaterThan(0);
    for (const x of unlearned) expect(loadJudged(x.file).questions.filter((q) => asked.has(q.question))).toEqual([]);
  });

  it('each names sections the built site has', () => {
    const refs = ASK_ASKED.flatMap((q) => q.sections.map((s) => ({ ...s, id: q.id })));
    expect(
      refs.filter((r) => idOf(r.slug, r.heading) === undefined).map((r) => `${r.id}: ${r.slug}#${r.heading}`),
    ).toEqual([]);
  });

  it("the build indexes each uncommon word of a question with the sections that answer it, as a hint's", () => {
    const entries = ASK_ASKED.flatMap((q) => q.sections.map((s) => ({ ...s, hints: [q.question] })));
    const { missing, added } = indexed(entries);
    expect(missing).toEqual([]);
    expect(added).toBeGreaterThan(500);
    // What the build indexes for a section is its hints and every question it answers.
    const q = ASK_ASKED[0]!;
    const section = q.sections[0]!;
    expect(askHintsOf(section.slug)(section.heading)).toContain(q.question);
  });

  it('those no section answers are the known gaps the build keeps, each as its terms', () => {
    expect(ASK_LEARNING.gaps.length).toBeGreaterThanOrEqual(100);
    expect(ASK_LEARNING.gaps).toEqual(ASK_ASKED.filter((q) => !q.sections.length).map((q) => q.question));
    expect(index.data.gaps).toEqual(ASK_LEARNING.gaps.map(askedTerms).filter((t) => t.length));
    // Each gap asked again is as near as can be, and nothing is a gap of an index built without them.
    for (const q of ASK_LEARNING.gaps.slice(0, 10)) expect(index.nearestAsked(q).gap, q).toBeCloseTo(1, 2);
    expect(plain.nearestAsked(ASK_LEARNING.gaps[0]!).gap).toBe(0);
  });

  it('those some section answers are kept with their sections, each found again by its own words', () => {
    // A follow-up is learned in its context: the earlier question, then its own words.
    const asked = (q: (typeof ASK_LEARNING.learned)[number]) => inContext(q.question, q.earlier);
    expect(index.data.learned.length).toBe(ASK_LEARNING.learned.filter((q) => analyze(asked(q)).length).length);
    expect(index.data.learned.length).toBeGreaterThan(600);
    expect(ASK_LEARNING.learned.filter((q) => q.earlier).length).toBeGreaterThan(40);
    for (const q of ASK_LEARNING.learned.filter((q, i) => i % 25 === 0 || (q.earlier && i % 5 === 0))) {
      const near = index.nearestAsked(asked(q));
      expect(near.similarity, q.question).toBeCloseTo(1, 2);
      const named = new Set(q.sections.map((s) => idOf(s.slug, s.heading)));
      expect(
        near.sections.every((s) => named.has(s)),
        q.question,
      ).toBe(true);
    }
    // Every term of a gap or a learned question is weighed at build time (no postings read to compare).
    const terms = new Set([...index.data.gaps.flat(), ...index.data.learned.flatMap(([t]) => t)]);
    expect(Object.keys(index.data.weights).sort()).toEqual([...terms].sort());
  });
});
