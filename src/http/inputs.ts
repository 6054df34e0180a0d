/** @module What the pipeline reads of a request's inputs: the query as an object, and a readable first issue. */
import type { z } from 'zod';

/** The first issue as one sentence naming the parameter, e.g. "limit must be from 1 to 100". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.join('.');
  return issue.message.startsWith(where) || !where ? issue.message : `${where}: ${issue.message}`;
}

/** Query parameters as an object; a repeated parameter keeps its first value. */
export function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(request.url).searchParams) if (!(k in out)) out[k] = v;
  return out;
}
