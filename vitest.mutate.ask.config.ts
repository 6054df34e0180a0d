/**
 * The tests `npm run mutate:ask` (stryker.ask.config.mjs) runs against each mutant of the chat engine: the stage
 * tests of tests/core/ask (a small hand-made site, in process). The judged sets (tests/core/ask.smoke.test.ts,
 * eval/ask) are left out: they read the whole build for each mutant.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/core/ask/**/*.test.ts'],
    setupFiles: ['tests/setup/var-dir.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
