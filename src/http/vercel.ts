/**
 * @module An operation as a Vercel function: `export const { GET, POST, … } = vercelFunction(op)` in
 * `api/`. Every method goes to the pipeline (the operation's own, the preflight, or a 405 with `Allow`),
 * with the dependencies built once per instance. This is the functions' entry point: the environment is
 * read here, once, on the first request (a malformed setting answers that request with the Error body, and
 * the next request tries again).
 */
import { parseConfig } from '../config.ts';
import { createDeps, type Deps } from '../adapters/composition-root.ts';
import type { FunctionOperation } from './operation.ts';
import { internalError, requestIdOf } from './answers.ts';
import { runOperation } from './pipeline.ts';

type Handler = (request: Request) => Promise<Response>;

let instance: Deps | undefined;

/** This instance's dependencies: built from `process.env` on first use, kept for its warm invocations. */
function instanceDeps(): Deps {
  return (instance ??= createDeps({ config: parseConfig(process.env) }));
}

export function vercelFunction(
  op: FunctionOperation,
): Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler> {
  const handle: Handler = async (request) => {
    let deps: Deps;
    try {
      deps = instanceDeps();
    } catch (e) {
      return internalError(requestIdOf(request), e); // a broken environment still answers with the Error body
    }
    // A function operation answers itself: the pipeline gives a Response (rewrites are the middleware's).
    return runOperation(op, request, deps);
  };
  return { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
}
