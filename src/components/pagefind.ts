/** Loads Pagefind's UI (generated at build into /pagefind/) and hands the search over to it. */
declare global {
  interface Window {
    PagefindUI?: new (opts: Record<string, unknown>) => { triggerSearch(q: string): void };
  }
}

export function loadPagefind(): void {
  const target = document.getElementById('search');
  if (!target) return;
  const script = document.createElement('script');
  script.src = '/pagefind/pagefind-ui.js';
  script.onload = () => {
    if (!window.PagefindUI) return;
    const ui = new window.PagefindUI({ element: '#search', showSubResults: true, showImages: false });
    document.getElementById('search-fallback')?.setAttribute('hidden', '');
    target.querySelector('input')?.setAttribute('aria-label', 'Search the Kartage site');
    const q = new URLSearchParams(location.search).get('q');
    if (q) ui.triggerSearch(q);
    target.querySelector<HTMLInputElement>('input')?.focus();
  };
  document.head.append(script);
}
