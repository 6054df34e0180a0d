/**
 * @module The production store: Upstash Redis over its REST API (`@upstash/redis`), shared by every
 * function instance. Every operation is one round trip (one Lua script, EVALSHA) and is cut off after a
 * bound: `timeoutMs` for the read budget (a read must stay fast), `leadTimeoutMs` for everything on the
 * lead path (leads are rare; a Redis catching up after a stall is worth a second or two). A lead-path
 * script carries a deadline and does nothing when Redis runs it after that (a command delayed in a
 * stalled Redis never lands after the caller gave up on it: a 502 means "not recorded").
 *
 * Reads: `@upstash/ratelimit`'s `Ratelimit.slidingWindow` (two fixed windows, the previous one weighted; one
 * script per read), with its timeout (past it the read falls back to this instance's own count, never to none:
 * src/adapters/fallback-store.ts) and, only when `analytics` is set, its analytics; its ephemeral cache is off
 * (see `readLimiter`). A refusal costs one more round trip, once, to say when a unit frees. The library reads
 * the clock itself (`Date.now()`); the other engines decide alike from the caller's `now`
 * (src/core/rate-limit.ts). Leads: a sliding log, one sorted set per client (the library has no exact log, and
 * the contract's lead reset is "seconds until a slot frees"). The outbox: a sorted set of delivery ids scored by
 * when each may next be claimed (queue order, then lease end or the end of a retry's backoff), a hash of payloads,
 * a hash of attempt
 * counts and a hash of queue times; its dead letters a hash of JSON letters (`<prefix>:outbox:dead`), each
 * numbered from a counter so they list oldest first, with a sorted set of those sales were not yet told of, scored
 * by when their alert is next due (lease end, or the end of its backoff); its quarantine a list. Unanswered
 * questions: a sorted set of counts (the score also carries the last-asked second, so the report ranks by count,
 * then recency), a hash of their scrubbed texts, a sorted set of last-asked seconds (the stale make room first)
 * and one of the flood-shaped (ranked as the counts: the least asked make room next), at most `questionLimit`
 * of them; and per asker (a daily hash of a client) a set of the questions it counted, gone when its day ends.
 */
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { slidingWindowResult } from '../core/rate-limit.ts';
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
  UNANSWERED_LIMIT,
} from '../core/ask/unanswered.ts';
import type {
  DeadLetter,
  IdempotencyRecord,
  LimitPolicy,
  LimitResult,
  OutboxItem,
  Store,
  UnansweredQuestion,
} from '../core/ports.ts';

export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Upper bound for one read-budget round trip, retries included. @default 300 */
  timeoutMs?: number;
  /** Upper bound for one lead-path round trip (lead budget, idempotency, outbox), retries included. @default 1500 */
  leadTimeoutMs?: number;
  /** Prefix of every key. @default 'kartage' */
  prefix?: string;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT (5,000) */
  questionLimit?: number;
  /**
   * `@upstash/ratelimit`'s analytics for the read budget (shown in the Upstash console), at one more Redis command
   * per read. @default false (KARTAGE_RATELIMIT_ANALYTICS)
   */
  analytics?: boolean;
  /** Keeps work alive after the answer is sent (the analytics write; Vercel's `waitUntil`). */
  defer?: (work: Promise<unknown>) => void;
}

/**
 * The read budget as `@upstash/ratelimit` keeps it for `policy` (a sliding window), on `redis`: its keys are the
 * ones the store always used (`<prefix>:rl:<policy>:<client>:<window index>`), so counts carry over.
 *
 * Its ephemeral cache is off: it holds a refusal until the window ends, and then, after a burst, through the
 * whole next window (the window just spent still weighs fully at its start), so a client that waits its
 * Retry-After gets about half the contract's 120 a minute. This instance's memory of refusals
 * (src/core/rate-limit.ts) does the cache's job, no Redis call for a refused client, until the exact moment a
 * unit frees, on every engine alike.
 */
