/**
 * `npm run mutate`: Stryker's mutation score for the domain (src/core), the stores and lead path of
 * src/adapters and the request helpers of src/http, over the fast in-process tests of
 * vitest.mutate.config.ts. Not part of `npm test`: it runs the covering tests once per mutant (see
 * bench/mutation.md for the score, run time and every survivor).
 * Incremental: a rerun tests only mutants whose code or covering tests changed since the last run recorded
 * in bench/mutation-incremental.json (tracked, so a later commit reruns only what it changed);
 * `npm run mutate -- --force` retests everything.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', pool: 'forks' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/core/**/*.ts',
    '!src/core/**/*.d.ts',
    // The ask module (3,100 of the 7,800 mutants) is judged on whole question sets: with it the run takes
    // over an hour on 2 cores. Its answers are held by tests/core/ask*.test.ts and the judged sets instead.
    '!src/core/ask/**',
    'src/adapters/{sqlite-store,memory-store,upstash-store}/*.ts',
    'src/adapters/fallback-store.ts',
    'src/adapters/{hubspot-sink,webhook-sink,notifiers}.ts',
    'src/http/{accept,edge,client-address,deprecation,responses,request-body,form-post}.ts',
  ],
  coverageAnalysis: 'perTest',
  // Vitest does not type-check; the `@ts-nocheck` Stryker adds by default would also change the generated
  // api/ files that tests/operations compares with what `npm run gen:vercel` writes.
  disableTypeChecks: 'src/**/*.ts',
  // A mutant in module-level code (the phrase and stop-word tables, constants) needs a fresh module load and
  // every test: 36 % of the mutants and 90 % of the run time. They are left out and counted as ignored.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'bench/mutation-incremental.json',
  concurrency: 2,
  // A mutant's limit is 1.5 x its covering tests' dry-run time plus this. Mutants that never end (the
  // idempotency wait, the flush loops) are cut after it; 4 s still leaves a loaded 2-core machine room
  // for a normal run of the slowest covering tests (the store suite over Upstash, ~4 s in the dry run).
  timeoutMS: 4_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 85, low: 75, break: null },
  // Not read by the tests; .tools alone is ~190 MB to copy into every sandbox.
  ignorePatterns: ['/.tools', '/test-results', '/playwright-report', '/var', '/.astro', '/.vercel', '/bench/results'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
