/**
 * @module Pieces the operations' response declarations share: the Error answer, the 429, the 413, and a
 * sample page. Example error texts are the ones the code produces (the 429's from src/core/rate-limit.ts).
 */
import { policyOf } from '../contract/limits.ts';
import { ErrorSchema } from '../contract/schemas.ts';
import { READ_POLICY, refusalText } from '../core/rate-limit.ts';
import type { LimitPolicy } from '../core/ports.ts';
import { RATE_HEADERS, type HeaderName, type ResponseSpec } from '../http/operation.ts';

/** An Error answer: its description, an example text and the headers it carries. */
export function errorDoc(
  description: string,
  example: string,
  status: number,
  headers: readonly HeaderName[] = [],
): ResponseSpec {
  return { description, schema: ErrorSchema, example: { error: example, status }, headers };
}

/** The 429 of a metered operation. */
export function tooManyDoc(policy: LimitPolicy, description?: string): ResponseSpec {
  return errorDoc(
    description ?? `Rate limit exceeded (${policyOf(policy)}). Wait Retry-After seconds.`,
    refusalText(policy, 12),
    429,
    [...RATE_HEADERS, 'Retry-After'],
  );
}

/** A body limit in KB, as the descriptions say it. */
export const KB = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** The 413 of an operation with a body of at most `bytes`. */
export const tooLargeDoc = (bytes: number): ResponseSpec =>
  errorDoc(`The body is larger than ${KB(bytes)}.`, `Request body is larger than ${bytes} bytes`, 413);

/** The 400 of a metered read whose input the schema refused (it still spent a read). */
export const badReadDoc = (description: string, example: string): ResponseSpec =>
  errorDoc(description, example, 400, RATE_HEADERS);

/** A public read: metered as a read, kept by private caches only, open to any origin, in the OpenAPI document. */
export const PUBLIC_READ = { meter: 'read', cache: 'metered', cors: true, public: true } as const;

/** The read budget's 429. */
export const READ_429 = tooManyDoc(READ_POLICY);

export const SAMPLE_PAGE = {
  slug: 'pricing',
  title: 'Pricing | Kartage',
  description: 'Plans for removalists and storage operators.',
  url: 'https://kartage.com.au/pricing',
  markdown_url: 'https://kartage.com.au/pricing.md',
  updated: '2026-10-01',
};
