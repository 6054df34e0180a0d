/** After each test file: every answer of every test server kept the contract (tests/helpers/contract-check.ts). */
import { afterAll, expect } from 'vitest';
import { contractCheckers } from '../helpers/contract-check.ts';

afterAll(async () => {
  const violations = (await Promise.all(contractCheckers.map((c) => c.violations()))).flat();
  expect(violations, 'answers that break the OpenAPI contract').toEqual([]);
});
