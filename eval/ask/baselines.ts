/**
 * @module The two library-plain baselines the engine is measured beside, over the same sections (sections.ts) with
 * the project's analyser (src/core/search/analyze.ts) and the site's hints and written questions
 * (src/build/ask-hints.json, ask-questions.json) as a field of their section:
 * - minisearch: MiniSearch with its default options, fields text, heading, page title and hints;
 * - bm25: plain BM25F (k1 1.2, b 0.75, every field weighted 1) over the same fields.
 * Both answer with their top five sections (the best one quoted whole as the answer, role `answer`; the others
 * `related`), answer whenever they have a hit, read a follow-up with its last earlier question, and never hand off
 * or price (those figures do not apply to them).
 */
import MiniSearch from 'minisearch';
import hintsData from '../../src/build/ask-hints.json' with { type: 'json' };
import writtenData from '../../src/build/ask-questions.json' with { type: 'json' };
import { analyze, isStopWord, termOf, words } from '../../src/core/search/analyze.ts';
import { ENGINE_WORDS } from './engine.ts';
import type { Asker, AskReply, AskTurnIn } from './metrics.ts';
import { type SiteSection, sectionKey } from './sections.ts';

const TOP = 5;

/** Each section's hints and written questions, as one text, by section key. */
function hintTexts(): Map<string, string> {
  const out = new Map<string, string[]>();
  const add = (slug: string, heading: string | null, more: readonly string[]) => {
    const key = sectionKey({ slug, heading });
    out.set(key, [...(out.get(key) ?? []), ...more]);
  };
  for (const h of hintsData) add(h.slug, h.heading, h.hints);
  for (const w of writtenData) add(w.slug, w.heading, w.questions);
  return new Map([...out].map(([k, v]) => [k, v.join('\n')]));
}

interface Doc {
  text: string;
  heading: string;
  title: string;
  hints: string;
}
const FIELDS = ['text', 'heading', 'title', 'hints'] as const;

const docsOf = (sections: readonly SiteSection[]): Doc[] => {
  const hints = hintTexts();
  return sections.map((s) => ({
    text: s.body,
    heading: s.heading ?? '',
    title: s.title,
    hints: hints.get(sectionKey(s)) ?? '',
  }));
};

/** The query: the question, after the last earlier question when there is one. */
const queryOf = (question: string, conversation?: readonly AskTurnIn[]) => {
  const earlier = conversation?.at(-1)?.question;
  return earlier ? `${earlier} ${question}` : question;
};

/** A response quoting the best of the ranked sections. */
function replyOf(question: string, sections: readonly SiteSection[], ranked: readonly number[]): AskReply {
  const sources = ranked.slice(0, TOP).map((i, k) => {
    const s = sections[i]!;
    return {
      slug: s.slug,
      title: s.title,
      heading: s.heading,
      url: s.url,
      text: s.text,
      role: k ? 'related' : 'answer',
    };
  }) as AskReply['sources'];
  return {
    question: question.trim(),
    answered: sources.length > 0,
    answer: sources[0]?.text ?? ENGINE_WORDS.noAnswer,
    sources,
    handoff: null,
    mode: 'extractive',
    reason: sources.length ? 'answered' : 'no-match',
  };
}

/** MiniSearch (default options, the project's analyser) over the sections. */
export function miniSearchAsker(sections: readonly SiteSection[]): Asker {
  const ms = new MiniSearch<Doc & { id: number }>({
    fields: [...FIELDS],
    tokenize: (s) => words(s),
    processTerm: (t) => (isStopWord(t) ? null : termOf(t)),
  });
  ms.addAll(docsOf(sections).map((d, id) => ({ ...d, id })));
  return (question, conversation) =>
    replyOf(
      question,
      sections,
      ms.search(queryOf(question, conversation)).map((h) => h.id as number),
    );
}

/** Plain BM25F over the sections: every field weighted 1, each normalised by its own mean length. */
export function bm25Asker(sections: readonly SiteSection[], k1 = 1.2, b = 0.75): Asker {
  const docs = docsOf(sections);
  const tf = docs.map((d) =>
    FIELDS.map((f) => {
      const counts = new Map<string, number>();
      for (const t of analyze(d[f])) counts.set(t, (counts.get(t) ?? 0) + 1);
      return { counts, length: [...counts.values()].reduce((a, n) => a + n, 0) };
    }),
  );
  const mean = FIELDS.map((_, f) => tf.reduce((a, d) => a + d[f]!.length, 0) / Math.max(1, docs.length) || 1);
  const df = new Map<string, number>();
  for (const d of tf) for (const t of new Set(d.flatMap((f) => [...f.counts.keys()]))) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return (question, conversation) => {
    const terms = [...new Set(analyze(queryOf(question, conversation)))].filter((t) => df.has(t));
    const scores = tf.map((d) =>
      terms.reduce((sum, t) => {
        const w = d.reduce((a, f, i) => a + (f.counts.get(t) ?? 0) / (1 - b + (b * f.length) / mean[i]!), 0);
        return w ? sum + (idf(t) * w) / (k1 + w) : sum;
      }, 0),
    );
    const ranked = scores
      .map((s, i) => [s, i] as const)
      .filter(([s]) => s > 0)
      .sort((x, y) => y[0] - x[0] || x[1] - y[1])
      .map(([, i]) => i);
    return replyOf(question, sections, ranked);
  };
}
