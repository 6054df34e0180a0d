/**
 * The names of the folder and files the build writes for the functions (DATA_DIR in src/config.ts, the files
 * in src/core/content.ts): the derive step, vercel.json's included files and the loaders all go by them, so
 * they are held as written, on a fresh import (module-level constants: `npm run mutate` switches a mutant of
 * them on only for a module loaded in the test).
 */
import { expect, it, vi } from 'vitest';

it('the build folder is build/, with content.json and search-index.json', async () => {
  vi.resetModules();
  const { CONTENT_FILE, SEARCH_FILE } = await import('../../src/core/content.ts');
  const { DATA_DIR } = await import('../../src/config.ts');
  expect([DATA_DIR, CONTENT_FILE, SEARCH_FILE]).toEqual(['build', 'content.json', 'search-index.json']);
});
