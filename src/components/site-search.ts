/**
 * The /search page's search: asks the site's search API (the same engine as the API and the MCP tool, so the
 * page and the API agree) and lists the results. When the API cannot answer (offline, an error, the visitor's
 * rate limit), the page hands over to Pagefind's static index instead (src/components/pagefind.ts).
 * Without JavaScript the form still works: it opens the API's JSON answer.
 *
 * A query that reads as a question (isQuestion) also goes to the chat's endpoint (POST /api/v1/ask) at the same
 * time; when the site answers it, the quoted sentences and the sections they come from show in a box above the
 * results (rendered by the chat's own renderer), with the handoff's offer and a button opening the chat. Each
 * of the two answers shows when it arrives; an unanswered question, or a failed ask, adds nothing.
 */
import { type Source, sourceName, type Turn, turnOf } from './chat/conversation.ts';
import { pathOf, plainText, renderAnswer } from './chat/render.ts';
import { loadPagefind } from './pagefind.ts';
import { bucketOf, track } from './track.ts';

interface Hit {
  slug: string;
  title: string;
  url: string;
  snippet: string;
}

const TITLE_SUFFIX = /\s+\|\s+[^|]+$/;
const DEBOUNCE_MS = 250;
/** The event the chat launcher (chat/launcher.ts) listens for on `document`; `detail.opener` gets focus back. */
const OPEN_CHAT = 'kartage:open-chat';
/** The longest question POST /api/v1/ask takes (src/contract/ask.ts ASK_LIMITS; the page does not bundle zod). */
const ASK_MAX = 500;
const QUESTION_WORDS = new Set(
  'how what when where which who why can could do does is are will would should'.split(' '),
);

/**
 * Whether a query reads as a question, so the page also asks the chat's endpoint: it ends with "?", starts with a
 * question word ("how", "what", "does", …; "what's" counts, "cancel" is not "can"), or has five words or more.
 */
export function isQuestion(query: string): boolean {
  const q = query.trim();
  if (!q) return false;
  if (/[?？]$/.test(q)) return true;
  const first = /^[^\p{L}\p{N}]*([\p{L}]+)/u.exec(q.toLowerCase())?.[1];
  if (first && QUESTION_WORDS.has(first)) return true;
  return q.split(/\s+/).length >= 5;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text = ''): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
};

/**
 * The box above the results (#search-answer, hidden until an answer arrives): the quoted sentences, the sections
 * they come from (links landing on each section, on this host), and the handoff's offer with a button opening
 * the chat. `say` is the polite live region that announces it once.
 */
function answerBox(box: HTMLElement, body: HTMLElement, say: HTMLElement | null) {
  const clear = () => {
    box.hidden = true;
    box.removeAttribute('aria-busy');
    body.replaceChildren();
    if (say) say.textContent = '';
  };
  const show = (t: Turn) => {
    const cited = t.sources.filter((s) => s.role === 'answer');
    const text = el('div', 'search-answer-text');
    // The chat's renderer: everything escaped, only inline marks and safe links become elements.
    text.innerHTML = renderAnswer(t.answer);
    // Links to the site's own pages stay on this host, as the sources' links do.
    const site = new Set(t.sources.map((s) => originOf(s.url)));
    for (const a of text.querySelectorAll<HTMLAnchorElement>('a[href]'))
      if (site.has(originOf(a.href))) a.setAttribute('href', pathOf(a.href));
    const parts: HTMLElement[] = [text];
    if (cited.length) parts.push(...sourceList(cited));
    if (t.handoff?.label) {
      const handoff = el('div', 'search-answer-handoff');
      const open = el('button', 'btn btn-secondary', 'Open the chat');
      open.type = 'button';
      open.addEventListener('click', () =>
        document.dispatchEvent(new CustomEvent(OPEN_CHAT, { detail: { opener: open } })),
      );
      handoff.append(el('p', '', t.handoff.label), open);
      parts.push(handoff);
    }
    body.replaceChildren(...parts);
    box.removeAttribute('aria-busy');
    box.hidden = false;
    if (say) {
      const links = cited.length ? ` ${cited.length} source${cited.length === 1 ? '' : 's'} linked.` : '';
      say.textContent = `Answer quoted from this website, above the results: ${plainText(t.answer)}${links}`;
    }
  };
  /** A newer question is on its way: the answer shown stays until its own answer replaces it. */
  const busy = () => {
    if (!box.hidden) box.setAttribute('aria-busy', 'true');
  };
  return { show, clear, busy };
}

function originOf(url: string): string {
  try {
    return new URL(url, location.href).origin;
  } catch {
    return '';
  }
}

/** The cited sections, numbered in the order the answer gives them, under their label. */
function sourceList(cited: Source[]): HTMLElement[] {
  const label = el('p', 'search-answer-label', cited.length === 1 ? 'Source' : 'Sources');
  label.id = 'search-answer-sources';
  const list = el('ol', 'search-answer-sources');
  list.setAttribute('aria-labelledby', label.id);
  for (const s of cited) {
    const a = el('a', '', sourceName(s));
    a.href = pathOf(s.url);
    const li = el('li');
    li.append(a);
    list.append(li);
  }
  return [label, list];
}