export function readLimiter(
  redis: Redis,
  prefix: string,
  policy: LimitPolicy,
  opts: { timeoutMs: number; analytics?: boolean },
): Ratelimit {
  return new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(policy.limit, `${policy.windowSeconds} s`),
    prefix: `${prefix}:rl:${policy.name}`,
    ephemeralCache: false,
    timeout: opts.timeoutMs,
    analytics: opts.analytics ?? false,
    enableTelemetry: false,
  });
}

/** Refuses to run a script Redis reaches after ARGV[1] (epoch ms): its caller has given up on it. */
const LATE = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[1]) then
  return redis.error_reply('LATE: ran after its deadline, did nothing')
end
`;

// KEYS: the window a read unit was spent in. Gives it back (never below zero).
const WINDOW_REFUND = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

// Drops the log entries that left the window, adds this one when there is room, and reports the oldest
// entry (the next slot to free). ARGV: deadline, now (ms), window (ms), limit, unique member.
const SLIDING_LOG = `${LATE}
local key, now, window, limit = KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
local allowed = 0
if used < limit then
  redis.call('ZADD', key, now, ARGV[5])
  used = used + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, used, tonumber(oldest[2] or now)}`;

// Returns what the key holds, or claims it (nil) when it holds nothing. ARGV: deadline, record, ttl (ms).
const CLAIM = `${LATE}
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return false`;

// ARGV: deadline, record, ttl (ms).
const COMPLETE = `${LATE}
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

// Deletes the key only while it is still a pending claim (never a finished answer).
const RELEASE = `
local held = redis.call('GET', KEYS[1])
if held and string.find(held, '"state":"pending"', 1, true) then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: queue, payloads, attempts, queue times. ARGV: deadline, id, payload, now. An id already queued is left
// as is.
const PUSH = `${LATE}
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3]) == 1 then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
  redis.call('HSET', KEYS[4], ARGV[2], ARGV[4])
end
return 1`;

// KEYS: queue, payloads, attempts, queue times, legacy list, quarantine. ARGV: now, lease (ms), max.
// First moves entries of the list earlier versions queued into (a JSON {record, attempts} each) into the
// queue, unreadable ones to quarantine; then leases up to max free entries, oldest first. An entry queued
// before queue times were kept counts from its first claim since.
const CLAIM_OUTBOX = `
local now, lease, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 1, max do
  local raw = redis.call('LPOP', KEYS[5])
  if not raw then break end
  local ok, v = pcall(cjson.decode, raw)
  if ok and type(v) == 'table' and type(v.record) == 'table' and type(v.record.id) == 'string' then
    -- Scores below now, in list order: oldest first, and free at once.
    if redis.call('HSETNX', KEYS[2], v.record.id, raw) == 1 then redis.call('ZADD', KEYS[1], now - max + i, v.record.id) end
  else
    redis.call('RPUSH', KEYS[6], cjson.encode({reason = 'unreadable legacy outbox entry', payload = raw}))
  end
