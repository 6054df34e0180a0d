/**
 * tests/setup/contract.ts for `npm run mutate` (vitest.mutate.config.ts): the after-all check that every
 * answer of a test server kept the contract, loaded only in a test file that starts one (the checker loads
 * the whole app and ajv: about 0.7 s for every test file, and so for every mutant, where nothing is checked).
 */
import { readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const testPath = expect.getState().testPath;
if (!testPath) throw new Error('mutation-contract.setup.ts: vitest did not say which test file runs');

if (readFileSync(testPath, 'utf8').includes('startTestServer')) {
  afterAll(async () => {
    const { contractCheckers } = await import('../helpers/contract-check.ts');
    const violations = (await Promise.all(contractCheckers.map((c) => c.violations()))).flat();
    expect(violations, 'answers that break the OpenAPI contract').toEqual([]);
  });
}
