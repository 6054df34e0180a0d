/**
 * `npm run mutate:ask`: Stryker's mutation score for the chat engine (src/core/ask) over its stage tests
 * (vitest.mutate.ask.config.ts). Apart from `npm run mutate`, whose run it would more than double. Incremental:
 * a rerun tests only mutants whose code or covering tests changed since bench/mutation-ask-incremental.json;
 * `npm run mutate:ask -- --force` retests everything. The score is in bench/mutation.md.
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'vitest.mutate.ask.config.ts', pool: 'forks' },
  mutate: ['src/core/ask/**/*.ts'],
  incrementalFile: 'bench/mutation-ask-incremental.json',
  htmlReporter: { fileName: 'reports/mutation-ask/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation-ask/mutation.json' },
  thresholds: { high: 85, low: 80, break: null },
};