end
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, max)) do
  redis.call('ZADD', KEYS[1], now + lease, id)
  redis.call('HSETNX', KEYS[4], id, ARGV[1])
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
  out[#out + 1] = redis.call('HINCRBY', KEYS[3], id, 1)
  out[#out + 1] = redis.call('HGET', KEYS[4], id)
end
return out`;

// KEYS: queue, payloads, attempts, queue times. ARGV: id.
const ACK = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1`;

// KEYS: queue. ARGV: id, when it may be claimed again (now, or after its backoff). To the back of the queue
// (only while still queued).
const RETRY = `
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
return 1`;

// KEYS: queue, attempts. ARGV: id. Free at once, at the front (it was among the oldest when claimed), and the
// claim not counted (only while still queued).
const RELEASE_OUTBOX = `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', 0, ARGV[1])
if tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') > 0 then redis.call('HINCRBY', KEYS[2], ARGV[1], -1) end
return 1`;

// KEYS: queue, payloads, attempts, queue times, quarantine. ARGV: id, reason.
const QUARANTINE = `
local payload = redis.call('HGET', KEYS[2], ARGV[1])
if not payload then return 0 end
redis.call('RPUSH', KEYS[5], cjson.encode({id = ARGV[1], reason = ARGV[2], payload = payload}))
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1`;

// KEYS: queue, payloads, attempts, queue times, dead letters, their counter, their alerts. ARGV: id, the reason
// as JSON ({reason, status?, answer?, at}). Out of the queue and into the dead letters in one step, not yet
// announced, its alert due at once.
const DEAD_LETTER = `
local payload = redis.call('HGET', KEYS[2], ARGV[1])
if not payload then return 0 end
local letter = cjson.decode(ARGV[2])
letter.id = ARGV[1]
letter.payload = payload
letter.attempts = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
letter.queuedAt = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or letter.at)
letter.n = redis.call('INCR', KEYS[6])
letter.announced = false
letter.alerts = 0
redis.call('HSET', KEYS[5], ARGV[1], cjson.encode(letter))
redis.call('ZADD', KEYS[7], 0, ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1`;

// KEYS: queue, payloads, attempts, queue times, dead letters, their alerts. ARGV: id, now. Out of the dead
// letters and back at the end of the queue in one step, free at once, with no attempts; 0 when it is not (or no
// longer) there.
const DEAD_REQUEUE = `
local raw = redis.call('HGET', KEYS[5], ARGV[1])
if not raw then return 0 end
redis.call('HDEL', KEYS[5], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
if redis.call('HSETNX', KEYS[2], ARGV[1], cjson.decode(raw).payload) == 1 then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
end
return 1`;

// KEYS: dead letters, their alerts (ids of the unannounced, scored by when the alert is next due), the mark that
// letters from before alerts were kept are in it. ARGV: now, lease (ms), max. Returns the claimed letters as JSON,
// oldest first, each with one more alert and leased.
const ALERT_CLAIM = `
if redis.call('EXISTS', KEYS[3]) == 0 then
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if cjson.decode(all[i + 1]).announced == nil then redis.call('ZADD', KEYS[2], 'NX', 0, all[i]) end
  end
  redis.call('SET', KEYS[3], 1)
end
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
local letters = {}
for _, id in ipairs(due) do
  local raw = redis.call('HGET', KEYS[1], id)
  if raw then letters[#letters + 1] = cjson.decode(raw) else redis.call('ZREM', KEYS[2], id) end
end
table.sort(letters, function(a, b) return a.n < b.n end)
local out = {}
for i = 1, math.min(#letters, tonumber(ARGV[3])) do
  local letter = letters[i]
  letter.alerts = (letter.alerts or 0) + 1
  letter.announced = false
  local raw = cjson.encode(letter)
  redis.call('HSET', KEYS[1], letter.id, raw)
  redis.call('ZADD', KEYS[2], now + lease, letter.id)
  out[#out + 1] = raw
end
return out`;

// KEYS: dead letters, their alerts. ARGV: id. Announced: out of the alerts, never claimed again.
const ALERT_DONE = `
redis.call('ZREM', KEYS[2], ARGV[1])
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local letter = cjson.decode(raw)
letter.announced = true
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(letter))
return 1`;

const SIZE = `return redis.call('ZCARD', KEYS[1]) + redis.call('LLEN', KEYS[2])`;

/**
 * The score of an unanswered question: count * QUESTION_SCALE + the epoch second it was last asked. Exact in
 * a double while the count stays under 900,000 (where it stops); the order is by count, then by recency.
 */
const QUESTION_SCALE = 1e10;
const QUESTION_MAX_COUNT = 900_000;
/** The member of an asker's set that marks it a flood for the rest of its day (no question key holds a `!`). */
const FLOOD = '!flood';

// KEYS: counts (sorted set: count and last-asked second), texts (hash), last-asked seconds (sorted set), the
// flood-shaped ones (sorted set, scored as counts), the asker's set of the keys it counted (or any key when no
// asker), the mark that questions counted before last-asked seconds were kept are in theirs.
// ARGV: key, text, second, limit, '1' with an asker, the time left in its day (ms: the caller's clock, not Redis's),
// the asker's daily bound, its trusted questions, the second before which a question is stale.
const COUNT_QUESTION = `
local scale = ${QUESTION_SCALE}
local key, text, second, limit = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call('EXISTS', KEYS[6]) == 0 then
  local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #all, 2 do
    local score = tonumber(all[i + 1])
    redis.call('ZADD', KEYS[3], score - math.floor(score / scale) * scale, all[i])
  end
  redis.call('SET', KEYS[6], 1)
end
local function forget(k)
  redis.call('ZREM', KEYS[1], k)
  redis.call('ZREM', KEYS[3], k)
  redis.call('ZREM', KEYS[4], k)
  redis.call('HDEL', KEYS[2], k)
end
local trusted = true
if ARGV[5] == '1' then
  if redis.call('SISMEMBER', KEYS[5], '${FLOOD}') == 1 or redis.call('SISMEMBER', KEYS[5], key) == 1 then return 0 end
  local asked = redis.call('SMEMBERS', KEYS[5])
  if #asked >= tonumber(ARGV[7]) then
    -- A flood: what it counted is withdrawn, and nothing more of its day counts.
    for _, k in ipairs(asked) do
      local held = redis.call('ZSCORE', KEYS[1], k)
      if held then
        if tonumber(held) < 2 * scale then forget(k)
        else
          redis.call('ZINCRBY', KEYS[1], -scale, k)
          if redis.call('ZSCORE', KEYS[4], k) then redis.call('ZINCRBY', KEYS[4], -scale, k) end
        end
      end
    end
    redis.call('DEL', KEYS[5])
    redis.call('SADD', KEYS[5], '${FLOOD}')
    redis.call('PEXPIRE', KEYS[5], ARGV[6])
    return 0
  end
  trusted = #asked < tonumber(ARGV[8])
  redis.call('SADD', KEYS[5], key)
  redis.call('PEXPIRE', KEYS[5], ARGV[6])
end
local held = redis.call('ZSCORE', KEYS[1], key)
local count, last = 1, second
if held then
  local score = tonumber(held)
  local c = math.floor(score / scale)
  count = math.min(c + 1, ${QUESTION_MAX_COUNT})
  last = math.max(score - c * scale, second)
end
local score = string.format('%.0f', count * scale + last)
redis.call('ZADD', KEYS[1], score, key)
redis.call('ZADD', KEYS[3], last, key)
if held then
  if trusted then redis.call('ZREM', KEYS[4], key)
  elseif redis.call('ZSCORE', KEYS[4], key) then redis.call('ZADD', KEYS[4], score, key) end
  return 1
end
redis.call('HSET', KEYS[2], key, text)
if not trusted then redis.call('ZADD', KEYS[4], score, key) end
local excess = redis.call('ZCARD', KEYS[1]) - limit
if excess <= 0 then return 1 end
-- Stale questions make room first (the longest unasked first), then flood-shaped ones (the least asked first);
-- never a fresh visitor's question: with none of those, the newcomer itself is not kept.
local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[9], 'LIMIT', 0, excess + 1)
for _, k in ipairs(stale) do
  if excess > 0 and k ~= key then forget(k); excess = excess - 1 end
end
if excess > 0 then
  for _, k in ipairs(redis.call('ZRANGE', KEYS[4], 0, excess)) do
    if excess > 0 and k ~= key then forget(k); excess = excess - 1 end
  end
end
if excess > 0 then
  forget(key)
  if ARGV[5] == '1' then redis.call('SREM', KEYS[5], key) end
end
return 1`;

// KEYS: counts, texts. ARGV: limit. Returns text, score, text, score… most asked first.
const TOP_QUESTIONS = `
local out = {}
local ranked = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #ranked, 2 do
  out[#out + 1] = redis.call('HGET', KEYS[2], ranked[i]) or ranked[i]
  out[#out + 1] = ranked[i + 1]
end
return out`;

/** A dead letter as the hash keeps it: numbered in the order it came; from before alerts, without their fields. */
type StoredLetter = Omit<DeadLetter, 'announced' | 'alerts'> & { n: number; announced?: boolean; alerts?: number };

/** A stored dead letter as the port's `DeadLetter`. */
function letterOf({ n: _n, announced, alerts, ...letter }: StoredLetter): DeadLetter {
  return { ...letter, announced: announced === true, alerts: alerts ?? 0 };
}

/** The error of a read-budget check the library gave up on after `ms` (the caller falls back to its own count). */
const timedOut = (ms: number) =>
  Object.assign(new Error(`the read budget got no answer from Upstash within ${ms} ms`), { name: 'TimeoutError' });

/** Margin between a script's deadline and the caller's bound, so a script that ran has time to answer. */
const DEADLINE_MARGIN_MS = 100;

export function createUpstashStore(opts: UpstashStoreOptions): Store {
  const timeoutMs = opts.timeoutMs ?? 300;
  const leadTimeoutMs = opts.leadTimeoutMs ?? 1500;
  const prefix = opts.prefix ?? 'kartage';
  const client = (bound: number, retries: number) =>
    new Redis({
      url: opts.url,
      token: opts.token,
      automaticDeserialization: false,
      enableTelemetry: false,
      retry: { retries, backoff: (n) => 20 * (n + 1) },
      // A fresh signal per request: the bound covers the request and its retries.
      signal: () => AbortSignal.timeout(bound),
    });
  const reads = client(timeoutMs, 1);
  const leads = client(leadTimeoutMs, 2);
  const deadline = () => String(Date.now() + Math.max(leadTimeoutMs / 2, leadTimeoutMs - DEADLINE_MARGIN_MS));
  /** One limiter per sliding-window policy (in production, the read budget alone). */
  const limiters = new Map<string, Ratelimit>();
  const limiter = (policy: LimitPolicy) => {
    const id = `${policy.name}:${policy.limit}:${policy.windowSeconds}`;
    let l = limiters.get(id);
    if (!l) limiters.set(id, (l = readLimiter(reads, prefix, policy, { timeoutMs, analytics: opts.analytics })));
    return l;
  };
  const defer = opts.defer ?? ((work: Promise<unknown>) => void work.catch(() => {}));
  const windowRefund = leads.createScript<number>(WINDOW_REFUND);
  const slidingLog = leads.createScript<[number, number, number]>(SLIDING_LOG);
  const claimScript = leads.createScript<string | null>(CLAIM);
  const completeScript = leads.createScript<number>(COMPLETE);
  const releaseScript = leads.createScript<number>(RELEASE);
  const pushScript = leads.createScript<number>(PUSH);
  const claimOutbox = leads.createScript<(string | number)[]>(CLAIM_OUTBOX);
  const ackScript = leads.createScript<number>(ACK);
  const retryScript = leads.createScript<number>(RETRY);
  const releaseOutboxScript = leads.createScript<number>(RELEASE_OUTBOX);
  const quarantineScript = leads.createScript<number>(QUARANTINE);
  const deadLetterScript = leads.createScript<number>(DEAD_LETTER);
  const deadRequeueScript = leads.createScript<number>(DEAD_REQUEUE);
  const alertClaimScript = leads.createScript<string[]>(ALERT_CLAIM);
  const alertDoneScript = leads.createScript<number>(ALERT_DONE);
  const sizeScript = leads.createScript<number>(SIZE);
  // Counting goes through the read client (its short bound); the report through the lead client (longer).
  const countQuestionScript = reads.createScript<number>(COUNT_QUESTION);
  const topQuestionsScript = leads.createScript<string[]>(TOP_QUESTIONS);
  const key = (k: string) => `${prefix}:${k}`;
  const queue = [key('outbox:queue'), key('outbox:payloads'), key('outbox:attempts'), key('outbox:queued')];
  const legacy = key('outbox');
  const quarantine = key('outbox:quarantine');
  const dead = key('outbox:dead');
  const alerts = [dead, key('outbox:dead:alerts'), key('outbox:dead:alerts:since')];
  const windowKey = (name: string, client: string, idx: number) => key(`rl:${name}:${client}:${idx}`);
  const questions = [
    key('ask:unanswered:counts'),
    key('ask:unanswered:texts'),
    key('ask:unanswered:last'),
    key('ask:unanswered:suspect'),
    key('ask:unanswered:last:since'),
  ];
  const questionLimit = opts.questionLimit ?? UNANSWERED_LIMIT;

  return {
    async hit(policy, client, now): Promise<LimitResult> {
      const windowMs = policy.windowSeconds * 1000;
      if (policy.algorithm === 'sliding-window') {
        // The library's clock, not `now`: the same instant in production, where `now` is Date.now().
        const r = await limiter(policy).limit(client);
        if (r.reason === 'timeout') throw timedOut(timeoutMs);
        defer(r.pending);
        const idx = r.reset / windowMs - 1; // the window it decided in: the one `reset` ends
        if (r.success)
          return {
            allowed: true,
            limit: policy.limit,
            remaining: Math.max(0, r.remaining),
            resetAt: r.reset,
            unit: String(idx),
          };
        // The library names the window's end, not when a unit frees: the two windows' counts say that (one more
        // round trip, once per refused client: the caller remembers the refusal until then).
        const [current, previous] = await reads.mget<[string | null, string | null]>(
          windowKey(policy.name, client, idx),
          windowKey(policy.name, client, idx - 1),
        );
        const at = Math.min(Math.max(Date.now(), r.reset - windowMs), r.reset - 1);
        return slidingWindowResult(policy, Number(previous ?? 0), Number(current ?? 0), at, false);
      }
      const member = `${now}:${Math.random().toString(36).slice(2)}`;
      const [allowed, used, oldest] = await slidingLog.exec(
        [key(`rl:${policy.name}:${client}`)],
        [deadline(), String(now), String(windowMs), String(policy.limit), member],
      );
      const result = {
        allowed: Number(allowed) === 1,
        limit: policy.limit,
        remaining: Math.max(0, policy.limit - Number(used)),
        resetAt: Number(oldest) + windowMs,
      };
      return result.allowed ? { ...result, unit: member } : result;
    },
    async refund(policy, client, result) {
      if (!result.allowed || !result.unit) return;
      if (policy.algorithm === 'sliding-window') {
        await windowRefund.exec([windowKey(policy.name, client, Number(result.unit))], []);
        return;
      }
      await leads.zrem(key(`rl:${policy.name}:${client}`), result.unit);
    },

    async claim(k, fingerprint, claimSeconds) {
      const pending: IdempotencyRecord = { state: 'pending', fingerprint };
      const held = await claimScript.exec([key(k)], [deadline(), JSON.stringify(pending), String(claimSeconds * 1000)]);
      return held == null ? undefined : (JSON.parse(held) as IdempotencyRecord);
    },
    async complete(k, record, ttlSeconds) {
      await completeScript.exec([key(k)], [deadline(), JSON.stringify(record), String(ttlSeconds * 1000)]);
    },
    async release(k) {
      await releaseScript.exec([key(k)], []);
    },

    async outboxPush(id, payload) {
      await pushScript.exec(queue, [deadline(), id, payload, String(Date.now())]);
    },
    async outboxClaim(max, leaseSeconds) {
      const flat = await claimOutbox.exec(
        [...queue, legacy, quarantine],
        [String(Date.now()), String(leaseSeconds * 1000), String(max)],
      );
      const items: OutboxItem[] = [];
      for (let i = 0; i + 3 < flat.length; i += 4)
        items.push({
          id: String(flat[i]),
          payload: String(flat[i + 1]),
          attempts: Number(flat[i + 2]),
          queuedAt: Number(flat[i + 3]),
        });
      return items;
    },
    async outboxAck(id) {
      await ackScript.exec(queue, [id]);
    },
    async outboxRetry(id, _error, delayMs = 0) {
      await retryScript.exec([queue[0]!], [id, String(Date.now() + Math.max(0, delayMs))]);
    },
    async outboxRelease(id) {
      await releaseOutboxScript.exec([queue[0]!, queue[2]!], [id]);
    },
    async outboxQuarantine(id, reason) {
      await quarantineScript.exec([...queue, quarantine], [id, reason]);
    },
    async outboxSize() {
      return Number(await sizeScript.exec([queue[0]!, legacy], []));
    },
    async quarantineSize() {
      return Number(await leads.llen(quarantine));
    },
    async outboxDeadLetter(id, why) {
      const reason = JSON.stringify({ ...why, answer: why.answer?.slice(0, 500), at: Date.now() });
      return Number(await deadLetterScript.exec([...queue, dead, `${dead}:seq`, alerts[1]!], [id, reason])) === 1;
    },
    async deadLetters() {
      const all: unknown[] = await leads.hvals(dead);
      const letters = all.map((raw) => JSON.parse(String(raw)) as StoredLetter);
      return letters.sort((a, b) => a.n - b.n).map(letterOf);
    },
    async deadLetterAlertClaim(max, leaseSeconds) {
      if (!(max > 0)) return [];
      const claimed = await alertClaimScript.exec(alerts, [
        String(Date.now()),
        String(leaseSeconds * 1000),
        String(max),
      ]);
      return claimed.map((raw) => letterOf(JSON.parse(String(raw)) as StoredLetter));
    },
    async deadLetterAnnounced(id) {
      await alertDoneScript.exec(alerts.slice(0, 2), [id]);
    },
    async deadLetterAlertRetry(id, delayMs) {
      await retryScript.exec([alerts[1]!], [id, String(Date.now() + Math.max(0, delayMs))]);
    },
    async deadLetterSize() {
      return Number(await leads.hlen(dead));
    },
    async deadLetterRequeue(id) {
      return Number(await deadRequeueScript.exec([...queue, dead, alerts[1]!], [id, String(Date.now())])) === 1;
    },

    async countQuestion(k, text, at, asker) {
      const stale = Math.floor((at - QUESTION_STALE_MS) / 1000);
      await countQuestionScript.exec(
        [...questions.slice(0, 4), asker === undefined ? questions[0]! : key(`ask:asker:${asker}`), questions[4]!],
        [
          k,
          text,
          String(Math.floor(at / 1000)),
          String(questionLimit),
          asker === undefined ? '0' : '1',
          String((Math.floor(at / DAY_MS) + 1) * DAY_MS - at),
          String(ASKER_DAILY_QUESTIONS),
          String(ASKER_TRUSTED_QUESTIONS),
          String(stale),
        ],
      );
    },
    async topQuestions(limit) {
      const n = Math.floor(limit);
      if (!(n > 0)) return [];
      const flat = await topQuestionsScript.exec(questions.slice(0, 2), [String(n)]);
      const out: UnansweredQuestion[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const score = Number(flat[i + 1]);
        const count = Math.floor(score / QUESTION_SCALE);
        out.push({ text: String(flat[i]), count, lastAsked: (score - count * QUESTION_SCALE) * 1000 });
      }
      return out;
    },
    describe: () => `Upstash Redis at ${new URL(opts.url).host}`,
  };
}
