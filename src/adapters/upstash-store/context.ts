/** @module What each part of the Upstash store works with: two bounded REST clients, the keys, the deadline. */
import { Redis } from '@upstash/redis';

/** The store's clients, bounds and keys. */
export interface UpstashContext {
  /** The read budget's client: cut off after `timeoutMs`, one retry. */
  reads: Redis;
  /** The lead path's client (lead budget, idempotency, outbox, dead letters): a longer bound, two retries. */
  leads: Redis;
  timeoutMs: number;
  prefix: string;
  /** `k` under the store's prefix. */
  key(k: string): string;
  /** The epoch ms (as a script argument) after which a lead-path script does nothing (`LATE`). */
  deadline(): string;
}

/** Margin between a script's deadline and the caller's bound, so a script that ran has time to answer. */
const DEADLINE_MARGIN_MS = 100;

/** Refuses a script Redis reaches after ARGV[1] (epoch ms): its caller gave up, so a 502 means "not recorded". */
export const LATE = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[1]) then
  return redis.error_reply('LATE: ran after its deadline, did nothing')
end
`;

/** The context of a store on the Upstash database at `url`. */
export function contextOf(o: {
  url: string;
  token: string;
  timeoutMs: number;
  leadTimeoutMs: number;
  prefix: string;
}): UpstashContext {
  const client = (bound: number, retries: number) =>
    new Redis({
      url: o.url,
      token: o.token,
      automaticDeserialization: false,
      enableTelemetry: false,
      retry: { retries, backoff: (n) => 20 * (n + 1) },
      // A fresh signal per request: the bound covers the request and its retries.
      signal: () => AbortSignal.timeout(bound),
    });
  const { leadTimeoutMs } = o;
  return {
    reads: client(o.timeoutMs, 1),
    leads: client(leadTimeoutMs, 2),
    timeoutMs: o.timeoutMs,
    prefix: o.prefix,
    key: (k) => `${o.prefix}:${k}`,
    deadline: () => String(Date.now() + Math.max(leadTimeoutMs / 2, leadTimeoutMs - DEADLINE_MARGIN_MS)),
  };
}
