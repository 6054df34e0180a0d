/**
 * The tests `npm run mutate` (stryker.config.mjs) runs against each mutant: the in-process unit and
 * component tests of the domain and the lead path, a few seconds each. Left out: Playwright, bench, fuzz
 * (thousands of generated requests per mutant), the real-socket server suites of tests/server (tens of
 * seconds, and several count a rate window on the real clock), the OpenAPI linters (external rule sets,
 * nothing of src/core or src/adapters), the helpers' own tests, and the ask module's tests (tests/core/ask/ and
 * tests/core/ask*.test.ts:
 * the ask module is outside the mutated scope, and its judged question sets would rerun, at half a second
 * and more each, for every mutant of the search and content code they pass through).
 * Also left out: tests/adapters/content-files.test.ts (the file-backed content source, outside the scope;
 * it reran every judged query, 5 s a run under load, for each search mutant that search.judged holds too).
 * Also left out: tests/contract/generated-client.test.ts and prism.test.ts: they run external tools over the
 * served document (openapi-typescript and tsc over a consumer project, the Prism proxy) for every mutant they
 * cover, and the generated client's first step failed Stryker's dry run on this machine under load.
 * The contract check after each file (tests/setup/contract.ts) is loaded only by the files that start a test
 * server (tests/adapters/mutation-contract.setup.ts): it imports the whole app and ajv into every fork.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'tests/core/**/*.test.ts',
      'tests/adapters/**/*.test.ts',
      'tests/http/**/*.test.ts',
      'tests/contract/**/*.test.ts',
      'tests/operations/**/*.test.ts',
    ],
    exclude: [
      'tests/http/openapi.lint.test.ts',
      'tests/contract/generated-client.test.ts',
      'tests/contract/prism.test.ts',
      'tests/core/ask*.test.ts',
      'tests/core/ask/**',
      'tests/adapters/content-files.test.ts',
    ],
    setupFiles: ['tests/setup/var-dir.ts', 'tests/adapters/mutation-contract.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
