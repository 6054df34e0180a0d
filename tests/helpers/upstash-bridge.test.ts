/**
 * @module Proves the Upstash REST bridge is faithful enough to run the real `@upstash/redis` and
 * `@upstash/ratelimit` clients against a real local Redis: data types, encodings, pipelines,
 * transactions, Lua scripts (including ratelimit's `#!lua` shebang scripts and their EVALSHA hashes),
 * auth, and the injected faults other tests rely on.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis, type RedisConfigNodejs } from '@upstash/redis';
import { Ratelimit } from '@upstash/ratelimit';
import { startRedis, type RunningRedis } from './redis-server.ts';
import { startUpstashBridge, type UpstashBridge } from './upstash-bridge.ts';

let redisServer: RunningRedis | undefined;
let bridge: UpstashBridge;

beforeAll(async () => {
  // Throws "redis-server is not installed: ..." when it is missing, which fails every test here on purpose.
  redisServer = await startRedis();
  bridge = await startUpstashBridge({ redisPort: redisServer.port });
});

afterAll(async () => {
  await bridge?.stop();
  await redisServer?.stop();
});

const key = (name: string) => `bridge-test:${name}:${randomUUID()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const client = (extra: Partial<RedisConfigNodejs> = {}) =>
  new Redis({ url: bridge.url, token: bridge.token, enableTelemetry: false, ...extra });

/** Waits out the end of a rate-limit window, so a short burst of calls lands in one window. */
async function awayFromWindowEdge(windowMs: number, marginMs = 2_000) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await sleep(left + 20);
}

/** Records the paths @upstash/redis posts to (it calls the global fetch on each request). */
function recordRequests() {
  const paths: string[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return realFetch(input, init);
  });
  return { paths, restore: () => spy.mockRestore() };
}

