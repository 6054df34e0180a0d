/**
 * @module The site's sections as the judged sets name them, read from a build's pages (their markdown twins), with
 * no part of the engine: a section is the text under a `##` or `###` heading up to the next heading, the page
 * intro (heading null) the title, lead and text before the first `##`. Judged references, engine sources and the
 * baselines' sections meet on `sectionKey` (slug and normalised heading).
 */
import { createContentFiles } from '../../src/adapters/content-files.ts';

/** One section of a built page. */
export interface SiteSection {
  slug: string;
  title: string;
  /** The page's URL. */
  url: string;
  /** The heading as the page's markdown writes it (marks removed); null for the intro. */
  heading: string | null;
  /** The section's markdown, heading line first. */
  text: string;
  /** The text without its heading line (the intro without its `# Title`). */
  body: string;
}

/** Inline markdown to what a reader sees: links and images to their text, emphasis, code marks and escapes gone. */
export function plainText(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?!\w)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A heading as a key: plain text, straight quotes, lower case, single spaces (null: the intro). */
export const headingKey = (heading: string | null): string =>
  heading === null ? '' : plainText(heading).replace(/[‘’]/g, "'").replace(/[“”]/g, '"').toLowerCase();

/** A section's key: its page's slug and its normalised heading. */
export const sectionKey = (s: { slug: string; heading: string | null }) => `${s.slug}#${headingKey(s.heading)}`;

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** A page's sections from its markdown (sections with no text under their heading are left out). */
export function sectionsOfPage(page: { slug: string; title: string; url: string; markdown: string }): SiteSection[] {
  const lines = page.markdown.split('\n');
  const cuts: { line: number; depth: number; heading: string }[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    if (FENCE.test(line)) fenced = !fenced;
    const m = fenced ? null : HEADING.exec(line);
    if (m) cuts.push({ line: i, depth: m[1]!.length, heading: m[2]! });
  });
  const out: SiteSection[] = [];
  const add = (heading: string | null, from: number, to: number, skipFirst: boolean) => {
    const text = lines.slice(from, to).join('\n').trim();
    const body = lines
      .slice(skipFirst ? from + 1 : from, to)
      .join('\n')
      .trim();
    if (body) out.push({ slug: page.slug, title: page.title, url: page.url, heading, text, body });
  };
  const first = cuts.find((c) => c.depth === 2 || c.depth === 3);
  const introEnd = first ? first.line : lines.length;
  const titled = cuts[0]?.line === 0 && cuts[0].depth === 1;
  add(null, 0, introEnd, titled);
  cuts.forEach((cut, i) => {
    if ((cut.depth !== 2 && cut.depth !== 3) || cut.line < introEnd) return;
    add(plainText(cut.heading), cut.line, cuts[i + 1]?.line ?? lines.length, true);
  });
  return out;
}

/** Every section of a build's pages (the data folder `node server/build-check.ts` writes, e.g. `build/`). */
export function siteSections(buildDir: string): SiteSection[] {
  const content = createContentFiles(buildDir);
  return content.entries().flatMap((e) => {
    const page = content.page(e.slug);
    return page ? sectionsOfPage(page) : [];
  });
}

/** The judged references (slug and heading) no section of the site has, as `slug # heading`. */
export function unknownRefs(
  sections: readonly SiteSection[],
  refs: readonly { slug: string; heading: string | null }[],
): string[] {
  const keys = new Set(sections.map(sectionKey));
  return refs.filter((r) => !keys.has(sectionKey(r))).map((r) => `${r.slug} # ${r.heading}`);
}
