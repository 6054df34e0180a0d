/**
 * Pagefind's UI (generated at build into /pagefind/): the /search page's fallback when the search API cannot
 * answer (src/components/site-search.ts). Runs the visitor's query `q` at once when given.
 */
declare global {
  interface Window {
    PagefindUI?: new (opts: Record<string, unknown>) => { triggerSearch(q: string): void };
  }
}

export function loadPagefind(q?: string): void {
  const target = document.getElementById('search');
  if (!target) return;
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '/pagefind/pagefind-ui.css';
  const script = document.createElement('script');
  script.src = '/pagefind/pagefind-ui.js';
  script.onload = () => {
    if (!window.PagefindUI) return;
    const ui = new window.PagefindUI({ element: '#search', showSubResults: true, showImages: false });
    target.querySelector('input')?.setAttribute('aria-label', 'Search the Kartage site');
    target.dataset.engine = 'pagefind';
    const query = q ?? new URLSearchParams(location.search).get('q');
    if (query) ui.triggerSearch(query);
    target.querySelector<HTMLInputElement>('input')?.focus();
  };
  document.head.append(css, script);
}
