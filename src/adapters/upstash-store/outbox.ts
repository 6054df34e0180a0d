/** @module The Upstash store's lead outbox and its quarantine. */
import { claimCount, type OutboxItem, type OutboxPart } from '../../core/ports.ts';
import { LATE, type UpstashContext } from './context.ts';

/**
 * The outbox's keys: the queue (delivery ids scored by when each may next be claimed: queue order, then a lease's
 * end or a retry's backoff) with its hashes of payloads, attempts and queue times; the list earlier versions queued
 * into (moved into the queue at the first claim); the quarantine list.
 */
export function outboxKeys(key: (k: string) => string) {
  return {
    queue: [key('outbox:queue'), key('outbox:payloads'), key('outbox:attempts'), key('outbox:queued')],
    legacy: key('outbox'),
    quarantine: key('outbox:quarantine'),
  };
}

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

/** Gives id ARGV[1] of the sorted set KEYS[1] (the queue, the alerts) its next due time ARGV[2], if still there. */
export const RESCHEDULE = `
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

// KEYS: queue, legacy list.
const SIZE = `return redis.call('ZCARD', KEYS[1]) + redis.call('LLEN', KEYS[2])`;

/** The store's outbox operations. */
export function upstashOutbox({ leads, key, deadline }: UpstashContext): OutboxPart {
  const { queue, legacy, quarantine } = outboxKeys(key);
  const pushScript = leads.createScript<number>(PUSH);
  const claimOutbox = leads.createScript<(string | number)[]>(CLAIM_OUTBOX);
  const ackScript = leads.createScript<number>(ACK);
  const retryScript = leads.createScript<number>(RESCHEDULE);
  const releaseOutboxScript = leads.createScript<number>(RELEASE_OUTBOX);
  const quarantineScript = leads.createScript<number>(QUARANTINE);
  const sizeScript = leads.createScript<number>(SIZE);
  return {
    async outboxPush(id, payload) {
      await pushScript.exec(queue, [deadline(), id, payload, String(Date.now())]);
    },
    async outboxClaim(max, leaseSeconds) {
      const flat = await claimOutbox.exec(
        [...queue, legacy, quarantine],
        [String(Date.now()), String(leaseSeconds * 1000), String(claimCount(max))],
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
  };
}
