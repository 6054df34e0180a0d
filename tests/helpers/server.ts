/**
 * Starts the real local server on a free loopback port over the current build. Every answer it gives is
 * checked against the OpenAPI document (tests/helpers/contract-check.ts); tests/setup/contract.ts fails
 * the test file when any answer broke the contract. Its log lines are kept in `logs`; an error-level one (the
 * 500 of a throw outside the pipeline) is printed to the test's output too, not only kept.
 */
import { startServer, PROJECT_ROOT, type RunningServer, type ServerSettings } from '../../server/main.ts';
import { parseConfig } from '../../src/config.ts';
import type { Deps } from '../../src/adapters/composition-root.ts';
import { contractCheckers, createContractChecker, type ContractChecker } from './contract-check.ts';
import { reportError } from './test-log.ts';

/** The server over `opts.deps`, or over dependencies built from the test process's environment. */
export async function startTestServer(
  opts: ServerSettings & { deps?: Deps } = {},
): Promise<RunningServer & { logs: string[] }> {
  const lines: string[] = [];
  let checker: ContractChecker | undefined;
  const { deps, ...settings } = opts;
  const s = await startServer({
    ...(deps ? { deps } : { config: parseConfig(process.env) }),
    host: '127.0.0.1',
    port: 0,
    root: PROJECT_ROOT,
    log: (l) => {
      lines.push(l);
      reportError(l);
    },
    ...settings,
    inspect: (request, response) => {
      checker ??= createContractChecker(s.deps.content.origin);
      if (!contractCheckers.includes(checker)) contractCheckers.push(checker);
      checker.inspect(request, response);
      opts.inspect?.(request, response);
    },
  });
  return Object.assign(s, { logs: lines });
}

export { PROJECT_ROOT };
