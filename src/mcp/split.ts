/**
 * @module Long texts in parts, for an agent's context: a page's markdown split at paragraph breaks where
 * possible (the `get_kartage_page` tool), and any resource split so that its parts join back into it byte
 * for byte (`resources/read` with `?part=`). A cut never falls inside a grapheme.
 */

/** Longest markdown one tool answer or resource read carries; longer texts come in parts. */
export const PART_CHARS = 12_000;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The last grapheme boundary at or before `max` (never inside a surrogate pair or an emoji sequence). */
export function graphemeCut(text: string, max: number): number {
  if (max >= text.length) return text.length;
  // Start the window on a boundary the segmenter can trust: not inside a surrogate pair, and at the start
  // of a run of regional indicators (flags pair them from the run's start).
  let from = Math.max(0, max - 64);
  if (/[\udc00-\udfff]/.test(text[from] ?? '')) from--;
  while (from >= 2 && /^\ud83c[\udde6-\uddff]$/.test(text.slice(from - 2, from))) from -= 2;
  let cut = from;
  for (const { index } of segmenter.segment(text.slice(from, max + 64))) {
    if (from + index > max) break;
    cut = from + index;
  }
  if (cut > from || (cut > 0 && from < max - 64)) return cut;
  // No boundary in reach (one cluster longer than the window): cut between code points.
  return /[\udc00-\udfff]/.test(text[max] ?? '') ? max - 1 : max;
}

/** Where to end a part of at most `max` characters: a paragraph break, else a line break, else a grapheme. */
function cutAt(rest: string, max: number): number {
  let cut = rest.lastIndexOf('\n\n', max);
  if (cut < max / 2) cut = rest.lastIndexOf('\n', max);
  if (cut < max / 2) cut = graphemeCut(rest, max);
  return cut;
}

/** The markdown of a page split into parts of at most `max` characters, at paragraph breaks where possible. */
export function splitMarkdown(markdown: string, max = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = markdown;
  while (rest.length > max) {
    const cut = cutAt(rest, max);
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  parts.push(rest);
  return parts;
}

/** A text split into parts of at most `max` characters whose concatenation is the text, byte for byte. */
export function splitExact(text: string, max = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = cutAt(rest, max);
    // Keep the line break with the part it ends, so joining the parts gives the text back.
    while (cut < max && rest[cut] === '\n') cut++;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts;
}
