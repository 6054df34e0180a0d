/**
 * @module The chat's conversation: its turns as POST /api/v1/ask answers them, kept for the tab in
 * sessionStorage (nothing server-side), the earlier turns a question carries, and the conversation written into
 * a lead's `message` so sales never asks the visitor to repeat it. No DOM, so it is tested in node.
 */
import { CHAT_HEADER, withoutInvisible } from '../../contract/lead-values.ts';

export { CHAT_HEADER };

export type Role = 'answer' | 'related';
export type Intent = 'demo' | 'contact' | 'callback' | 'message';

export interface Source {
  slug: string;
  title: string;
  heading: string | null;
  url: string;
  role: Role;
}
export interface Handoff {
  intent: Intent;
  label: string;
  url: string;
}
/** One question and its answer, as kept (a source's `text` is left out: the answer already quotes it). */
export interface Turn {
  question: string;
  answered: boolean;
  answer: string;
  sources: Source[];
  handoff: Handoff | null;
}

export const STORAGE_KEY = 'kartage:chat';
/** Earlier turns a question may carry (the API's limit). */
export const HISTORY_MAX = 10;
/** Turns kept for the tab. */
const KEEP = 50;
/** The lead's `message` limit, in characters (SPEC.md "Lead"). */
export const MESSAGE_MAX = 4000;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const INTENTS: readonly string[] = ['demo', 'contact', 'callback', 'message'];

/** A turn from an answer (or from storage): only the fields the chat uses, each of the expected type. */
export function turnOf(body: unknown, question: string): Turn {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const sources = (Array.isArray(b.sources) ? b.sources : [])
    .filter((s): s is Record<string, unknown> => !!s && typeof s === 'object')
    .map((s) => ({
      slug: str(s.slug),
      title: str(s.title) || str(s.slug),
      heading: typeof s.heading === 'string' ? s.heading : null,
      url: str(s.url),
      role: (s.role === 'related' ? 'related' : 'answer') as Role,
    }))
    .filter((s) => s.url);
  const h = b.handoff as Record<string, unknown> | null | undefined;
  const handoff =
    h && typeof h === 'object' && INTENTS.includes(str(h.intent))
      ? { intent: str(h.intent) as Intent, label: str(h.label), url: str(h.url) }
      : null;
  return {
    question: str(b.question) || question,
    answered: b.answered === true,
    answer: str(b.answer),
    sources,
    handoff,
  };
}

/** The `conversation` of a request: the last 10 turns, oldest first, each with the sections it cited. */
export function historyOf(
  turns: readonly Turn[],
): { question: string; sources: { slug: string; heading: string | null }[] }[] {
  return turns.slice(-HISTORY_MAX).map((t) => ({
    question: t.question,
    sources: t.sources.filter((s) => s.role === 'answer').map((s) => ({ slug: s.slug, heading: s.heading })),
  }));
}

/** This tab's conversation ([] when there is none or storage is unavailable). */
export function loadTurns(storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage): Turn[] {
  try {
    const saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(saved)
      ? saved.map((t) => turnOf(t, str((t as Turn)?.question))).filter((t) => t.question)
      : [];
  } catch {
    return [];
  }
}

/** Keeps the conversation for the tab (the last 50 turns); a full or blocked storage keeps it for this page. */
export function saveTurns(
  turns: readonly Turn[],
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.sessionStorage,
): void {
  try {
    if (turns.length) storage?.setItem(STORAGE_KEY, JSON.stringify(turns.slice(-KEEP)));
    else storage?.removeItem(STORAGE_KEY);
  } catch {
    // Private mode or a full quota: the conversation lives as long as the page.
  }
}

/** A section's address without the text fragment (`#anchor`, or the page when it has none). */
export const sectionUrl = (url: string): string => url.replace(/:~:.*$/, '').replace(/#$/, '');

/** A source's name as the chat shows it: "Title: Heading", or the title for a page intro. */
export const sourceName = (s: Pick<Source, 'title' | 'heading'>): string =>
  s.heading && s.heading !== s.title ? `${s.title}: ${s.heading}` : s.title;

const chars = (s: string) => [...s].length;
const cut = (s: string, max: number) => (chars(s) <= max ? s : `${[...s].slice(0, max - 1).join('')}…`);

/**
 * A lead's `message`: the visitor's own words first, then CHAT_HEADER (which says the browser wrote it)
 * with each question and the sections its answer cited (name and URL). Within `max` characters: the oldest
 * questions go first (with a line saying how many), and the visitor's own words are cut only when they alone
 * do not fit.
 */
export function leadMessage(own: string, turns: readonly Turn[], max = MESSAGE_MAX): string {
  const mine = cut(withoutInvisible(own).trim(), max);
  const entries = turns.map((t) => {
    const cited = t.sources.filter((s) => s.role === 'answer');
    const lines = [`- ${withoutInvisible(t.question).replace(/\s+/g, ' ').trim()}`];
    if (!t.answered) lines.push('  (the website had no answer)');
    for (const s of cited) lines.push(`  ${sourceName(s)} (${sectionUrl(s.url)})`);
    return lines.join('\n');
  });
  const compose = (from: number): string => {
    const left = from ? [`(${from} earlier question${from === 1 ? '' : 's'} left out)`] : [];
    const chat = [CHAT_HEADER, ...left, ...entries.slice(from)].join('\n');
    return mine ? `${mine}\n\n${chat}` : chat;
  };
  if (!entries.length) return mine;
  for (let from = 0; from < entries.length; from++) {
    const message = compose(from);
    if (chars(message) <= max) return message;
  }
  // Not even the last question fits beside the visitor's words: those come first.
  return cut(compose(entries.length - 1), max);
}
