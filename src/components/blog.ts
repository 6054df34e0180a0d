/** Post summaries passed from getStaticPaths to the blog index and to each post. */
export interface PostSummary {
  slug: string;
  title: string;
  description: string;
  published: string;
  updated?: string;
  author: string;
  tags: string[];
}

/** Up to `n` other posts: those sharing the most tags first, then the newest. */
export function related(posts: PostSummary[], current: PostSummary, n = 3): PostSummary[] {
  const shared = (p: PostSummary) => p.tags.filter((t) => current.tags.includes(t)).length;
  return posts
    .filter((p) => p.slug !== current.slug)
    .map((p, i) => ({ p, score: shared(p), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, n)
    .map(({ p }) => p);
}

/** `Mel Nguyen, Head of Customer Success` -> name and role. */
export function splitAuthor(author: string): { name: string; role?: string } {
  const i = author.indexOf(',');
  return i < 0 ? { name: author } : { name: author.slice(0, i).trim(), role: author.slice(i + 1).trim() };
}
