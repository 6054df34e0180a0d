/** @module Parses query strings and bodies with the contract's schemas into values or a 400 Error response. */
import type { z } from 'zod';
import { errorResponse } from './http.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The first issue as one sentence naming the parameter, e.g. "limit must be from 1 to 100". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.join('.');
  return issue.message.startsWith(where) || !where ? issue.message : `${where}: ${issue.message}`;
}

export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  headers: Record<string, string> = {},
): Parsed<z.output<S>> {
  const r = schema.safeParse(input);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, response: errorResponse(400, describeIssue(r.error), headers) };
}

/** Query parameters as an object; a repeated parameter keeps its first value. */
export function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(request.url).searchParams) if (!(k in out)) out[k] = v;
  return out;
}