/** The search page's elements and state, shared by the functions below. */
interface Search {
  form: HTMLFormElement;
  input: HTMLInputElement;
  status: HTMLElement;
  list: HTMLElement;
  answer: ReturnType<typeof answerBox> | null;
  pending: AbortController | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  last: string;
  fellBack: boolean;
}

function showResults(s: Search, q: string, hits: Hit[]): void {
  track('search_run', { results: bucketOf(hits.length) });
  s.list.replaceChildren(
    ...hits.map((h) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = pathOf(h.url);
      a.textContent = h.title.replace(TITLE_SUFFIX, '');
      const p = document.createElement('p');
      p.textContent = h.snippet;
      li.append(a, p);
      return li;
    }),
  );
  s.status.textContent = hits.length
    ? `${hits.length} ${hits.length === 1 ? 'result' : 'results'} for “${q}”`
    : `No page holds every word of “${q}”. Try fewer or other words.`;
}

/** Asks the chat's endpoint beside the search; shows the answer only when the site has one. */
async function ask(s: Search, q: string, signal: AbortSignal): Promise<void> {
  if (!s.answer) return;
  s.answer.busy();
  let t: Turn | null = null;
  try {
    const res = await fetch('/api/v1/ask', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ question: q }),
      signal,
    });
    if (res.ok) t = turnOf(await res.json(), q);
  } catch {
    // No answer (offline, an error, the visitor's rate limit): the results are the page.
  }
  if (signal.aborted) return;
  if (t?.answered && t.answer.trim()) s.answer.show(t);
  else s.answer.clear();
}

/** Hands the page over to Pagefind's static index, once. */
function fallBack(s: Search, q: string): void {
  if (s.fellBack) return;
  s.fellBack = true;
  s.pending?.abort();
  s.answer?.clear();
  s.form.hidden = true;
  s.list.replaceChildren();
  s.status.textContent = 'Searching the site’s static index.';
  loadPagefind(q);
}

/** Keeps the query in the address bar (replacing, not adding, a history entry). */
function rememberQuery(q: string): void {
  const url = new URL(location.href);
  if (q) url.searchParams.set('q', q);
  else url.searchParams.delete('q');
  history.replaceState(null, '', url);
}

/** Asks the search API for `q` and shows its results; an API that does not answer hands over to Pagefind. */
async function search(s: Search, q: string, signal: AbortSignal): Promise<void> {
  try {
    const res = await fetch(`/api/v1/search?q=${encodeURIComponent(q)}&limit=10`, {
      headers: { accept: 'application/json' },
      signal,
    });
    if (signal.aborted) return;
    if (res.status === 400) {
      showResults(s, q, []);
      return;
    }
    if (!res.ok) throw new Error(`search API answered ${res.status}`);
    const body = (await res.json()) as { results: Hit[] };
    if (!signal.aborted) showResults(s, q, body.results);
  } catch (e) {
    if (signal.aborted) return;
    console.warn('site search: the API did not answer, using the static index', e);
    fallBack(s, q);
  }
}

/** Runs a query (unless it is the one shown): the results, and the chat's answer when it reads as a question. */
async function run(s: Search, query: string): Promise<void> {
  const q = query.trim();
  if (q === s.last || s.fellBack) return;
  s.last = q;
  rememberQuery(q);
  s.pending?.abort();
  if (q.length < 2) {
    s.list.replaceChildren();
    s.answer?.clear();
    s.status.textContent = q ? 'Type at least two characters.' : '';
    return;
  }
  const controller = (s.pending = new AbortController());
  // The answer and the results each show when they arrive: neither waits for the other.
  if (isQuestion(q) && [...q].length <= ASK_MAX) void ask(s, q, controller.signal);
  else s.answer?.clear();
  await search(s, q, controller.signal);
}

/** Wires the /search page: the API's results as the visitor types, the query from the address on load. */
export function initSiteSearch(): void {
  const form = document.getElementById('search-form') as HTMLFormElement | null;
  const input = document.getElementById('search-q') as HTMLInputElement | null;
  const status = document.getElementById('search-status');
  const list = document.getElementById('search-results');
  const box = document.getElementById('search-answer');
  const boxBody = document.getElementById('search-answer-body');
  if (!form || !input || !status || !list) return;
  document.getElementById('search-hint')?.setAttribute('hidden', '');
  form.dataset.engine = 'api';
  const answer = box && boxBody ? answerBox(box, boxBody, document.getElementById('search-answer-status')) : null;
  const s: Search = {
    form,
    input,
    status,
    list,
    answer,
    pending: undefined,
    timer: undefined,
    last: '',
    fellBack: false,
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(s.timer);
    s.last = '';
    void run(s, input.value);
  });
  input.addEventListener('input', () => {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => void run(s, input.value), DEBOUNCE_MS);
  });

  const q = new URLSearchParams(location.search).get('q');
  if (q) {
    input.value = q;
    void run(s, q);
  }
}
