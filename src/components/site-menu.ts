/** Closes the header's open menus on Escape or a click outside them. The menus work without this. */
export function initMenus(): void {
  const open = () => document.querySelectorAll<HTMLDetailsElement>('.site-header details[open]');
  document.addEventListener('click', (e) => {
    for (const d of open()) if (!d.contains(e.target as Node)) d.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    for (const d of open()) {
      d.open = false;
      d.querySelector('summary')?.focus();
    }
  });
}
