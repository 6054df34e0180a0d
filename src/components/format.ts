/** Formatting helpers shared by the page components. */

/** `2024-02-20` -> `20 February 2024` (dates are calendar dates, so format them in UTC). */
export function longDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-AU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** Whole dollars: 1890 -> `$1,890`. */
export function aud(n: number): string {
  return `$${n.toLocaleString('en-AU')}`;
}

/** Names as prose: `Starter`, `Starter and Growth`, `Starter, Growth and Professional`. */
export function andList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
