/**
 * @module The embedded store, the local default: rate limits and idempotency records in this process's
 * memory, the lead outbox in a JSON-lines file when one is given (so queued leads survive a restart).
 * One process only; production runs several instances and uses the Upstash store instead.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { IdempotencyRecord, LimitPolicy, LimitResult, Store } from '../core/ports.ts';

export interface MemoryStoreOptions {
  /** JSON-lines file for the lead outbox; in memory when absent (tests). */
  outboxFile?: string;
  /** Clock for expiry of idempotency records. @default Date.now */
  now?: () => number;
}

interface Entry<T> { value: T; until: number }

/** Runs async steps one after another (file rewrites must not interleave). */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const run = tail.then(step, step);
    tail = run.catch(() => {});
    return run;
  };
}

export function createMemoryStore(opts: MemoryStoreOptions = {}): Store {
  const clock = opts.now ?? (() => Date.now());
  const counters = new Map<string, Entry<number>>();
  const logs = new Map<string, Entry<number[]>>();
  const keys = new Map<string, Entry<IdempotencyRecord>>();
  let lastSweep = 0;

  const sweep = (now: number) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const map of [counters, logs, keys] as Map<string, Entry<unknown>>[]) {
      for (const [k, e] of map) if (e.until <= now) map.delete(k);
    }
  };

  const memoryOutbox: string[] = [];
  const file = opts.outboxFile;
  const inOrder = serial();
  const readOutbox = async (): Promise<string[]> => {
    if (!file) return memoryOutbox;
    try {
      return (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  };

  return {
    async hit(policy: LimitPolicy, client: string, now: number): Promise<LimitResult> {
      sweep(now);
      const windowMs = policy.windowSeconds * 1000;
      if (policy.algorithm === 'fixed-window') {
        // Windows aligned to the epoch, as @upstash/ratelimit's fixedWindow does, so both stores agree.
        const start = Math.floor(now / windowMs) * windowMs;
        const key = `${policy.name}:${client}:${start}`;
        const used = (counters.get(key)?.value ?? 0) + 1;
        counters.set(key, { value: used, until: start + windowMs });
        return { allowed: used <= policy.limit, limit: policy.limit, remaining: Math.max(0, policy.limit - used), resetAt: start + windowMs };
      }
      const key = `${policy.name}:${client}`;
      const times = (logs.get(key)?.value ?? []).filter((t) => t > now - windowMs);
      const allowed = times.length < policy.limit;
      if (allowed) times.push(now);
      logs.set(key, { value: times, until: now + windowMs });
      return { allowed, limit: policy.limit, remaining: policy.limit - times.length, resetAt: times[0]! + windowMs };
    },

    async claim(key, fingerprint, claimSeconds) {
      const now = clock();
      const held = keys.get(key);
      if (held && held.until > now) return held.value;
      keys.set(key, { value: { state: 'pending', fingerprint }, until: now + claimSeconds * 1000 });
      return undefined;
    },
    async complete(key, record, ttlSeconds) {
      keys.set(key, { value: record, until: clock() + ttlSeconds * 1000 });
    },
    async release(key) {
      if (keys.get(key)?.value.state === 'pending') keys.delete(key);
    },

    outboxPush: (entry) =>
      inOrder(async () => {
        if (!file) return void memoryOutbox.push(entry);
        await mkdir(dirname(file), { recursive: true });
        await appendFile(file, entry.replace(/\n/g, ' ') + '\n');
      }),
    outboxPeek: (max) => inOrder(async () => (await readOutbox()).slice(0, max)),
    outboxRemove: (entry) =>
      inOrder(async () => {
        const all = await readOutbox();
        const at = all.indexOf(entry);
        if (at < 0) return;
        if (!file) return void memoryOutbox.splice(at, 1);
        all.splice(at, 1);
        // Write a new file and rename it over the old one, so a crash mid-write never loses the queue.
        await writeFile(`${file}.tmp`, all.map((l) => l + '\n').join(''));
        await rename(`${file}.tmp`, file);
      }),
    outboxSize: () => inOrder(async () => (await readOutbox()).length),
    describe: () => `embedded store (memory${file ? `, outbox ${file}` : ''})`,
  };
}
