/**
 * @module The assistant's unit of text: a page's sections, cut from its markdown twin's body (the contract's
 * `markdown`), each with its sentences. A section is the text under a `##`/`###` heading up to the next heading
 * of any level; the page intro is the title, lead and text before the first `##`. A sentence is a range of the
 * section's own markdown (so a quote is always a substring of the section), with its plain text (what the page
 * shows: the text fragment of a citation link, and what the analyzer reads). Done at build time, once.
 */
import { z } from 'zod';
import { plainOf } from '../markdown-plain.ts';
import data from './abbreviations.json' with { type: 'json' };

/** A heading as the rendered page has it: its level, its `id` (the anchor) and its text. */
export interface HeadingAnchor {
  depth: number;
  id: string;
  text: string;
}

/** One sentence (or list item, or table row) of a section: offsets into the section's `text`. */
export interface Sentence {
  start: number;
  end: number;
  /** A table row (quoted whole; its link lands on the section's anchor). */
  row?: boolean;
  /** A table's header row (never quoted on its own). */
  header?: boolean;
}

export interface Section {
  slug: string;
  /** The heading's text as the twin writes it, without the #s; null for the page intro. */
  heading: string | null;
  /** The heading's anchor on the rendered page (undefined for the intro, or a heading without an id). */
  anchor?: string;
  /** The section's markdown as the twin has it (its heading line first, for a headed section). */
  text: string;
  /** Where `text` starts in the page's markdown. */
  start: number;
  sentences: Sentence[];
}

const AbbreviationsSchema = z.strictObject({
  note: z.string(),
  entries: z.array(
    z.strictObject({
      words: z.array(z.string().regex(/^[\w.]+$/)).min(1),
      before: z.literal('figure').optional(),
      note: z.string().min(3),
    }),
  ),
});
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const { entries } = AbbreviationsSchema.parse(data);
/** A text ending in the full stop of one of the abbreviations (./abbreviations.json). */
const endingIn = (e: typeof entries) =>
  new RegExp(`(?:^|[\\s(])(?:${e.flatMap((x) => x.words.map(escaped)).join('|')})\\.$`, 'i');
const [ABBREVIATIONS, BEFORE_FIGURE] = [
  endingIn(entries.filter((e) => !e.before)),
  endingIn(entries.filter((e) => e.before)),
];
/** Whether a text ends in an abbreviation's full stop, given the text after it: then it does not end a sentence. */
const abbreviated = (head: string, rest: string) =>
  ABBREVIATIONS.test(head) || (BEFORE_FIGURE.test(head) && /^\s*\d/.test(rest));

const segmenter = new Intl.Segmenter('en-AU', { granularity: 'sentence' });

/** Sentence ranges of one paragraph's text (offsets relative to it), trimmed; abbreviations do not split. */
export function splitSentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // No full stop, question or exclamation mark before the end: one sentence (most list items, short lines),
  // without asking the segmenter.
  const trimmed = text.trimEnd();
  if (!/[.!?]/.test(trimmed.slice(0, -1))) {
    const start = text.length - text.trimStart().length;
    return trimmed.length > start ? [{ start, end: trimmed.length }] : [];
  }
  for (const piece of segmentsOf(text)) {
    // The segmenter runs on when a lower-case word follows (". 30-day trial"): split there too.
    let from = piece.start;
    for (const m of text.slice(piece.start, piece.end).matchAll(/[.!?]["”’)]?(?= +[\d(“"]*[\dA-Z])/g)) {
      const cut = piece.start + m.index + m[0].length;
      const head = text.slice(from, cut);
      if (abbreviated(head, text.slice(cut)) || unbalanced(head) || /\d\.$/.test(head)) continue;
      out.push({ start: from, end: cut });
      from = cut + (text.slice(cut).length - text.slice(cut).trimStart().length);
    }
    out.push({ start: from, end: piece.end });
  }
  return out;
}

/** The segmenter's sentences, trimmed, joined again where it broke after an abbreviation or inside a span. */
function segmentsOf(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let pending: { start: number; end: number } | undefined;
  for (const seg of segmenter.segment(text)) {
    const lead = seg.segment.length - seg.segment.trimStart().length;
    const start = seg.index + lead;
    const end = seg.index + seg.segment.trimEnd().length;
    if (end <= start) continue;
    if (pending) pending.end = end;
    else pending = { start, end };
    const piece = text.slice(pending.start, pending.end);
    // Keep going when the break follows an abbreviation, or falls inside a link or inline code.
    if (abbreviated(piece, text.slice(pending.end)) || unbalanced(piece)) continue;
    out.push(pending);
    pending = undefined;
  }
  if (pending) out.push(pending);
  return out;
}

