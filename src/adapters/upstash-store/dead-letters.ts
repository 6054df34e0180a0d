/** @module The Upstash store's dead letters: leads the CRM would not take, with their alerts to sales. */
import { claimCount, type DeadLetter, type DeadLetterPart } from '../../core/ports.ts';
import type { UpstashContext } from './context.ts';
import { outboxKeys, RESCHEDULE } from './outbox.ts';

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

/** A dead letter as the hash keeps it: numbered in the order it came; from before alerts, without their fields. */
type StoredLetter = Omit<DeadLetter, 'announced' | 'alerts'> & { n: number; announced?: boolean; alerts?: number };

/** A stored dead letter as the port's `DeadLetter`. */
function letterOf({ n: _n, announced, alerts, ...letter }: StoredLetter): DeadLetter {
  return { ...letter, announced: announced === true, alerts: alerts ?? 0 };
}

/** The store's dead-letter operations. */
export function upstashDeadLetters({ leads, key }: UpstashContext): DeadLetterPart {
  const { queue } = outboxKeys(key);
  // A hash of JSON letters, each numbered from a counter so they list oldest first; the ids sales were not yet told
  // of, in a sorted set scored by when their alert is next due (a lease's end, or its backoff's).
  const dead = key('outbox:dead');
  const alertIds = key('outbox:dead:alerts');
  const alerts = [dead, alertIds, key('outbox:dead:alerts:since')];
  const deadLetterScript = leads.createScript<number>(DEAD_LETTER);
  const deadRequeueScript = leads.createScript<number>(DEAD_REQUEUE);
  const alertClaimScript = leads.createScript<string[]>(ALERT_CLAIM);
  const alertDoneScript = leads.createScript<number>(ALERT_DONE);
  const alertRetryScript = leads.createScript<number>(RESCHEDULE);
  return {
    async outboxDeadLetter(id, why) {
      const reason = JSON.stringify({ ...why, answer: why.answer?.slice(0, 500), at: Date.now() });
      return Number(await deadLetterScript.exec([...queue, dead, `${dead}:seq`, alertIds], [id, reason])) === 1;
    },
    async deadLetters() {
      const all: unknown[] = await leads.hvals(dead);
      const letters = all.map((raw) => JSON.parse(String(raw)) as StoredLetter);
      return letters.sort((a, b) => a.n - b.n).map(letterOf);
    },
    async deadLetterAlertClaim(max, leaseSeconds) {
      const claimed = await alertClaimScript.exec(alerts, [
        String(Date.now()),
        String(leaseSeconds * 1000),
        String(claimCount(max)),
      ]);
      return claimed.map((raw) => letterOf(JSON.parse(String(raw)) as StoredLetter));
    },
    async deadLetterAnnounced(id) {
      await alertDoneScript.exec([dead, alertIds], [id]);
    },
    async deadLetterAlertRetry(id, delayMs) {
      await alertRetryScript.exec([alertIds], [id, String(Date.now() + Math.max(0, delayMs))]);
    },
    async deadLetterSize() {
      return Number(await leads.hlen(dead));
    },
    async deadLetterRequeue(id) {
      return Number(await deadRequeueScript.exec([...queue, dead, alertIds], [id, String(Date.now())])) === 1;
    },
  };
}
