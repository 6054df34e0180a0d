/**
 * @module An operation as a Vercel function: `export const { GET, POST, … } = vercelFunction(op)` in
 * `api/`. Every method goes to the pipeline (the operation's own, the preflight, or a 405 with `Allow`),
 * with the dependencies built once per instance from the environment.
 */
import { processDeps, type Deps } from '../adapters/deps.ts';
import type { FunctionOperation } from './operation.ts';
import { internalError, requestIdOf } from './answers.ts';
import { runOperation } from './pipeline.ts';

type Handler = (request: Request) => Promise<Response>;

export function vercelFunction(
  op: FunctionOperation,
): Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler> {
  const handle: Handler = async (request) => {
    let deps: Deps;
    try {
      deps = processDeps();
    } catch (e) {
      return internalError(requestIdOf(request), e); // a broken environment still answers with the Error body
    }
    // A function operation answers itself: the pipeline gives a Response (rewrites are the middleware's).
    return runOperation(op, request, deps);
  };
  return { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
}