// Auto-pipelining (the default) sends everything to /pipeline; without it single commands go to POST /.
describe.each([
  { mode: 'auto-pipelining (default)', enableAutoPipelining: true },
  { mode: 'one request per command', enableAutoPipelining: false },
])('@upstash/redis through the bridge, $mode', ({ enableAutoPipelining }) => {
  const redis = () => client({ enableAutoPipelining });

  it('sets and gets strings, including unicode, control bytes, base64-looking text and "OK"', async () => {
    const r = redis();
    const values = ['plain', 'héllo wörld ✓ 日本語 🚀', '\u0000\u0001\u0007\u007f\u0080\u00ff', 'aGVsbG8=', 'OK', ''];
    for (const v of values) {
      const k = key('str');
      expect(await r.set(k, v)).toBe('OK');
      expect(await r.get(k)).toBe(v);
    }
    const k = key('json');
    await r.set(k, { a: 1, b: 'ü', c: [true, null] });
    expect(await r.get(k)).toEqual({ a: 1, b: 'ü', c: [true, null] });
    expect(await r.get(key('missing'))).toBeNull();
  });

  it('increments, and reports Redis errors as rejections', async () => {
    const r = redis();
    const k = key('counter');
    expect(await r.incr(k)).toBe(1);
    expect(await r.incrby(k, 5)).toBe(6);
    const text = key('text');
    await r.set(text, 'abc');
    await expect(r.incr(text)).rejects.toThrow(/not an integer/);
  });

  it('expires keys and reports their TTL', async () => {
    const r = redis();
    const k = key('ttl');
    await r.set(k, 'v');
    expect(await r.ttl(k)).toBe(-1);
    expect(await r.expire(k, 100)).toBe(1);
    const ttl = await r.ttl(k);
    expect(ttl).toBeGreaterThan(90);
    expect(ttl).toBeLessThanOrEqual(100);
    const k2 = key('ttl-ex');
    await r.set(k2, 'v', { ex: 50 });
    expect(await r.ttl(k2)).toBeGreaterThan(40);
  });

  it('writes hashes and reads them back as an object', async () => {
    const r = redis();
    const k = key('hash');
    expect(await r.hset(k, { name: 'Kartage', n: 1, note: 'ünï' })).toBe(3);
    expect(await r.hgetall(k)).toEqual({ name: 'Kartage', n: 1, note: 'ünï' });
    expect(await r.hget(k, 'name')).toBe('Kartage');
    expect(await r.hgetall(key('no-hash'))).toBeNull();
  });

  it('pushes to lists and reads ranges', async () => {
    const r = redis();
    const k = key('list');
    expect(await r.lpush(k, 'a', 'b', 'c')).toBe(3);
    expect(await r.lrange(k, 0, -1)).toEqual(['c', 'b', 'a']);
  });

  it('adds to sorted sets and reads ranges with and without scores', async () => {
    const r = redis();
    const k = key('zset');
    expect(await r.zadd(k, { score: 2, member: 'two' }, { score: 1, member: 'one' })).toBe(2);
    expect(await r.zrange(k, 0, -1)).toEqual(['one', 'two']);
    expect(await r.zrange(k, 0, -1, { withScores: true })).toEqual(['one', 1, 'two', 2]);
  });

  it('runs a pipeline in order, with per-command errors', async () => {
    const r = redis();
    const [k, c, t] = [key('p'), key('pc'), key('pt')];
    const res = await r.pipeline().set(k, 'v').get(k).incr(c).incr(c).exec();
    expect(res).toEqual(['OK', 'v', 1, 2]);
    await r.set(t, 'text');
    const kept = await r.pipeline().incr(t).get(t).exec({ keepErrors: true });
    expect(kept[0]?.error).toMatch(/not an integer/);
    expect(kept[1]).toEqual({ error: undefined, result: 'text' });
    await expect(r.pipeline().incr(t).exec()).rejects.toThrow(/Command 1 \[ incr \] failed/);
  });

  it('runs a transaction with MULTI/EXEC', async () => {
    const r = redis();
    const [k, c] = [key('m'), key('mc')];
    expect(await r.multi().set(k, 'v').incr(c).incr(c).get(k).exec()).toEqual(['OK', 1, 2, 'v']);
    // A runtime error inside EXEC fails that command only; Redis does not roll back the others.
    const kept = await r.multi().set(c, 'x').incr(c).get(c).exec({ keepErrors: true });
    expect(kept.map((e) => e.error === undefined)).toEqual([true, false, true]);
    expect(kept[2]?.result).toBe('x');
  });

  it('evaluates Lua scripts, including one with the #!lua shebang plain Redis rejects', async () => {
    const r = redis();
    expect(await r.eval('return {KEYS[1], ARGV[1], tonumber(ARGV[2]) + 1}', ['k1'], ['a', 41])).toEqual([
      'k1',
      'a',
      42,
    ]);
    const k = key('lua');
    const script = '#!lua flags=allow-key-locking\nreturn redis.call("INCRBY", KEYS[1], ARGV[1])';
    expect(await r.eval(script, [k], [3])).toBe(3);
    expect(await r.eval(script, [k], [4])).toBe(7);
    // Status replies nested in an array must be base64 too: the client decodes every string in an array.
    expect(
      await r.eval('return {redis.call("SET", KEYS[1], "v"), redis.call("TYPE", KEYS[1])}', [key('nested')], []),
    ).toEqual(['OK', 'string']);
  });

  it('loads scripts and runs them by the SHA1 the client computes over the original text', async () => {
    const r = redis();
    const script = `#!lua flags=allow-key-locking\nreturn "loaded:" .. ARGV[1] -- ${randomUUID()}`;
    const sha = createHash('sha1').update(script).digest('hex');
    expect(await r.scriptExists(sha)).toEqual([0]);
    await expect(r.evalsha(sha, [], ['x'])).rejects.toThrow(/NOSCRIPT/);
    expect(await r.scriptLoad(script)).toBe(sha);
    expect(await r.scriptExists(sha)).toEqual([1]);
    expect(await r.evalsha(sha, [], ['x'])).toBe('loaded:x');
    const plain = `return ARGV[1] -- ${randomUUID()}`;
    const plainSha = await r.scriptLoad(plain);
    expect(plainSha).toBe(createHash('sha1').update(plain).digest('hex'));
    expect(await r.evalsha(plainSha, [], ['y'])).toBe('y');
  });
});

