/** @module The contract's numeric limits (SPEC.md "Limits"), in one place for code, docs and tests. */

export const LIMITS = {
  read: { limit: 120, windowSeconds: 60 },
  lead: { limit: 5, windowSeconds: 3600 },
  idempotencyWindowSeconds: 24 * 3600,
  idempotencyKeyMax: 200,
  batchMax: 50,
  listLimit: { min: 1, max: 100, default: 100 },
  searchLimit: { min: 1, max: 50, default: 10 },
  searchMinLength: 2,
  lead_fields: { name: 120, email: 200, company: 200, phone: 40, country: 60, message: 4000 },
  cacheSeconds: 300,
  leadBodyBytes: 64 * 1024,
  readBodyBytes: 64 * 1024,
  /** Most messages of one JSON-RPC batch to /mcp (older protocols; newer ones have no batches). */
  mcpBatchMax: 10,
} as const;

/** POST /api/v1/ask (the chat): the question, the earlier turns, the sections a turn cites, the body. */
export const ASK_LIMITS = {
  questionMin: 2,
  questionMax: 500,
  turnsMax: 10,
  sourcesMax: 5,
  bodyBytes: 16 * 1024,
} as const;

/** `RateLimit-Policy` value for a limit, e.g. `120;w=60`. */
export const policyOf = (l: { limit: number; windowSeconds: number }) => `${l.limit};w=${l.windowSeconds}`;
