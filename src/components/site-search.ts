/**
 * The /search page's search: asks the site's search API (the same engine as the API and the MCP tool, so the
 * page and the API agree) and lists the results. When the API cannot answer (offline, an error, the visitor's
 * rate limit), the page hands over to Pagefind's static index instead (src/components/pagefind.ts).
 * Without JavaScript the form still works: it opens the API's JSON answer.
 */
import { loadPagefind } from './pagefind.ts';

interface Hit {
  slug: string;
  title: string;
  url: string;
  snippet: string;
}

const TITLE_SUFFIX = /\s+\|\s+[^|]+$/;
const DEBOUNCE_MS = 250;

/** Same-origin path of a result URL (the API answers canonical URLs; the visitor stays on this host). */
function pathOf(url: string): string {
  try {
    const u = new URL(url, location.href);
    return u.pathname + u.search + u.hash;
  } catch {
    return url;
  }
}

export function initSiteSearch(): void {
  const form = document.getElementById('search-form') as HTMLFormElement | null;
  const input = document.getElementById('search-q') as HTMLInputElement | null;
  const status = document.getElementById('search-status');
  const list = document.getElementById('search-results');
  if (!form || !input || !status || !list) return;
  document.getElementById('search-hint')?.setAttribute('hidden', '');
  form.dataset.engine = 'api';

  let pending: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  let fellBack = false;

  const show = (q: string, hits: Hit[]) => {
    list.replaceChildren(
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
    status.textContent = hits.length
      ? `${hits.length} ${hits.length === 1 ? 'result' : 'results'} for “${q}”`
      : `No page holds every word of “${q}”. Try fewer or other words.`;
  };

  const fallBack = (q: string) => {
    if (fellBack) return;
    fellBack = true;
    pending?.abort();
    form.hidden = true;
    list.replaceChildren();
    status.textContent = 'Searching the site’s static index.';
    loadPagefind(q);
  };

  const run = async (q: string) => {
    q = q.trim();
    if (q === last || fellBack) return;
    last = q;
    const url = new URL(location.href);
    if (q) url.searchParams.set('q', q);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
    pending?.abort();
    if (q.length < 2) {
      list.replaceChildren();
      status.textContent = q ? 'Type at least two characters.' : '';
      return;
    }
    const controller = (pending = new AbortController());
    try {
      const res = await fetch(`/api/v1/search?q=${encodeURIComponent(q)}&limit=10`, {
        headers: { accept: 'application/json' },
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      if (res.status === 400) {
        show(q, []);
        return;
      }
      if (!res.ok) throw new Error(`search API answered ${res.status}`);
      const body = (await res.json()) as { results: Hit[] };
      if (!controller.signal.aborted) show(q, body.results);
    } catch (e) {
      if (controller.signal.aborted) return;
      console.warn('site search: the API did not answer, using the static index', e);
      fallBack(q);
    }
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    last = '';
    void run(input.value);
  });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(input.value), DEBOUNCE_MS);
  });

  const q = new URLSearchParams(location.search).get('q');
  if (q) {
    input.value = q;
    void run(q);
  }
}
