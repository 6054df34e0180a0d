/**
 * The log a test gives its dependencies. Quiet for what a request logs in passing (a refused body, a store
 * warning), but an error-level event, above all the pipeline's `unhandled_error` (the 500 of an unexpected
 * throw, src/http/answers.ts), is printed with its stack to the test's output and fails the test unless the
 * test said it expects one: a missing build or a thrown bug then reads as its cause, not as "expected 500 to
 * be 200".
 */
import { afterEach, expect } from 'vitest';
import type { Log } from '../../src/core/ports.ts';

/**
 * Prints one log line to the running test's output when it is an error-level event, and returns its event
 * and first line of error (`unhandled_error: Error: cannot read …`), or undefined for any other line.
 */
export function reportError(line: string): string | undefined {
  let event: { level?: unknown; event?: unknown; error?: unknown } | undefined;
  try {
    event = JSON.parse(line) as typeof event;
  } catch {
    return undefined; // not a JSON event line
  }
  if (event?.level !== 'error') return undefined;
  console.error(`[error logged during the test] ${line}`);
  return `${String(event.event)}: ${String(event.error ?? '').split('\n')[0]}`;
}

export interface WatchedLog {
  /** For `createDeps({ log })`. */
  log: Log;
  /** For `startServer({ log })`: its request lines, and the 500s of a throw outside the pipeline. */
  serverLog(line: string): void;
  /** The running test answers a 500 on purpose: its error-level events pass (and are not printed). */
  expectErrors(): void;
}

/**
 * A log for the test file's dependencies, checked after each test. Call it at the top of a test file (it
 * registers an `afterEach`), and `expectErrors()` in a test that asserts a 500.
 */
export function watchedLog(): WatchedLog {
  let expected = false;
  const unexpected: string[] = [];
  const take = (line: string) => {
    const error = expected ? undefined : reportError(line);
    if (error) unexpected.push(error);
  };
  afterEach(() => {
    const lines = unexpected.splice(0);
    expected = false;
    expect(lines, 'error-level events logged by a test that expects none (printed above)').toEqual([]);
  });
  return {
    log: (event, fields = {}) => take(JSON.stringify({ level: 'warn', event, ...fields })),
    serverLog: take,
    expectErrors: () => {
      expected = true;
    },
  };
}