describe('@upstash/ratelimit through the bridge', () => {
  it('fixedWindow(3, "10 s"): three successes with decreasing remaining, then a failure', async () => {
    const limiter = new Ratelimit({
      redis: client(),
      limiter: Ratelimit.fixedWindow(3, '10 s'),
      ephemeralCache: false,
      prefix: key('rl-fixed'),
    });
    await awayFromWindowEdge(10_000);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.limit('user-1'));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.every((r) => r.limit === 3 && r.reset > Date.now())).toBe(true);
    expect((await limiter.limit('user-2')).success).toBe(true);
    expect(await limiter.getRemaining('user-1')).toMatchObject({ remaining: 0, limit: 3 });
  });

  it('slidingWindow(3, "10 s"): three successes with decreasing remaining, then a failure', async () => {
    const limiter = new Ratelimit({
      redis: client(),
      limiter: Ratelimit.slidingWindow(3, '10 s'),
      ephemeralCache: false,
      prefix: key('rl-sliding'),
    });
    await awayFromWindowEdge(10_000);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.limit('user-1'));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    await limiter.resetUsedTokens('user-1');
    expect((await limiter.limit('user-1')).success).toBe(true);
  });

  it('falls back from EVALSHA to EVAL once, then hits the script cache (one request per limit())', async () => {
    const limiter = new Ratelimit({
      redis: client(),
      limiter: Ratelimit.tokenBucket(5, '10 s', 5),
      ephemeralCache: false,
      prefix: key('rl-trips'),
    });
    const rec = recordRequests();
    try {
      await limiter.limit('a'); // a fresh Redis: EVALSHA answers NOSCRIPT, then EVAL
      expect(rec.paths).toEqual(['/pipeline', '/pipeline']);
      rec.paths.length = 0;
      const second = await limiter.limit('a');
      expect(second).toMatchObject({ success: true, remaining: 3 });
      expect(rec.paths).toEqual(['/pipeline']);
    } finally {
      rec.restore();
    }
  });
});

describe('bridge behaviour', () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(bridge.url + path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${bridge.token}`, ...headers },
    });

  it('rejects a wrong token with 401', async () => {
    const res = await fetch(bridge.url, {
      method: 'POST',
      body: '["PING"]',
      headers: { Authorization: 'Bearer nope' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toHaveProperty('error');
    const wrong = new Redis({ url: bridge.url, token: 'nope', enableTelemetry: false });
    await expect(wrong.get('x')).rejects.toThrow(/Unauthorized/);
  });

  it('answers the raw REST protocol: plain and base64 encodings, 400 on a Redis error', async () => {
    const k = key('raw');
    expect(await (await post('/', ['SET', k, 'héllo', 'EX', 10])).json()).toEqual({ result: 'OK' });
    expect(await (await post('/', ['GET', k])).json()).toEqual({ result: 'héllo' });
    expect(await (await post('/', ['GET', k], { 'Upstash-Encoding': 'base64' })).json()).toEqual({
      result: Buffer.from('héllo').toString('base64'),
    });
    const bad = await post('/', ['INCR', k]);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(
      await (
        await post('/pipeline', [
          ['TTL', k],
          ['MGET', k, key('none')],
          ['INCR', k],
        ])
      ).json(),
    ).toEqual([{ result: 10 }, { result: ['héllo', null] }, { error: 'ERR value is not an integer or out of range' }]);
    expect(
      await (
        await post(
          '/multi-exec',
          [
            ['SET', k, 1],
            ['INCR', k],
          ],
          { 'Upstash-Encoding': 'base64' },
        )
      ).json(),
    ).toEqual([{ result: 'OK' }, { result: 2 }]);
  });

  it('runs a blocking command on its own connection, so other requests are not held up', async () => {
    const k = key('blocking');
    const popped = post('/', ['BLPOP', k, 5]);
    await sleep(50);
    expect(await (await post('/', ['RPUSH', k, 'v'])).json()).toEqual({ result: 1 });
    expect(await (await popped).json()).toEqual({ result: [k, 'v'] });
  });

  it("setFault('down') makes calls fail quickly with a network error, 'none' restores service", async () => {
    const redis = client({ retry: { retries: 0 } });
    const k = key('fault');
    await redis.set(k, 'before');
    bridge.setFault('down');
    try {
      const started = Date.now();
      await expect(redis.get(k)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      bridge.setFault('none');
    }
    expect(await redis.get(k)).toBe('before');
  });

  it('setFault({ delayMs }) delays each answer', async () => {
    const redis = client();
    const k = key('slow');
    await redis.set(k, 'v');
    bridge.setFault({ delayMs: 300 });
    try {
      const started = Date.now();
      expect(await redis.get(k)).toBe('v');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      // @upstash/ratelimit fails open when Redis answers later than its timeout.
      const limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(1, '10 s'),
        ephemeralCache: false,
        timeout: 100,
        prefix: key('rl-slow'),
      });
      expect(await limiter.limit('u')).toMatchObject({ success: true, reason: 'timeout' });
    } finally {
      bridge.setFault('none');
    }
  });
});
