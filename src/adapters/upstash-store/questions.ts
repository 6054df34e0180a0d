/** @module The Upstash store's count of unanswered questions, and of what each asker counted that day. */
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
} from '../../core/unanswered/index.ts';
import type { Store, UnansweredQuestion } from '../../core/ports.ts';
import type { UpstashContext } from './context.ts';

/**
 * The score of an unanswered question: count * QUESTION_SCALE + the epoch second it was last asked. Exact in
 * a double while the count stays under QUESTION_MAX_COUNT (where it stops); the order is by count, then by recency.
 */
const QUESTION_SCALE = 1e10;
const QUESTION_MAX_COUNT = 900_000;
/** The member of an asker's set that marks it a flood for the rest of its day (no question key holds a `!`). */
const FLOOD = '!flood';

// The script that counts a question, in four parts.
// KEYS: counts (sorted set: count and last-asked second), texts (hash), last-asked seconds (sorted set), the
// flood-shaped ones (sorted set, scored as counts), the asker's set of the keys it counted (or any key when no
// asker), the mark that questions counted before last-asked seconds were kept are in theirs.
// ARGV: key, text, second, limit, '1' with an asker, the time left in its day (ms: the caller's clock, not Redis's),
// the asker's daily bound, its trusted questions, the second before which a question is stale.

// The arguments; questions counted before last-asked seconds were kept get theirs (once); `forget`.
const COUNT_SETUP = `
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
end`;

// With an asker: nothing when it asked this already or flooded; its question is trusted among its first.
const COUNT_ASKER = `
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
end`;

// One more asking: the count (capped), the last-asked second, and whether it is flood-shaped.
const COUNT_ONE = `
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
if not trusted then redis.call('ZADD', KEYS[4], score, key) end`;

// A new question past the bound: room made, or the newcomer not kept.
const COUNT_ROOM = `
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

const COUNT_QUESTION = `${COUNT_SETUP}${COUNT_ASKER}${COUNT_ONE}${COUNT_ROOM}`;

const TOP_QUESTIONS = `
local out = {}
local ranked = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #ranked, 2 do
  out[#out + 1] = redis.call('HGET', KEYS[2], ranked[i]) or ranked[i]
  out[#out + 1] = ranked[i + 1]
end
return out`;

/** The store's `countQuestion` and `topQuestions`, keeping at most `limit` questions. */
export function upstashQuestions(
  { reads, leads, key }: UpstashContext,
  limit: number,
): Pick<Store, 'countQuestion' | 'topQuestions'> {
  // Counts (the score also carries the last-asked second: the report ranks by count, then recency), the scrubbed
  // texts, the last-asked seconds (the stale make room first), the flood-shaped (the least asked make room next),
  // and the mark that questions counted before last-asked seconds were kept have theirs. Per asker, a set.
  const questions = [
    key('ask:unanswered:counts'),
    key('ask:unanswered:texts'),
    key('ask:unanswered:last'),
    key('ask:unanswered:suspect'),
    key('ask:unanswered:last:since'),
  ];
  // Counting goes through the read client (its short bound); the report through the lead client (longer).
  const countQuestionScript = reads.createScript<number>(COUNT_QUESTION);
  const topQuestionsScript = leads.createScript<string[]>(TOP_QUESTIONS);
  return {
    async countQuestion(k, text, at, asker) {
      const stale = Math.floor((at - QUESTION_STALE_MS) / 1000);
      await countQuestionScript.exec(
        [...questions.slice(0, 4), asker === undefined ? questions[0]! : key(`ask:asker:${asker}`), questions[4]!],
        [
          k,
          text,
          String(Math.floor(at / 1000)),
          String(limit),
          asker === undefined ? '0' : '1',
          String((Math.floor(at / DAY_MS) + 1) * DAY_MS - at),
          String(ASKER_DAILY_QUESTIONS),
          String(ASKER_TRUSTED_QUESTIONS),
          String(stale),
        ],
      );
    },
    async topQuestions(n) {
      const count = Math.floor(n);
      if (!(count > 0)) return [];
      const flat = await topQuestionsScript.exec(questions.slice(0, 2), [String(count)]);
      const out: UnansweredQuestion[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const score = Number(flat[i + 1]);
        const asked = Math.floor(score / QUESTION_SCALE);
        out.push({ text: String(flat[i]), count: asked, lastAsked: (score - asked * QUESTION_SCALE) * 1000 });
      }
      return out;
    },
  };
}