/** An open `[`, `(` of a link, inline code span or `**` strong span that the piece does not close. */
function unbalanced(s: string): boolean {
  let square = 0;
  let round = 0;
  for (const c of s) {
    if (c === '[') square++;
    else if (c === ']') square = Math.max(0, square - 1);
    else if (c === '(') round++;
    else if (c === ')') round = Math.max(0, round - 1);
  }
  return square > 0 || round > 0 || (s.match(/`/g)?.length ?? 0) % 2 === 1 || (s.match(/\*\*/g)?.length ?? 0) % 2 === 1;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

const FENCE = /^\s*(```|~~~)/;
const TABLE_RULE = /^\|?\s*:?-{2,}/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+/;

/** The sentences of a section's text: paragraphs split into sentences, each list item and table row one unit. */
export function sentencesOf(text: string, skipFirstLine: boolean): Sentence[] {
  const out: Sentence[] = [];
  let offset = 0;
  let inFence = false;
  const lines = text.split('\n');
  let para: { start: number; end: number; item?: boolean } | undefined;
  const flush = () => {
    if (!para) return;
    const body = text.slice(para.start, para.end);
    // A line of a few words with no full stop is a label (an eyebrow, a caption, a post's date and author), not a
    // sentence: words are counted by their letters ("20 October 2026 · Tom Keane" has three).
    const wordCount = body.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    if (!para.item && wordCount < 5 && !/[.!?:]$/.test(body) && !/^\*\*/.test(body)) {
      para = undefined;
      return;
    }
    for (const s of splitSentences(body)) push(para.start + s.start, para.start + s.end);
    para = undefined;
  };
  const push = (start: number, end: number, row = false) => {
    // A range with a letter or digit (the plain text is worked out only for the sentences an answer quotes).
    if (!LETTER_OR_DIGIT.test(text.slice(start, end))) return;
    out.push(row ? { start, end, row } : { start, end });
  };
  lines.forEach((line, i) => {
    const start = offset;
    offset += line.length + 1;
    if (i === 0 && skipFirstLine) return;
    if (FENCE.test(line)) {
      flush();
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const trimmed = line.trim();
    if (!trimmed || HEADING.test(line)) {
      flush();
      return;
    }
    if (trimmed.startsWith('|')) {
      flush();
      if (!TABLE_RULE.test(trimmed)) push(start + line.indexOf('|'), start + line.trimEnd().length, true);
      else if (out.at(-1)?.row) out.at(-1)!.header = true;
      return;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      para = { start: start + item[0].length, end: start + line.trimEnd().length, item: true };
      return;
    }
    if (para) para.end = start + line.trimEnd().length;
    else para = { start: start + (line.length - line.trimStart().length), end: start + line.trimEnd().length };
  });
  flush();
  return out;
}

/** The heading text as the page shows it (markdown marks removed), for matching a rendered heading. */
const headingKey = (s: string) => plainOf(s).toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A page's sections from its markdown body (which starts with its `# Title`) and the rendered headings (their
 * anchors, matched by text in order). Sections with no sentence (a heading straight above another) are left out.
 */
export function splitSections(slug: string, markdown: string, anchors: readonly HeadingAnchor[] = []): Section[] {
  const lines = markdown.split('\n');
  const cuts: { at: number; depth: number; heading: string }[] = [];
  let offset = 0;
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const m = inFence ? null : HEADING.exec(line);
    if (m) cuts.push({ at: offset, depth: m[1]!.length, heading: m[2]! });
    offset += line.length + 1;
  }
  const firstSection = cuts.find((c) => c.depth === 2 || c.depth === 3);
  const sections: Section[] = [];
  const introEnd = firstSection ? firstSection.at : markdown.length;
  const intro = markdown.slice(0, introEnd).trimEnd();
  // The intro: title, lead and text before the first ## (its # line is the title: not a sentence of its own).
  const introSentences = sentencesOf(intro, intro.startsWith('# '));
  if (introSentences.length) sections.push({ slug, heading: null, text: intro, start: 0, sentences: introSentences });
  let anchorAt = 0;
  cuts.forEach((cut, i) => {
    if (cut.depth !== 2 && cut.depth !== 3) return;
    if (firstSection && cut.at < firstSection.at) return;
    const end = i + 1 < cuts.length ? cuts[i + 1]!.at : markdown.length;
    const text = markdown.slice(cut.at, end).trimEnd();
    const key = headingKey(cut.heading);
    let anchor: string | undefined;
    for (let k = anchorAt; k < anchors.length; k++) {
      if (headingKey(anchors[k]!.text) === key) {
        anchor = anchors[k]!.id;
        anchorAt = k + 1;
        break;
      }
    }
    const sentences = sentencesOf(text, true);
    if (!sentences.length) return;
    const section: Section = { slug, heading: plainOf(cut.heading), text, start: cut.at, sentences };
    if (anchor) section.anchor = anchor;
    sections.push(section);
  });
  return sections;
}
